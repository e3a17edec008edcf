package org.hmsim.api.workload;

/** One kernel launch: a grid of thread blocks (CTAs), each of {@link #threadsPerCta} threads. */
public interface Kernel {
    String name();

    int ctas();

    int threadsPerCta();

    default int warpsPerCta() { return (threadsPerCta() + WarpInstruction.THREADS - 1) / WarpInstruction.THREADS; }

    /** Shared memory per CTA, bytes (limits resident CTAs per SM). */
    default int sharedBytesPerCta() { return 0; }

    /** The instruction stream of warp {@code warp} of block {@code cta}. */
    WarpProgram program(int cta, int warp);
}
