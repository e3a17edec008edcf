package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;

/** The baseline providers as a {@link SwapHost}: swaps resolve among them; the last run's records are kept. */
class SwappableProviders implements PolicySource, SwapHost {
    final ClasspathPolicies base = new ClasspathPolicies();
    final List<ScriptedSwap> scripts = new ArrayList<>();
    volatile List<SwapRecord> records = List.of();
    volatile SwapControl control;

    SwappableProviders with(Slot slot, String name, Map<String, Object> p) {
        base.with(slot, name, p);
        return this;
    }

    SwappableProviders swap(ScriptedSwap s) {
        scripts.add(s);
        return this;
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) { return base.create(slot, context); }

    @Override
    public String describe(Slot slot) { return base.describe(slot) + "@1.0.0"; }

    @Override
    public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
        PolicyProvider p = ClasspathPolicies.find(slot, policy.contains("@") ? policy.substring(0, policy.indexOf('@')) : policy);
        Params v = Params.validate(p.parameters(), params);
        return new SwapTarget(p.name() + "@" + p.version(), "classpath", Swapper.paramsText(params), ctx -> p.create(ctx, v));
    }

    @Override
    public String bundle(Slot slot) { return "classpath"; }

    @Override
    public List<ScriptedSwap> scripted() { return scripts; }

    @Override
    public void started(SwapControl c) { control = c; }

    @Override
    public void ended(SwapControl c) { records = c.records(); }

    /** Runs {@code w} on preset {@code machine} with these providers and their scripted swaps; the records are kept. */
    RunResult run(String machine, org.hmsim.api.workload.Workload w, long epochPs) {
        Machine m = new Machine(TestMachines.machine(machine), this, 1, "swaps");
        SwapControl c = new SwapControl("swaps");
        for (org.hmsim.api.policy.Slot s : org.hmsim.api.policy.Slot.values()) c.setActive(s, describe(s), "classpath");
        RunResult r = Simulation.run(m, new RunSpec("swaps", m.cfg, w, this, 1, epochPs, 0), new Swapper(m, this, scripted(), c, 1, "swaps"));
        records = c.records();
        return r;
    }
}
