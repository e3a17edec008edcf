package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.hmsim.launcher.Container;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;
import org.osgi.framework.ServiceReference;

/**
 * {@code sim:swap} typed into a Gogo session (the shell's own command processor) while a study runs: the
 * L2 replacement slot of the running run goes from lru to random at its next epoch end, the run completes
 * with every request answered, and swaps.csv has the row (cause {@code shell}).
 */
class ShellSwapTest {
    @TempDir Path plugins;
    @TempDir Path dir;
    Container container;
    Object session;
    Method execute;
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    @BeforeEach
    void start() throws Exception {
        container = Hmsim.start(plugins);
        // The Gogo runtime's CommandProcessor, reached through its bundle's class loader (the test class
        // path holds only the framework).
        ServiceReference<?> ref = container.context().getServiceReference("org.apache.felix.service.command.CommandProcessor");
        assertTrue(ref != null, "the container runs the Gogo runtime");
        Bundle gogo = ref.getBundle();
        Class<?> processorType = gogo.loadClass("org.apache.felix.service.command.CommandProcessor");
        Class<?> sessionType = gogo.loadClass("org.apache.felix.service.command.CommandSession");
        Object processor = container.context().getService(ref);
        session = processorType.getMethod("createSession", java.io.InputStream.class, java.io.OutputStream.class, java.io.OutputStream.class)
                .invoke(processor, new ByteArrayInputStream(new byte[0]), out, out);
        execute = sessionType.getMethod("execute", CharSequence.class);
    }

    @AfterEach
    void stop() {
        if (container != null) container.close();
    }

    /** Runs one shell line; returns what it printed. */
    private String shell(String line) throws Exception {
        // Not synchronized on out itself: the study's progress lines write into it from another thread.
        synchronized (this) {
            out.reset();
            execute.invoke(session, line);
            return out.toString(StandardCharsets.UTF_8);
        }
    }

