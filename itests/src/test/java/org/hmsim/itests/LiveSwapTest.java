package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Live swaps in a real Felix: a scripted swap is recorded in swaps.csv, and a recorded hand swap replays exactly. */
class LiveSwapTest extends ContainerPerClass {
    private static Path study(Path dir, String name, String... swaps) throws Exception {
        String[] head = {"study: " + name, "seed: 7", "machine: " + Hmsim.smallMachine(), "workloads:",
                "  - { name: stream, elements: 65536 }", "policies:", "  placement: {name: ratio, fast_percent: 0}", "epoch: 1us"};
        String[] all = new String[head.length + swaps.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(swaps, 0, all, head.length, swaps.length);
        return Hmsim.write(dir.resolve(name + ".yaml"), all);
    }

    @Test
    void aScriptedSwapIsRecordedAndAHandSwapReplaysExactly(@TempDir Path dir) throws Exception {
        Path scripted = study(dir, "scripted", "swaps:", "  - {at: epoch 3, slot: placement, to: {name: ratio, fast_percent: 100}}");
        Path out = dir.resolve("scripted-results");
        Hmsim.Result r = Hmsim.run(container, "run", scripted.toString(), "--out", out.toString(), "--no-report");
        assertEquals(0, r.code(), () -> Studies.errors(r, out));
        Path swaps = out.resolve("runs/0001/swaps.csv");
        List<List<String>> rows = Studies.parseCsv(Files.readString(swaps, StandardCharsets.UTF_8));
        assertEquals("sim_time_ns", rows.get(0).get(0), "the report reads sim_time_ns first");
        assertEquals(2, rows.size(), rows.toString());
        List<String> row = rows.get(1);
        assertEquals("3000", row.get(0));
        assertEquals("placement", row.get(rows.get(0).indexOf("slot")));
        assertTrue(row.get(rows.get(0).indexOf("from")).startsWith("ratio@"), row.toString());
        assertEquals("fast_percent=100", row.get(rows.get(0).indexOf("params")));
        assertEquals("ok", row.get(rows.get(0).indexOf("outcome")));
        assertTrue(Double.parseDouble(Studies.column(out, "pool.gddr.bytes").get(0)) > 0, "the second phase uses GDDR");
        assertTrue(Double.parseDouble(Studies.column(out, "pool.ddr.bytes").get(0)) > 0, "the first phase uses DDR");

        // The same swap as if typed in the shell at that epoch end, then replayed into a study without a script.
        Path recorded = dir.resolve("recorded");
        Files.createDirectories(recorded.resolve("runs/0001"));
        Files.writeString(recorded.resolve("runs/0001/swaps.csv"), Files.readString(swaps).replace(",script,", ",shell,"));
        // the run the swap was taken in: the replay matches runs by their configuration, not by id alone
        Files.copy(out.resolve("runs/0001/config.json"), recorded.resolve("runs/0001/config.json"));
        Path plain = study(dir, "plain");
        Path replayOut = dir.resolve("replayed");
        Hmsim.Result p = Hmsim.run(container, "run", plain.toString(), "--out", replayOut.toString(), "--no-report", "--replay-swaps", recorded.toString());
        assertEquals(0, p.code(), () -> Studies.errors(p, replayOut));
        assertEquals(Studies.column(out, "sim_time_ns"), Studies.column(replayOut, "sim_time_ns"));
        assertEquals(Files.readString(out.resolve("runs/0001/stats.json")).replace("scripted", "plain"),
                Files.readString(replayOut.resolve("runs/0001/stats.json")).replace("scripted", "plain"), "the replay gives the same numbers");
        List<List<String>> replayed = Studies.parseCsv(Files.readString(replayOut.resolve("runs/0001/swaps.csv"), StandardCharsets.UTF_8));
        assertEquals("replay", replayed.get(1).get(replayed.get(0).indexOf("cause")));
    }

    /**
     * The dram-scheduler slot swapped mid-run in the container, to policies of the memory-scheduling bundle: the CPU's
     * phase beside a GPU that saturates the DRAM ends sooner than under FR-FCFS alone, and each swap is recorded ok.
     */
    @Test
    void theDramSchedulerSwapsToAnotherBundlesPolicyMidRun(@TempDir Path dir) throws Exception {
        String[] head = {"seed: 1", "machine: " + Hmsim.examples().resolve("machines/sahc.yaml"),
                "overrides: {pools.ddr.bandwidth: 40GB/s, pools.ddr.queue: 512}",
                "workloads:", "  - {file: " + Hmsim.examples().resolve("workloads/cpu-beside-gpu.yaml") + ", n: 65536, cpu_kb: 64}"};
        Path plain = Hmsim.write(dir.resolve("plain.yaml"), concat(new String[] {"study: plain"}, head));
        Path swapped = Hmsim.write(dir.resolve("swapped.yaml"), concat(new String[] {"study: swapped"}, head, new String[] {"swaps:",
                "  - {at: 2us, slot: dram-scheduler, to: cpu-first}", "  - {at: 6us, slot: dram-scheduler, to: {name: bliss, threshold: 8}}"}));
        Path a = dir.resolve("a"), b = dir.resolve("b");
        Hmsim.Result ra = Hmsim.run(container, "run", plain.toString(), "--out", a.toString(), "--no-report");
        assertEquals(0, ra.code(), () -> Studies.errors(ra, a));
        Hmsim.Result rb = Hmsim.run(container, "run", swapped.toString(), "--out", b.toString(), "--no-report");
        assertEquals(0, rb.code(), () -> Studies.errors(rb, b));
        List<java.util.Map<String, String>> swaps = Studies.swaps(b);
        assertEquals(2, swaps.size(), swaps.toString());
        for (var s : swaps) assertEquals("ok", s.get("outcome"), s.toString());
        assertTrue(swaps.toString().contains("org.hmsim.memsched"), "the memory-scheduling bundle's policies: " + swaps);
        double before = Double.parseDouble(Studies.column(a, "host_phase_ns").get(0)), after = Double.parseDouble(Studies.column(b, "host_phase_ns").get(0));
        assertTrue(after < 0.9 * before, "the CPU's phase: " + after + " ns against " + before + " under FR-FCFS");
    }

    private static String[] concat(String[]... parts) {
        return java.util.Arrays.stream(parts).flatMap(java.util.Arrays::stream).toArray(String[]::new);
    }
}
