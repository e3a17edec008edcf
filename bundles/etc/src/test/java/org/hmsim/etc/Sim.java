package org.hmsim.etc;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.DefaultPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;

/** Test harness: the `etc` machine preset (8 SMs for speed), built-in workloads, ETC's and the baseline's providers. */
final class Sim implements PolicySource {
    private final Map<Slot, PolicyProvider> providers = new EnumMap<>(Slot.class);
    private final Map<Slot, Map<String, Object>> params = new EnumMap<>(Slot.class);
    private Object[] machineOverrides = new Object[0];
    private long epochPs = 5_000_000;

    Sim() {
        for (Slot s : Slot.values()) providers.put(s, ClasspathPolicies.find(s, DefaultPolicies.name(s)));
        providers.put(Slot.RESIDENCY, ClasspathPolicies.find(Slot.RESIDENCY, "fifo"));
    }

    /** ETC proper: all three techniques under the classifier. */
    static Sim etc() {
        return new Sim().with(new ProactiveEvictionProvider()).with(new MemoryAwareThrottlingProvider()).with(new CapacityCompressionProvider());
    }

    Sim with(PolicyProvider p, Object... kv) {
        providers.put(p.slot(), p);
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        params.put(p.slot(), m);
        return this;
    }

    /** Further overrides of the machine preset ("uvm.fault_handlers", 8, ...). */
    Sim machine(Object... kv) {
        machineOverrides = kv;
        return this;
    }

    /** The statistics epoch (the study file's {@code epoch:}); 5 us unless set. */
    Sim epoch(long ps) {
        epochPs = ps;
        return this;
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) {
        PolicyProvider p = providers.get(slot);
        return p.create(context, Params.validate(p.parameters(), params.getOrDefault(slot, Map.of())));
    }

    @Override
    public String describe(Slot slot) { return providers.get(slot).name(); }

    RunResult run(String workload, double oversubscription, Object... workloadParams) {
        return run(workload, oversubscription, "20us", workloadParams);
    }

    RunResult run(String workload, double oversubscription, String faultLatency, Object... workloadParams) {
        return run(workload, oversubscription, faultLatency, java.util.function.UnaryOperator.identity(), workloadParams);
    }

    /** As {@link #run}, the built-in workload's allocations first passed through {@code allocations} (declared ratios, say). */
    RunResult run(String workload, double oversubscription, String faultLatency,
                  java.util.function.UnaryOperator<java.util.List<org.hmsim.api.workload.AllocationSpec>> allocations, Object... workloadParams) {
        Object[] base = {"gpu.sms", 8, "uvm.oversubscription", oversubscription, "uvm.fault_latency", faultLatency};
        Object[] all = java.util.Arrays.copyOf(base, base.length + machineOverrides.length);
        System.arraycopy(machineOverrides, 0, all, base.length, machineOverrides.length);
        MachineConfig m = Presets.machine("etc", all);
        WorkloadProvider w = BuiltinWorkloads.byName(workload);
        Map<String, Object> given = new LinkedHashMap<>();
        for (int i = 0; i < workloadParams.length; i += 2) given.put((String) workloadParams[i], workloadParams[i + 1]);
        org.hmsim.api.workload.Workload built = w.create(Params.validate(w.parameters(), given), 1);
        java.util.List<org.hmsim.api.workload.AllocationSpec> allocs = allocations.apply(built.allocations());
        org.hmsim.api.workload.Workload wl = allocs == built.allocations() ? built : new org.hmsim.api.workload.Workload() {
            @Override public String name() { return built.name(); }

            @Override public java.util.List<org.hmsim.api.workload.AllocationSpec> allocations() { return allocs; }

            @Override public java.util.List<org.hmsim.api.workload.Kernel> kernels(long[] bases) { return built.kernels(bases); }
        };
        return Simulation.run(new RunSpec("etc-test", m, wl, this, 1, epochPs, 0));
    }

    static double stat(RunResult r, String name) {
        Double v = r.stats().get(name);
        if (v == null) throw new AssertionError("no statistic " + name + " in " + r.stats().keySet().stream().filter(k -> k.startsWith("policy") || k.startsWith("uvm")).toList());
        return v;
    }

    static String line(String label, RunResult r) {
        return String.format("%-28s %10.1f us  faults %5.0f batches %4.0f evict %5.0f (pro %4.0f) prefetch %4.0f",
                label, r.simTimePs() / 1e6, stat(r, "uvm.faults"), stat(r, "uvm.fault_batches"), stat(r, "uvm.evictions"),
                stat(r, "uvm.evictions_proactive"), stat(r, "uvm.prefetches"));
    }
}