    private String awaitShell(String line, Predicate<String> done, String what) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        String r = shell(line);
        while (!done.test(r) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            r = shell(line);
        }
        assertTrue(done.test(r), what + "\n" + r);
        return r;
    }

    private static double sum(Map<String, Double> stats, String keyPattern) {
        return stats.entrySet().stream().filter(e -> e.getKey().matches(keyPattern)).mapToDouble(Map.Entry::getValue).sum();
    }

    @Test
    void simSwapOfTheL2ReplacementSlotLosesNoRequest() throws Exception {
        Path study = Hmsim.write(dir.resolve("shell.yaml"), "study: shell", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 4194304 }", "policies:", "  replacement: lru", "epoch: 1us");
        Path results = dir.resolve("out");
        shell("sim:run " + study + " --out " + results + " --no-report --jobs 1");
        awaitShell("sim:status", s -> s.contains("swaps: 0") && s.contains("replacement=lru"), "the run is simulating with lru");

        String swapped = shell("sim:swap 0001 replacement random");
        assertTrue(swapped.contains("replacement -> random@"), swapped);
        awaitShell("sim:status", s -> s.contains("replacement=random@") || s.contains(": finished"), "the swap is taken");
        awaitShell("sim:status", s -> s.contains(": finished"), "the study finishes");

        assertEquals(List.of("ok"), Studies.column(results, "status"));
        List<Map<String, String>> swaps = Studies.swaps(results);
        assertEquals(1, swaps.size(), swaps.toString());
        Map<String, String> row = swaps.get(0);
        assertEquals("replacement", row.get("slot"));
        assertTrue(row.get("from").startsWith("lru@"), row.toString());
        assertTrue(row.get("to").startsWith("random@"), row.toString());
        assertEquals("shell", row.get("cause"));
        assertEquals("ok", row.get("outcome"));
        assertTrue(row.get("state").contains("rebuilt"), row.toString());

        // Every request answered: the crossbar carried as many responses as requests, and each coalesced
        // line request went into the memory system (a run that ends with work outstanding fails instead).
        Map<String, Double> stats = stats(results.resolve("runs/0001/stats.json"));
        assertTrue(stats.get("gpu0.xbar.req_packets") > 0, stats::toString);
        assertEquals(stats.get("gpu0.xbar.req_packets"), stats.get("gpu0.xbar.resp_packets"), "every L2 request answered");
        // A NACKed request (the L2's MSHRs full, as in the start-up burst when the swap lands in the first epochs) is
        // sent again: each line request reached the L2 once, plus once per NACK.
        double l1Nacks = sum(stats, "gpu0\\.sm\\d+\\.l1\\.nacks_received"), l2Nacks = sum(stats, "gpu0\\.l2\\.slice\\d+\\.nacks");
        java.util.function.Supplier<String> why = () -> "every line request reached the L2, once plus once per NACK: " + row + "\n" + stats.entrySet().stream()
                .filter(e -> e.getKey().matches(".*(nack|line_requests|packets).*") && e.getValue() != 0).toList();
        assertEquals(l2Nacks, l1Nacks, why);
        assertEquals(stats.get("gpu0.line_requests") + l1Nacks, stats.get("gpu0.xbar.req_packets"), why);
        long swapNs = Long.parseLong(row.get("sim_time_ns").replaceAll("\\..*", ""));
        assertTrue(swapNs > 0 && swapNs < Double.parseDouble(Studies.column(results, "sim_time_ns").get(0)), "mid-run: " + row);
    }

    /** A swap to the same policy with other parameters: status showed the old ones, unmarked (a shell trial). */
    /** A dram-scheduler swap on a machine whose pools fix their scheduler is taken and says it changed nothing (a trial read only swaps.csv). */
    @Test
    void simSwapOfTheDramSchedulerSaysWhenNoPoolTakesIt() throws Exception {
        Path m = Hmsim.write(dir.resolve("fixed.yaml"), "name: fixed", "gpus: 1", "gpu: {sms: 4}", "pools:",
                "  - {name: gddr, kind: GDDR5, node: gpu0, channels: 4, bandwidth: 100GB/s, capacity: 1GB, scheduler: fcfs}",
                "  - {name: ddr, kind: DDR4, node: cpu, channels: 2, bandwidth: 40GB/s, capacity: 4GB, scheduler: fr-fcfs}",
                "links:", "  - {between: [gpu0, cpu], latency_cycles: 100, bandwidth: 64GB/s}");
        Path study = Hmsim.write(dir.resolve("fixed-study.yaml"), "study: fixedsched", "seed: 7", "machine: " + m,
                "workloads:", "  - { name: stream, elements: 4194304 }", "epoch: 1us");
        Path results = dir.resolve("fixed-out");
        shell("sim:run " + study + " --out " + results + " --no-report --jobs 1");
        awaitShell("sim:status", s -> s.contains("swaps: 0"), "the run is simulating");
        String swapped = shell("sim:swap 0001 dram-scheduler fcfs");
        assertTrue(swapped.contains("dram-scheduler -> fcfs@") && swapped.contains("so nothing changed"), swapped);
        awaitShell("sim:status", s -> s.contains(": finished"), "the study finishes");
    }

    @Test
    void simStatusShowsTheParametersASwapGave() throws Exception {
        Path study = Hmsim.write(dir.resolve("params.yaml"), "study: params", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 4194304 }", "policies:", "  placement: {name: ratio, fast_percent: 30}", "epoch: 1us");
        Path results = dir.resolve("params-out");
        shell("sim:run " + study + " --out " + results + " --no-report --jobs 1");
        awaitShell("sim:status", s -> s.contains("swaps: 0") && s.contains("placement=ratio@1.0.0(fast_percent=30)"), "the run is simulating");
        String swapped = shell("sim:swap 0001 placement ratio fast_percent=60");
        assertTrue(swapped.contains("placement -> ratio@1.0.0(fast_percent=60) at "), swapped);
        String status = shell("sim:status"); // answered once taken, at the epoch end after the command: most of the run is left
        assertTrue(status.contains("placement=ratio@1.0.0(fast_percent=60) (swapped)"), status);
        String done = awaitShell("sim:status", s -> s.contains(": finished"), "the study finishes");
        assertEquals(List.of("ok"), Studies.column(results, "status"), done);
    }

    /**
     * {@code sim:swap throttling static sms_per_gpu=1} while a stream runs: SMs 1-3 finish the blocks they hold and take
     * no more, so SM 0 runs the rest of the grid; every block runs and every request is answered.
     */
    @Test
    void simSwapToStaticThrottlingMovesTheRestOfTheGridToOneSm() throws Exception {
        Path study = Hmsim.write(dir.resolve("throttle.yaml"), "study: throttle", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 4194304 }", "epoch: 1us");
        Path results = dir.resolve("throttled");
        shell("sim:run " + study + " --out " + results + " --no-report --jobs 1");
        awaitShell("sim:status", s -> s.contains("swaps: 0") && s.contains("throttling=none"), "the run is simulating");
        // a cap at the machine's SMs per GPU caps nothing: refused as validation refuses it (a shell trial's swap was taken)
        String nothing = shell("sim:swap throttling static sms_per_gpu=64");
        assertTrue(nothing.contains("it would only label the run") && !nothing.contains("throttling -> static@"), nothing);
        String swapped = shell("sim:swap throttling static sms_per_gpu=1");
        assertTrue(swapped.contains("throttling -> static@"), swapped);
        awaitShell("sim:status", s -> s.contains(": finished"), "the study finishes");

        assertEquals(List.of("ok"), Studies.column(results, "status"));
        Map<String, String> row = Studies.swaps(results).get(0);
        assertEquals("ok", row.get("outcome"), row.toString());
        assertTrue(row.get("state").contains("hardware's thread-block and warp limits"), row.toString());
        Map<String, Double> stats = stats(results.resolve("runs/0001/stats.json"));
        double blocks = sum(stats, "gpu0\\.sm\\d+\\.ctas_completed");
        assertEquals(stats.get("gpu0.ctas_launched"), blocks, "every block dispatched ran to the end");
        assertTrue(stats.get("gpu0.sm0.ctas_completed") > 2 * stats.get("gpu0.sm1.ctas_completed"),
                "SM 0 ran the rest of the grid: " + stats.get("gpu0.sm0.ctas_completed") + " against SM 1's " + stats.get("gpu0.sm1.ctas_completed"));
        assertEquals(stats.get("gpu0.xbar.req_packets"), stats.get("gpu0.xbar.resp_packets"), "every L2 request answered");
    }

    /**
     * A script's {@code sim:swap} right after its {@code sim:run}: the run is still being set up, and the swap was refused
     * ("not simulating yet"; the shell has no wait command, so a plugin author's script needed fixed sleeps). It now waits
     * for the run of the running study to start, and is taken at its first epoch end. Also in the form without the run's
     * id, which a researcher's script found answered "no run in progress" (its study then ran without the swap).
     */
    @Test
    void simSwapRightAfterSimRunWaitsForTheRunToStart() throws Exception {
        Path study = Hmsim.write(dir.resolve("early.yaml"), "study: early", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 4194304 }", "policies:", "  replacement: lru", "epoch: 1us");
        Path results = dir.resolve("early");
        shell("sim:run " + study + " --out " + results + " --no-report --jobs 1");
        String swapped = shell("sim:swap replacement random");
        assertTrue(swapped.contains("replacement -> random@"), swapped);
        // a run the study does not have is refused at once, naming the runs it has (a review's typo was waited on)
        long t0 = System.nanoTime();
        String unknown = shell("sim:swap 0099 replacement random");
        assertTrue(unknown.contains("study early has no run '0099' (its runs: 0001)"), unknown);
        assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "refused at once");
        String bad = shell("sim:await --timeout 5x");
        assertTrue(bad.contains("--timeout 5x is not a duration"), bad);
        // a script lets the study finish with sim:await (it had only a busy loop on sim:status)
        String ended = shell("sim:await");
        assertTrue(ended.contains("study early ended: 1 done, 0 failed"), ended);
        assertTrue(shell("sim:status").contains(": finished"), "the study has finished when sim:await returns");
        List<Map<String, String>> swaps = Studies.swaps(results);
        assertEquals(1, swaps.size(), swaps.toString());
        assertEquals("ok", swaps.get(0).get("outcome"), swaps.toString());
    }

    /**
     * Issue 4 / issue 7 done-when: {@code sim:swap} of the coherence slot (bundle hmsim-sahc) from the
     * block-grain directory to SAHC-A while the seed-001 APU (CPU cores, directory) runs apu-bfs. The drain
     * holds SMs and CPU cores, waits for the directory's MSHRs and memory port, flushes every cache and
     * rebuilds the directory; afterwards every GPU request, directory lookup and CPU access was answered. Typed as
     * DESIGN §1 has it, {@code sim:swap coherence sahc-a}: the run's id may be left out while one run is in flight.
     */
    @Test
    void simSwapOfTheCoherenceSlotLosesNoRequest() throws Exception {
        Path machine = Hmsim.examples().resolve("machines/sahc.yaml");
        assertTrue(Files.isRegularFile(machine), "machine preset " + machine);
        Path study = Hmsim.write(dir.resolve("coherence.yaml"), "study: shell-coherence", "seed: 7", "machine: " + machine,
                "overrides: { gpu.sms: 8, gpu.l2.slices: 16 }",
                "workloads:", "  - { name: apu-bfs, elements: 65536 }", "policies:", "  coherence: directory", "epoch: 1us");
        Path results = dir.resolve("out");
        shell("sim:run " + study + " --out " + results + " --no-report --jobs 1");
        awaitShell("sim:status", s -> s.contains("swaps: 0") && s.contains("coherence=directory"), "the run is simulating with the directory");

        // the design's form: with one run in flight its id may be left out
        String swapped = shell("sim:swap coherence sahc-a");
        assertTrue(swapped.contains("run 0001: coherence -> sahc-a@"), swapped);
        awaitShell("sim:status", s -> s.contains("coherence=sahc-a@") || s.contains(": finished"), "the swap is taken");
        awaitShell("sim:status", s -> s.contains(": finished"), "the study finishes");
        String none = shell("sim:swap coherence directory");
        assertTrue(none.contains("swap: no run in progress"), none);

        assertEquals(List.of("ok"), Studies.column(results, "status"));
        List<Map<String, String>> swaps = Studies.swaps(results);
        assertEquals(1, swaps.size(), swaps.toString());
        Map<String, String> row = swaps.get(0);
        assertEquals("coherence", row.get("slot"));
        assertTrue(row.get("from").startsWith("directory"), row.toString());
        assertTrue(row.get("to").startsWith("sahc-a@"), row.toString());
        assertTrue(row.get("to_bundle").contains("sahc"), "provided by the sahc bundle: " + row);
        assertEquals("shell", row.get("cause"));
        assertEquals("ok", row.get("outcome"));
        assertTrue(row.get("state").contains("directory rebuilt empty"), row.toString());
        long swapNs = Long.parseLong(row.get("sim_time_ns").replaceAll("\\..*", ""));
        assertTrue(swapNs > 0 && swapNs < Double.parseDouble(Studies.column(results, "sim_time_ns").get(0)), "mid-run: " + row);

        Map<String, Double> s = stats(results.resolve("runs/0001/stats.json"));
        assertTrue(s.get("gpu0.xbar.req_packets") > 0, s::toString);
        assertEquals(s.get("gpu0.xbar.req_packets"), s.get("gpu0.xbar.resp_packets"), "every GPU L2 request answered");
        assertEquals(0.0, s.get("gpu0.in_flight"), "no GPU MSHR or queue entry left");
        double admitted = s.get("directory.admitted");
        assertTrue(admitted > 0, "the directory was used before the swap");
        assertEquals(admitted, s.get("directory.lookups"), "every request admitted by the directory was looked up");
        assertEquals(admitted, s.get("directory.completed") + s.get("directory.writebacks"), "every lookup answered or sent on");
        assertEquals(0.0, s.get("directory.in_flight"), "no directory MSHR left");
        assertEquals(s.get("cpu.accesses"), s.get("cpu.completed"), "every CPU access completed");
        assertEquals(0.0, s.get("cpu.in_flight"), "no CPU miss register left");
    }

    /** The numbers of stats.json's "stats" object (a flat map of names to numbers). */
    static Map<String, Double> stats(Path file) throws Exception {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int at = text.indexOf("\"stats\"");
        Map<String, Double> m = new java.util.TreeMap<>();
        java.util.regex.Matcher e = java.util.regex.Pattern.compile("\"([^\"]+)\"\\s*:\\s*(-?[0-9.Ee+-]+)").matcher(text.substring(at));
        while (e.find()) m.put(e.group(1), Double.parseDouble(e.group(2)));
        return m;
    }
}
