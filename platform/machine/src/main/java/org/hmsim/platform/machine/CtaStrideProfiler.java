package org.hmsim.platform.machine;

import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.CtaStrideProfile;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;

/**
 * Seed 004's stride-profiling fallback (§4.1): when the compiler cannot reduce an object's per-block
 * stride to kernel-invocation constants (graphs: the edge range of a block comes from a loaded offset),
 * the address computation is run for some thread blocks before launch. Here the warp programs of
 * {@link #PAIRS} pairs of consecutive blocks (K-1, K), spread evenly over the grid, are run without
 * timing, and for each block the lowest address it touches in the allocation is kept; the stride
 * samples are {@code low(K) - low(K-1)}. Their mean μ and coefficient of variation σ/μ are what the
 * paper's profiler-assisted estimate uses (regular data: CoV 0 and μ = the exact stride; graphs: μ
 * from the mean degree, CoV from its spread). The first kernel in which a sampled block touches the
 * allocation decides (§4.4: "the first kernel that accesses it").
 *
 * <p>The programs are built afresh from {@link Kernel#program}; workloads whose programs are fresh on
 * each call (built-in and file workloads) are unaffected by the sampling.
 */
final class CtaStrideProfiler {
    /** Pairs of consecutive blocks sampled per kernel ("some random thread blocks"). */
    static final int PAIRS = 16;
    /** Instructions run per sampled warp at most (a bound for endless programs). */
    static final int MAX_INSTRUCTIONS = 1 << 20;

    private final List<Kernel> kernels;

    CtaStrideProfiler(List<Kernel> kernels) { this.kernels = kernels; }

    CtaStrideProfile profile(Allocation a) {
        for (Kernel k : kernels) {
            if (k.ctas() < 2) continue;
            int pairs = Math.min(PAIRS, k.ctas() - 1);
            double sum = 0, sumSq = 0;
            int n = 0;
            for (int i = 0; i < pairs; i++) {
                int b = 1 + (int) ((i + 0.5) * (k.ctas() - 1) / pairs); // K in [1, ctas)
                long lo0 = lowest(k, b - 1, a), lo1 = lowest(k, b, a);
                if (lo0 < 0 || lo1 < 0) continue;
                double d = lo1 - lo0;
                sum += d;
                sumSq += d * d;
                n++;
            }
            if (n == 0) continue; // no sampled block of this kernel touches it: the next kernel decides
            double mean = sum / n, var = Math.max(0, sumSq / n - mean * mean), sd = Math.sqrt(var);
            double cov = mean == 0 ? (sd == 0 ? 0 : Double.POSITIVE_INFINITY) : sd / Math.abs(mean);
            return new CtaStrideProfile(mean, cov, n);
        }
        return new CtaStrideProfile(0, 0, 0);
    }

    /** The lowest byte address block {@code cta} of {@code k} touches in {@code a}, or -1 if none. */
    private static long lowest(Kernel k, int cta, Allocation a) {
        long lo = Long.MAX_VALUE, base = a.baseVa(), end = a.baseVa() + a.bytes();
        WarpInstruction in = new WarpInstruction();
        for (int w = 0; w < k.warpsPerCta(); w++) {
            WarpProgram p = k.program(cta, w);
            for (int i = 0; i < MAX_INSTRUCTIONS && p.next(in); i++) {
                if (in.kind == WarpInstruction.Kind.COMPUTE || in.kind == WarpInstruction.Kind.BARRIER) continue;
                for (int l = 0; l < WarpInstruction.THREADS; l++) {
                    if ((in.activeMask & (1 << l)) == 0) continue;
                    long va = in.addresses[l];
                    if (va >= base && va < end && va < lo) lo = va;
                }
            }
        }
        return lo == Long.MAX_VALUE ? -1 : lo;
    }
}
