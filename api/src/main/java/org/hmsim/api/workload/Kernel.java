package org.hmsim.api.workload;

/** One kernel launch: a grid of thread blocks (CTAs), each of {@link #threadsPerCta} threads. */
public interface Kernel {
    String name();

    int ctas();

    int threadsPerCta();

    default int warpsPerCta() { return (threadsPerCta() + WarpInstruction.THREADS - 1) / WarpInstruction.THREADS; }

    /** Shared memory per CTA, bytes (limits resident CTAs per SM). */
    default int sharedBytesPerCta() { return 0; }

    /**
     * Whether this kernel uses data an earlier kernel of the same workload used (the compiler's
     * same-pointer analysis of seed 002 §4.4; drives ETC's classifier). Since api.workload 1.1.0.
     */
    default boolean sharesData() { return false; }

    /** The instruction stream of warp {@code warp} of block {@code cta}. */
    WarpProgram program(int cta, int warp);
}
