package org.hmsim.platform.traces;

import java.io.Closeable;
import java.io.IOException;
import org.hmsim.api.workload.WarpInstruction;

/**
 * Receives a trace as events, in program order of kernels and CPU phases. Within a kernel, instructions of
 * different warps may be interleaved (as NVBit emits them); each warp's own instructions arrive in order.
 * Implemented by the binary writer, the text writer and the cache replayer; produced by the binary and
 * text readers, the recorder and the importers. Problems are unchecked ({@link TraceException},
 * {@link java.io.UncheckedIOException}).
 */
public interface TraceSink extends Closeable {
    /** The traced program's name (optional; call before anything else). */
    default void workload(String name) {}

    /** An allocation; may come at any time before {@link #close} (importers know them only at the end). */
    void allocation(TraceAllocation a);

    void beginKernel(KernelShape k);

    /** One instruction of warp {@code warp} of CTA {@code cta} (the instruction object is reused by the caller). */
    void instruction(int cta, int warp, WarpInstruction in);

    /** A hint: CTA {@code cta} of the current kernel has no more instructions. */
    default void endCta(int cta) {}

    void endKernel();

    void beginCpuPhase(String name);

    void cpuAccess(CpuKind kind, long address, int size);

    void endCpuPhase();

    @Override
    void close() throws IOException;
}
