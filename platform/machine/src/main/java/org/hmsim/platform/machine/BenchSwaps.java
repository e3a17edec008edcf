package org.hmsim.platform.machine;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;

/**
 * The swap part of {@code hmsim bench} (issue 4: drain time under 1 ms wall at the benchmark's load): the
 * bench's stream workload (every SM issuing, DRAM saturated) with a slot swapped at every epoch end, then
 * the wall time each swap held the simulation thread (drain, flush and hand-over), first swap apart (class
 * loading, interpreted code) and then median and maximum, with the simulated drain. Two slots: replacement
 * (state rebuilt in place from the caches' contents, nothing to drain) and coherence (the whole memory
 * system drains, the caches are written back and invalidated, the write-backs drain).
 */
final class BenchSwaps {
    private BenchSwaps() {}

    static void report(MachineConfig machine, PolicySource policies, BiFunction<String, Object[], Workload> workloads, PrintStream out) {
        report(machine, policies, workloads, out, Slot.REPLACEMENT, 250_000, "replacement (rebuilt in place)");
        report(machine, policies, workloads, out, Slot.COHERENCE, 2_000_000, "coherence (memory drained, caches flushed)");
    }

    private static void report(MachineConfig machine, PolicySource policies, BiFunction<String, Object[], Workload> workloads, PrintStream out,
                               Slot slot, long epochPs, String what) {
        Host host = new Host(policies);
        Workload w = workloads.apply("stream", new Object[] {"elements", 262_144});
        ScriptedSwap every = new ScriptedSwap(ScriptedSwap.When.EVERY_EPOCHS, 1, slot,
                List.of(new ScriptedSwap.Choice(policies.describe(slot), Map.of())), "bench");
        Simulation.run(new RunSpec("bench-swaps", machine, w, host, 1, epochPs, 0), List.of(every));
        List<SwapRecord> ok = host.records.stream().filter(r -> r.outcome().equals("ok")).toList();
        out.print(summary(what, epochPs, ok));
    }

    /** One line: the first swap, then median and maximum wall time and the median simulated drain of the rest. */
    static String summary(String what, long epochPs, List<SwapRecord> ok) {
        if (ok.size() < 2) return String.format(Locale.ROOT, "swap drain, %s: %d swaps completed, too few to measure%n", what, ok.size());
        long[] wall = ok.stream().skip(1).mapToLong(SwapRecord::drainWallNs).sorted().toArray();
        long[] sim = ok.stream().skip(1).mapToLong(SwapRecord::drainSimPs).sorted().toArray();
        return String.format(Locale.ROOT,
                "swap drain, %s, %d swaps every %s ns: first %.1f us wall; then median %.1f us, max %.1f us wall; median %.1f ns simulated%n",
                what, ok.size(), epochPs / 1000, ok.get(0).drainWallNs() / 1e3, median(wall) / 1e3, wall[wall.length - 1] / 1e3, median(sim) / 1e3);
    }

    private static double median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }

    /** The bench's policies, swappable: a swap target is a fresh instance of the slot's own policy. */
    private static final class Host implements PolicySource, SwapHost {
        private final PolicySource policies;
        final List<SwapRecord> records = new ArrayList<>();

        Host(PolicySource policies) { this.policies = policies; }

        @Override
        public Policy create(Slot slot, PolicyContext context) { return policies.create(slot, context); }

        @Override
        public String describe(Slot slot) { return policies.describe(slot); }

        @Override
        public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
            return new SwapTarget(policies.describe(slot), "bench", "", ctx -> policies.create(slot, ctx));
        }

        @Override
        public String bundle(Slot slot) { return "bench"; }

        @Override
        public void ended(SwapControl control) { records.addAll(control.records()); }
    }
}
