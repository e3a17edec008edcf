package org.hmsim.platform.traces;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;

/**
 * A workload whose kernels come from a trace: the trace's allocations, then its kernel launches in order,
 * with every address relocated from the recorded allocation bases to the ones the simulated OS assigns.
 * CPU phases in the trace are not run by the GPU machine (they are for cache replay).
 */
public final class TraceWorkload implements Workload {
    private final TraceFile trace;
    private final String name;

    public TraceWorkload(TraceFile trace, String name) {
        this.trace = trace;
        this.name = name;
    }

    @Override public String name() { return name; }

    @Override
    public List<AllocationSpec> allocations() {
        List<AllocationSpec> l = new ArrayList<>();
        for (TraceAllocation a : trace.allocations()) l.add(a.spec());
        return l;
    }

    @Override
    public List<Kernel> kernels(long[] baseAddresses) {
        if (baseAddresses.length != trace.allocations().size())
            throw new IllegalArgumentException(name + ": expected " + trace.allocations().size() + " base addresses, got " + baseAddresses.length);
        Relocation r = Relocation.of(trace.allocations(), baseAddresses);
        List<Kernel> l = new ArrayList<>();
        for (TraceFile.KernelItem k : trace.kernels()) l.add(new TraceKernel(trace, k, r));
        return l;
    }
}
