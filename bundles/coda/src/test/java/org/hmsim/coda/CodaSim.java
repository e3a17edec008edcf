package org.hmsim.coda;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;

/**
 * Test harness: the shipped presets, the built-in class models and the providers of every bundle on
 * the class path (this one's and the baseline's), with independent runs on two threads.
 */
final class CodaSim {
    private CodaSim() {}

    /** A configuration: interleave and cta-scheduler policies with their parameters. */
    record Config(String interleave, Map<String, Object> ip, String cta, String migration) {
        static Config of(String interleave, String cta, Object... p) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < p.length; i += 2) m.put((String) p[i], p[i + 1]);
            return new Config(interleave, m, cta, null);
        }

        Config migrating(String name) { return new Config(interleave, ip, cta, name); }
    }

    static final Config FGP = Config.of("fine", "round-robin", "granularity", 128);
    static final Config FGP_AFFINITY = Config.of("fine", "affinity", "granularity", 128);
    static final Config CGP = Config.of("coarse", "round-robin");
    static final Config FTA = Config.of("first-touch", "round-robin");
    static final Config CODA = Config.of("coda", "affinity");
    static final Config MIGRATE = Config.of("coarse", "round-robin").migrating("migrate-on-touch");

    static MachineConfig machine(String preset, Object... overrides) { return Presets.machine(preset, overrides); }

    static Workload workload(String name, Object... params) {
        WorkloadProvider p = BuiltinWorkloads.byName(name);
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        return p.create(Params.validate(p.parameters(), given), 1);
    }

    static RunResult run(MachineConfig m, Workload w, Config c) {
        ClasspathPolicies base = new ClasspathPolicies();
        PolicySource src = new PolicySource() {
            @Override
            public Policy create(Slot slot, PolicyContext context) {
                String name = slot == Slot.INTERLEAVE ? c.interleave() : slot == Slot.CTA_SCHEDULER ? c.cta()
                        : slot == Slot.MIGRATION ? c.migration() : null;
                if (name == null) return base.create(slot, context);
                Map<String, Object> given = slot == Slot.INTERLEAVE ? c.ip() : Map.of();
                PolicyProvider p = find(slot, name);
                return p.create(context, Params.validate(p.parameters(), given));
            }

            @Override
            public String describe(Slot slot) {
                if (slot == Slot.MIGRATION && c.migration() != null) return c.migration();
                return slot == Slot.INTERLEAVE ? c.interleave() : slot == Slot.CTA_SCHEDULER ? c.cta() : base.describe(slot);
            }
        };
        return Simulation.run(new RunSpec("test", m, w, src, 1, 10_000_000L, 0));
    }

    private static final List<PolicyProvider> OURS = List.of(new CoarseInterleaveProvider(), new FirstTouchInterleaveProvider(),
            new CodaInterleaveProvider(), new AffinityCtaProvider(), new ContiguousCtaProvider(), new MigrateOnTouchProvider());

    static PolicyProvider find(Slot slot, String name) {
        for (PolicyProvider p : OURS) if (p.slot() == slot && p.name().equals(name)) return p;
        return ClasspathPolicies.find(slot, name);
    }

    @SafeVarargs
    static RunResult[] parallel(Supplier<RunResult>... runs) {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<RunResult>> f = new ArrayList<>();
            for (var r : runs) f.add(pool.submit(r::get));
            RunResult[] out = new RunResult[runs.length];
            for (int i = 0; i < out.length; i++) out[i] = f.get(i).get();
            return out;
        } catch (InterruptedException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e.getCause() != null ? e.getCause() : e);
        } finally {
            pool.shutdownNow();
        }
    }

    static double metric(RunResult r, String name) {
        Double v = r.metrics().get(name);
        if (v == null) throw new IllegalArgumentException("no metric " + name + " in " + r.metrics().keySet());
        return v;
    }
}
