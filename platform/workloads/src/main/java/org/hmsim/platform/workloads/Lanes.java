package org.hmsim.platform.workloads;

import org.hmsim.api.workload.WarpInstruction;

/** Small helpers for filling warp instructions: active masks from thread counts. */
public final class Lanes {
    public static final int W = WarpInstruction.THREADS;

    private Lanes() {}

    /** The mask of the first {@code n} lanes (n clamped to [0, 32]). */
    public static int first(long n) {
        if (n <= 0) return 0;
        if (n >= W) return -1;
        return (int) ((1L << n) - 1);
    }

    /** The lanes of warp {@code warp} that exist in a block of {@code threadsPerCta} threads. */
    public static int existing(int warp, int threadsPerCta) { return first(threadsPerCta - (long) warp * W); }
}
