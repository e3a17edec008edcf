package org.hmsim.selectivecaching;

import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;

/**
 * Test harness: the agarwal-ch6 preset (Table 6.3), BW-AWARE's 80/20 placement (§6.3: 20 % of the data in CPU
 * memory), the hardware-coherent baseline (cache-all) and this bundle's policy with the ladder's options.
 */
final class Ch6 {
    private Ch6() {}

    /** The ladder of Fig. 6.4-6.7, each a set of selective-caching parameters (null = the HW-coherent GPU). */
    static final String[] LADDER = {"hw-cc", "naive", "l1", "l1+l2", "l1+l2+cc", "l1+l2+cc+var"};

    static Object[] params(String step) {
        return switch (step) {
            case "naive" -> new Object[] {"coalescing", "none", "client_cache", 0L, "variable_transfers", false};
            case "l1" -> new Object[] {"coalescing", "l1", "client_cache", 0L, "variable_transfers", false};
            case "l1+l2" -> new Object[] {"coalescing", "l1+l2", "client_cache", 0L, "variable_transfers", false};
            case "l1+l2+cc" -> new Object[] {"coalescing", "l1+l2", "variable_transfers", false};
            case "l1+l2+cc+var" -> new Object[] {};
            // sensitivity (Explore): variable transfers without the client cache, a faster client cache
            case "l1+l2+var" -> new Object[] {"coalescing", "l1+l2", "client_cache", 0L};
            case "l1+l2+cc30" -> new Object[] {"coalescing", "l1+l2", "variable_transfers", false, "client_latency", 30};
            case "l1+l2+cc30+var" -> new Object[] {"client_latency", 30};
            case "ro" -> new Object[] {"read_only", true};
            case "ro-zero" -> new Object[] {"read_only", true, "gpu_fault", 0L};
            case "hw-cc" -> null; // the hardware-coherent baseline: no selective caching
            default -> throw new IllegalArgumentException("unknown ladder step '" + step + "' (a typo would run the baseline)");
        };
    }

    static MachineConfig machine(Object... overrides) { return Presets.machine("agarwal-ch6", overrides); }

    static Workload workload(String name, Object... params) {
        WorkloadProvider p = BuiltinWorkloads.byName(name);
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        return p.create(Params.validate(p.parameters(), given), 1);
    }

    static RunResult run(MachineConfig m, Workload w, String step) {
        ClasspathPolicies defaults = new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", "fast_percent", 80);
        Object[] p = params(step);
        PolicySource pol = p == null ? defaults : new PolicySource() {
            @Override
            public Policy create(Slot slot, PolicyContext context) {
                if (slot != Slot.CACHEABILITY) return defaults.create(slot, context);
                SelectiveCachingProvider sc = new SelectiveCachingProvider();
                Map<String, Object> given = new LinkedHashMap<>();
                for (int i = 0; i < p.length; i += 2) given.put((String) p[i], p[i + 1]);
                return sc.create(context, Params.validate(sc.parameters(), given));
            }

            @Override
            public String describe(Slot slot) { return slot == Slot.CACHEABILITY ? "selective-caching" : defaults.describe(slot); }
        };
        return Simulation.run(new RunSpec("test-" + step, m, w, pol, 1, 10_000_000L, 0));
    }

    static double stat(RunResult r, String name) {
        Double v = r.stats().get(name);
        if (v == null) throw new AssertionError("no statistic " + name);
        return v;
    }

    /** Sum of every statistic whose name ends with {@code suffix} and starts with {@code prefix}. */
    static double sum(RunResult r, String prefix, String suffix) {
        double s = 0;
        for (Map.Entry<String, Double> e : r.stats().entrySet())
            if (e.getKey().startsWith(prefix) && e.getKey().endsWith(suffix)) s += e.getValue();
        return s;
    }
}
