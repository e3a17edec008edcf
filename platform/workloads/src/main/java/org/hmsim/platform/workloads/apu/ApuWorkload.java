package org.hmsim.platform.workloads.apu;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;

/**
 * A program of the APU models: allocations, kernels and host phases, built once from the allocations'
 * base addresses by a {@link Plan}.
 */
final class ApuWorkload implements Workload {
    /** Fills {@code kernels} and {@code phases} for the given base addresses. */
    interface Plan {
        void build(long[] base, List<Kernel> kernels, List<HostPhase> phases);
    }

    private final String name;
    private final List<AllocationSpec> allocations;
    private final Plan plan;
    private long[] builtFor;
    private List<Kernel> kernels;
    private List<HostPhase> phases;

    ApuWorkload(String name, List<AllocationSpec> allocations, Plan plan) {
        this.name = name;
        this.allocations = List.copyOf(allocations);
        this.plan = plan;
    }

    @Override public String name() { return name; }

    @Override public List<AllocationSpec> allocations() { return allocations; }

    @Override public List<Kernel> kernels(long[] base) {
        build(base);
        return kernels;
    }

    @Override public List<HostPhase> hostPhases(long[] base) {
        build(base);
        return phases;
    }

    private void build(long[] base) {
        if (base.length != allocations.size())
            throw new IllegalArgumentException(name + ": expected " + allocations.size() + " base addresses, got " + base.length);
        if (builtFor != null && java.util.Arrays.equals(builtFor, base)) return;
        List<Kernel> k = new ArrayList<>();
        List<HostPhase> p = new ArrayList<>();
        plan.build(base.clone(), k, p);
        builtFor = base.clone();
        kernels = List.copyOf(k);
        phases = List.copyOf(p);
    }
}
