package org.hmsim.platform.traces;

import java.util.List;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.WorkloadInspector;

/**
 * Writes a workload as a trace: its allocations at the inspector's layout (from 4 GiB, 2 MiB aligned),
 * then every kernel, CTA by CTA, warp by warp. Workload generators are pure functions of (seed, kernel,
 * CTA, warp, position), so the order in which the recorder drains warps does not change what they emit,
 * and a run of the trace issues exactly the instructions the workload would.
 */
public final class TraceRecorder {
    private TraceRecorder() {}

    /** Records {@code w}; {@code maxInstructions} bounds the total, to catch a stream that never ends. */
    public static long record(Workload w, TraceSink sink, long maxInstructions) {
        sink.workload(w.name());
        List<AllocationSpec> specs = w.allocations();
        long[] bases = WorkloadInspector.layout(specs);
        for (int i = 0; i < bases.length; i++) {
            AllocationSpec s = specs.get(i);
            sink.allocation(new TraceAllocation(s.name(), s.bytes(), s.hint(), s.readOnly(), bases[i], s.compressionRatio()));
        }
        WarpInstruction in = new WarpInstruction();
        long total = 0;
        for (Kernel k : w.kernels(bases)) {
            sink.beginKernel(KernelShape.linear(k.name(), k.ctas(), k.threadsPerCta(), k.sharedBytesPerCta()));
            int warps = k.warpsPerCta();
            for (int c = 0; c < k.ctas(); c++) {
                for (int wp = 0; wp < warps; wp++) {
                    WarpProgram p = k.program(c, wp);
                    while (p.next(in)) {
                        sink.instruction(c, wp, in);
                        if (++total > maxInstructions)
                            throw new IllegalStateException("workload " + w.name() + " emitted more than " + maxInstructions + " instructions");
                    }
                }
                sink.endCta(c);
            }
            sink.endKernel();
        }
        return total;
    }
}
