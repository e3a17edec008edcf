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
 * bench's stream workload with the L2/L1 replacement slot swapped at every epoch end (a GPU drain: every
 * SM, L1, crossbar and L2 must empty), then the mean and maximum drain time, wall and simulated.
 */
final class BenchSwaps {
    private BenchSwaps() {}

    static void report(MachineConfig machine, PolicySource policies, BiFunction<String, Object[], Workload> workloads, PrintStream out) {
        Host host = new Host(policies);
        Workload w = workloads.apply("stream", new Object[] {"elements", 262_144});
        ScriptedSwap every = new ScriptedSwap(ScriptedSwap.When.EVERY_EPOCHS, 1, Slot.REPLACEMENT,
                List.of(new ScriptedSwap.Choice(policies.describe(Slot.REPLACEMENT), Map.of())), "bench");
        Simulation.run(new RunSpec("bench-swaps", machine, w, host, 1, 2_000_000, 0), List.of(every));
        long n = 0, wall = 0, maxWall = 0, sim = 0;
        for (SwapRecord r : host.records) {
            if (!r.outcome().equals("ok")) continue;
            n++;
            wall += r.drainWallNs();
            maxWall = Math.max(maxWall, r.drainWallNs());
            sim += r.drainSimPs();
        }
        if (n == 0) {
            out.println("swap drain: no swap completed");
            return;
        }
        out.printf(Locale.ROOT, "swap drain (replacement, every 2 us epoch, %d swaps): mean %.1f us wall (max %.1f us), mean %.1f ns simulated%n",
                n, wall / 1e3 / n, maxWall / 1e3, sim / 1e3 / n);
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
