package org.hmsim.sahc;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;

/** Test harness: the sahc preset scaled down, the apu-* models, and this bundle's coherence policies. */
final class Apu implements PolicySource {
    static final List<PolicyProvider> MINE = List.of(new DirectoryProvider(), new IdealProvider(), new SahcProvider(),
            new SahcTProvider(), new SahcAProvider());
    private final ClasspathPolicies defaults = new ClasspathPolicies();
    private final String coherence;
    private final Map<String, Object> params;

    Apu(String coherence, Object... p) {
        this.coherence = coherence;
        this.params = new LinkedHashMap<>();
        for (int i = 0; i < p.length; i += 2) params.put((String) p[i], p[i + 1]);
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) {
        if (slot != Slot.COHERENCE) return defaults.create(slot, context);
        for (PolicyProvider p : MINE)
            if (p.name().equals(coherence)) return p.create(context, Params.validate(p.parameters(), params));
        if (!coherence.equals(defaults.describe(slot)))  // a typo would compare a mechanism against the default
            throw new IllegalArgumentException("unknown coherence policy '" + coherence + "'");
        return defaults.create(slot, context);
    }

    @Override
    public String describe(Slot slot) { return slot == Slot.COHERENCE ? coherence : defaults.describe(slot); }

    /** The sahc preset with fewer CUs (small, fast configurations) and any further overrides. */
    static MachineConfig machine(Object... overrides) {
        Object[] base = {"gpu.sms", 8, "gpu.l2.slices", 16};
        Object[] all = new Object[base.length + overrides.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(overrides, 0, all, base.length, overrides.length);
        return Presets.machine("sahc", all);
    }

    static Workload app(String name, Object... params) {
        WorkloadProvider p = BuiltinWorkloads.byName("apu-" + name);
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        return p.create(Params.validate(p.parameters(), given), 1);
    }

    static RunResult run(MachineConfig m, Workload w, String coherence, Object... p) {
        return Simulation.run(new RunSpec("test", m, w, new Apu(coherence, p), 1, 10_000_000L, 0));
    }

    static double stat(RunResult r, String name) {
        Double v = r.stats().get(name);
        if (v == null) throw new AssertionError("no statistic " + name + " in " + r.stats().keySet().stream().filter(k -> k.contains("direct") || k.contains("coher")).toList());
        return v;
    }
}
