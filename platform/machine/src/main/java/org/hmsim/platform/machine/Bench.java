package org.hmsim.platform.machine;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import org.hmsim.api.workload.Workload;

/**
 * {@code hmsim bench}: a fixed scenario — the seed-000 GTX-480-like machine running a mix of built-in
 * workloads (streaming, graph, sparse, dense, uncoalesced, stencil) with the baseline policies — timed
 * on one thread after one warm-up pass. It prints simulated memory requests per second (coalesced line
 * requests that reach the L1s), events per second and the peak heap. Rates are per wall-clock second and,
 * on a second line, per CPU second of the simulating thread: on a shared machine the wall clock also
 * counts the time other processes held the core, the thread's CPU time only the simulation's own work.
 */
public final class Bench {
    /** The scenario: workload name and parameters. Fixed, so figures compare across versions. */
    static final List<Map.Entry<String, Object[]>> SCENARIO = List.of(
            Map.entry("stream", new Object[] {"elements", 1_000_000}),
            Map.entry("bfs", new Object[] {}),
            Map.entry("spmv", new Object[] {}),
            Map.entry("sgemm", new Object[] {}),
            Map.entry("kmeans", new Object[] {}),
            Map.entry("hotspot", new Object[] {}));

    private Bench() {}

    /**
     * @param policies the baseline policies (the kernel passes its registry's defaults)
     * @param workloads creates a workload from its name, parameters (name, value pairs) and seed
     */
    public static int run(String[] args, PrintStream out, PolicySource policies, BiFunction<String, Object[], Workload> workloads) {
        int repeats = 1;
        String usage = "usage: hmsim bench [--repeat N]   (the fixed scenario of README \"Performance\"; N passes after a warm-up, default 1)";
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                out.println(usage);
                return 0;
            }
            if (args[i].equals("--repeat") && i + 1 < args.length && args[i + 1].matches("[1-9]\\d{0,5}")) repeats = Integer.parseInt(args[++i]);
            else {
                out.println(usage);
                return 2;
            }
        }
        MachineConfig machine = machine();
        out.println("hmsim bench: machine " + machine.name() + ", workloads " + SCENARIO.stream().map(Map.Entry::getKey).toList() + ", one thread");
        pass(machine, policies, workloads, null);
        long requests = 0, events = 0, nanos = 0, cpuNanos = 0;
        for (int r = 0; r < repeats; r++) {
            long[] totals = pass(machine, policies, workloads, out);
            requests += totals[0];
            events += totals[1];
            nanos += totals[2];
            cpuNanos += totals[3];
        }
        double s = nanos / 1e9;
        out.printf(Locale.ROOT, "simulated memory requests/s: %.2f million (%d line requests in %.2f s)%n", requests / s / 1e6, requests, s);
        if (cpuNanos > 0) {
            double c = cpuNanos / 1e9;
            out.printf(Locale.ROOT, "per CPU second of the simulating thread: %.2f million requests/s, %.2f million events/s (%.2f s CPU)%n",
                    requests / c / 1e6, events / c / 1e6, c);
        }
        out.printf(Locale.ROOT, "events/s: %.2f million%n", events / s / 1e6);
        out.printf(Locale.ROOT, "peak heap: %d MB%n", peakHeapBytes() >> 20);
        BenchSwaps.report(machine, policies, workloads, out);
        return 0;
    }

    /** One pass over the scenario: {line requests, events, wall ns, thread CPU ns (0 if unsupported)}. */
    private static long[] pass(MachineConfig machine, PolicySource policies, BiFunction<String, Object[], Workload> workloads, PrintStream out) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        boolean cpu = threads.isCurrentThreadCpuTimeSupported();
        long requests = 0, events = 0, nanos = 0, cpuNanos = 0;
        for (Map.Entry<String, Object[]> e : SCENARIO) {
            Workload w = workloads.apply(e.getKey(), e.getValue());
            long c0 = cpu ? threads.getCurrentThreadCpuTime() : 0;
            long t0 = System.nanoTime();
            RunResult r = Simulation.run(new RunSpec("bench", machine, w, policies, 1, 10_000_000, 0));
            long dt = System.nanoTime() - t0;
            if (cpu) cpuNanos += threads.getCurrentThreadCpuTime() - c0;
            requests += r.memoryRequests();
            events += r.events();
            nanos += dt;
            if (out != null)
                out.printf(Locale.ROOT, "  %-8s %9d requests %10d events %7.2f s  %6.2f M req/s%n", e.getKey(), r.memoryRequests(), r.events(), dt / 1e9,
                        r.memoryRequests() / (dt / 1e9) / 1e6);
        }
        return new long[] {requests, events, nanos, cpuNanos};
    }

    @SuppressWarnings("unchecked")
    static MachineConfig machine() {
        try (InputStream in = Bench.class.getResourceAsStream("bench-machine.yaml")) {
            return MachineConfig.parse((Map<String, Object>) org.hmsim.platform.machine.yaml.YamlCore.yaml().load(in));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long peakHeapBytes() {
        long sum = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) if (p.getType() == MemoryType.HEAP) sum += p.getPeakUsage().getUsed();
        return sum;
    }
}
