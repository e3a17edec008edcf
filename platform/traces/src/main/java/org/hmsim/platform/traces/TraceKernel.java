package org.hmsim.platform.traces;

import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpProgram;

/**
 * A kernel launch read from a trace. Each warp program streams its own segments from the file when the
 * SM first asks for an instruction, so only resident warps hold buffers.
 */
final class TraceKernel implements Kernel {
    private final TraceFile trace;
    private final TraceFile.KernelItem item;
    private final Relocation relocation;
    private TraceFile.CtaFooter footer;

    TraceKernel(TraceFile trace, TraceFile.KernelItem item, Relocation relocation) {
        this.trace = trace;
        this.item = item;
        this.relocation = relocation;
    }

    @Override public String name() { return item.shape().name(); }

    @Override public int ctas() { return item.shape().ctas(); }

    @Override public int threadsPerCta() { return item.shape().threadsPerCta(); }

    @Override public int sharedBytesPerCta() { return item.shape().sharedBytes(); }

    @Override
    public WarpProgram program(int cta, int warp) {
        if (warp < 0 || warp >= warpsPerCta()) throw new IllegalArgumentException("kernel " + name() + ": no warp " + warp);
        TraceFile.CtaFooter f = footer;
        if (f == null || f.cta != cta) footer = f = trace.footer(item, cta);
        return new TraceFile.WarpReader(f.stream(item, warp), relocation);
    }

    @Override public String toString() { return name() + "<<<" + ctas() + ", " + threadsPerCta() + ">>> (trace)"; }
}
