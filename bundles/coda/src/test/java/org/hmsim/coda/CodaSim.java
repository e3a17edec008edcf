package org.hmsim.coda;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;

/**
 * Test harness: the shipped presets, the built-in class models and the providers of every bundle on
 * the class path (this one's and the baseline's), with independent runs on two threads.
 */
final class CodaSim {
    private CodaSim() {}

    /** A configuration: interleave and cta-scheduler policies with their parameters. */
    record Config(String interleave, Map<String, Object> ip, String cta, Map<String, Object> cp, String migration) {
        static Config of(String interleave, String cta, Object... p) {
            return new Config(interleave, map(p), cta, Map.of(), null);
        }

        Config migrating(String name) { return new Config(interleave, ip, cta, cp, name); }

        /** The same with parameters for the cta-scheduler. */
        Config ctaParams(Object... p) { return new Config(interleave, ip, cta, map(p), migration); }

        private static Map<String, Object> map(Object... p) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (int i = 0; i < p.length; i += 2) m.put((String) p[i], p[i + 1]);
            return m;
        }
    }

    static final Config FGP = Config.of("fine", "round-robin", "granularity", 128);
    static final Config FGP_AFFINITY = Config.of("fine", "affinity", "granularity", 128);
    static final Config CGP = Config.of("coarse", "round-robin");
    static final Config FTA = Config.of("first-touch", "round-robin");
    static final Config CODA = Config.of("coda", "affinity");
    /** CODA with every stride from the profiling fallback (declarations ignored). */
    static final Config CODA_PROFILED = Config.of("coda", "affinity", "estimate", "profile");
    static final Config MIGRATE = Config.of("coarse", "round-robin").migrating("migrate-on-touch");

    static MachineConfig machine(String preset, Object... overrides) { return Presets.machine(preset, overrides); }

    static Workload workload(String name, Object... params) { return BuiltinWorkloads.create(name, 1, params); }

    static RunResult run(MachineConfig m, Workload w, Config c) {
        ClasspathPolicies policies = new ClasspathPolicies(new CoarseInterleaveProvider(), new FirstTouchInterleaveProvider(),
                new CodaInterleaveProvider(), new AffinityCtaProvider(), new ContiguousCtaProvider(), new MigrateOnTouchProvider()).with(Slot.INTERLEAVE, c.interleave(), c.ip())
                .with(Slot.CTA_SCHEDULER, c.cta(), c.cp());
        if (c.migration() != null) policies.with(Slot.MIGRATION, c.migration(), Map.of());
        return policies.run(m, w);
    }

    @SafeVarargs
    static RunResult[] parallel(Supplier<RunResult>... runs) { return Simulation.concurrently(runs); }

    static double metric(RunResult r, String name) {
        Double v = r.metrics().get(name);
        if (v == null) throw new IllegalArgumentException("no metric " + name + " in " + r.metrics().keySet());
        return v;
    }
}
