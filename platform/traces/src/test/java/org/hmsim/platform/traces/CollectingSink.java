package org.hmsim.platform.traces;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.workload.WarpInstruction;

/** A sink that records everything as comparable strings (tests only; small traces). */
final class CollectingSink implements TraceSink {
    final List<String> events = new ArrayList<>();

    @Override public void workload(String name) { events.add("workload " + name); }

    @Override public void allocation(TraceAllocation a) { events.add("alloc " + a); }

    @Override public void beginKernel(KernelShape k) { events.add("kernel " + k); }

    @Override
    public void instruction(int cta, int warp, WarpInstruction in) { events.add(cta + "/" + warp + " " + describe(in)); }

    static String describe(WarpInstruction in) {
        StringBuilder b = new StringBuilder(in.kind.name());
        b.append(in.waitsForLoads ? " wait" : "");
        switch (in.kind) {
            case COMPUTE -> b.append(' ').append(in.cycles);
            case BARRIER -> { }
            default -> {
                b.append(" size=").append(in.bytesPerThread).append(" mask=").append(Integer.toHexString(in.activeMask));
                for (int m = in.activeMask; m != 0; m &= m - 1) b.append(' ').append(Long.toHexString(in.addresses[Integer.numberOfTrailingZeros(m)]));
            }
        }
        return b.toString();
    }

    @Override public void endKernel() { events.add("end kernel"); }

    @Override public void beginCpuPhase(String name) { events.add("cpu " + name); }

    @Override public void cpuAccess(CpuKind kind, long address, int size) { events.add(kind.letter + " " + Long.toHexString(address) + " " + size); }

    @Override public void endCpuPhase() { events.add("end cpu"); }

    @Override public void close() {}
}
