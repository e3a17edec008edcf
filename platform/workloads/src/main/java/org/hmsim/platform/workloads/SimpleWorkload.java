package org.hmsim.platform.workloads;

import java.util.List;
import java.util.function.Function;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;

/** A workload given by its allocations and a function from allocation base addresses to kernels. */
public final class SimpleWorkload implements Workload {
    private final String name;
    private final List<AllocationSpec> allocations;
    private final Function<long[], List<Kernel>> kernels;

    public SimpleWorkload(String name, List<AllocationSpec> allocations, Function<long[], List<Kernel>> kernels) {
        this.name = name;
        this.allocations = List.copyOf(allocations);
        this.kernels = kernels;
    }

    @Override public String name() { return name; }
    @Override public List<AllocationSpec> allocations() { return allocations; }

    @Override
    public List<Kernel> kernels(long[] baseAddresses) {
        if (baseAddresses.length != allocations.size())
            throw new IllegalArgumentException(name + ": expected " + allocations.size() + " base addresses, got " + baseAddresses.length);
        return List.copyOf(kernels.apply(baseAddresses.clone()));
    }

    /** Sum of the allocation sizes in bytes. */
    public static long footprint(Workload w) {
        long sum = 0;
        for (AllocationSpec a : w.allocations()) sum += a.bytes();
        return sum;
    }
}
