package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.CtaStrideProfile;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;

/**
 * Seed 004's per-block stride estimate (§4.1) for allocations the workload declares nothing about, from
 * the address streams of {@link #PAIRS} pairs of consecutive blocks (K-1, K) spread over a kernel's grid
 * ({@link #sampledBlock}), run without timing. Two stages, as the paper's compiler pass and its profiler:
 * <ol>
 * <li><b>Runtime-constant stride</b> (Algorithm 1). The same instruction in block K and K-1 (the j-th
 * access to the object of warp w in each) gives every thread active in both a distance
 * {@code addr_K - addr_(K-1)}; when it is one Δ for all of them the thread index cancels out of the
 * index. A runtime-constant Δ is the same between every pair of consecutive blocks, so a kernel's
 * stride is a Δ found in (nearly) every sampled pair ({@link KernelSample#runtimeConstantStride}),
 * CoV 0; Δ = 0 means every block uses the same data (shared). A per-block offset that is a loaded value
 * (a block per vertex reading its edge list) moves all threads alike too, but by a distance that changes
 * from pair to pair, and fails that test. A gather through a loaded index gives its threads different
 * distances and is skipped, as Algorithm 1 skips a GEP whose chain passes through a load; a
 * kernel that touches the object only so leaves the decision to the next kernel that indexes it
 * regularly (BFS's {@code visited[id]} gather, then its {@code visited[tid]} sweep).</li>
 * <li><b>Profiler fallback</b> for input-dependent ranges (graphs: a block's edges start at a loaded
 * offset). When no kernel indexes the object regularly, the first kernel whose sampled blocks touch it
 * decides: the mean bytes per block μ over the grid (the slope of the sampled blocks' lowest addresses)
 * and the coefficient of variation σ/μ of the distance between consecutive blocks (regular ranges: CoV 0;
 * CSR edges: μ from the mean degree, CoV from its spread).</li>
 * </ol>
 * Matching "the same instruction" by its rank among a warp's accesses to the object stands in for the
 * paper's static GEP. Where data-dependent extra accesses shift the ranks in some blocks, those pairs show
 * stray distances and the kernel has no stride by the rule above; the object then falls to the profile,
 * whose lowest addresses still give a regular layout's stride at CoV 0. A pair of instructions with fewer
 * than two threads active in both gives no evidence but keeps its rank; only the first
 * {@link #KEPT_ACCESSES} accesses of a warp are compared. Consecutive block numbers run along a 2D grid's
 * x, so an object shared along a grid row but not across rows (sgemm's A panel) reads as shared, as the
 * paper's {@code index_K - index_(K-1)} does.
 * The programs are built afresh from {@link Kernel#program}; workloads whose programs are fresh on each
 * call (built-in and file workloads) are unaffected by the sampling.
 */
final class CtaStrideProfiler {
    /** Pairs of consecutive blocks sampled per kernel ("some random thread blocks"). */
    static final int PAIRS = 16;
    /** Instructions run per sampled warp at most (a bound for endless programs). */
    static final int MAX_INSTRUCTIONS = 1 << 20;
    /** Kernels touching an object that are searched for a regular index before the fallback decides. */
    static final int MAX_KERNELS = 32;
    /** Accesses to the object per sampled warp kept for the comparison (the regular index comes early). */
    static final int KEPT_ACCESSES = 256;

    private final List<Kernel> kernels;

    CtaStrideProfiler(List<Kernel> kernels) { this.kernels = kernels; }

    CtaStrideProfile profile(Allocation a) {
        CtaStrideProfile ranges = null;
        int touching = 0;
        for (Kernel k : kernels) {
            if (k.ctas() < 2) continue;
            KernelSample s = sample(k, a);
            if (s.pairs == 0) continue; // no sampled block of this kernel touches it
            if (ranges == null) ranges = s.ranges();
            long stride = s.runtimeConstantStride();
            if (stride != NO_COMMON_DISTANCE) return new CtaStrideProfile(stride, 0, s.pairs);
            if (++touching >= MAX_KERNELS) break;
        }
        return ranges != null ? ranges : new CtaStrideProfile(0, 0, 0);
    }

    /**
     * Warps per block of the first kernel in which one of the blocks {@link #profile} samples (block 0 of a
     * one-block grid) touches {@code a} (0 if none does): the kernel whose occupancy sets seed 004's
     * N_blocks_per_GPU for the object's layout.
     */
    int firstKernelWarpsPerCta(Allocation a) {
        for (Kernel k : kernels) {
            int pairs = Math.min(PAIRS, Math.max(1, k.ctas() - 1));
            for (int i = 0; i < pairs; i++) {
                int b = k.ctas() < 2 ? 0 : sampledBlock(i, pairs, k.ctas());
                if (trace(k, b, a).lowest >= 0) return k.warpsPerCta();
            }
        }
        return 0;
    }

    /** What the sampled pairs of one kernel show about one allocation. */
    private static final class KernelSample {
        int pairs;
        double sum, sumSq;
        /** Least-squares sums of (block, lowest address - origin) over every sampled block (two per pair), for the grid-wide mean. */
        double sk, sl, skk, skl;
        long origin = Long.MIN_VALUE;
        /** Per distance, the sampled pairs in which some access moved every common thread by it. */
        final Map<Long, Integer> deltaPairs = new HashMap<>();
        /** Sampled pairs with at least one such access. */
        int pairsWithRegularAccess;

        void addRange(int k, long lowBefore, long lowAfter) {
            double d = lowAfter - lowBefore;
            sum += d;
            sumSq += d * d;
            pairs++;
            if (origin == Long.MIN_VALUE) origin = lowBefore;
            addBlock(k - 1, lowBefore - origin);
            addBlock(k, lowAfter - origin);
        }

        private void addBlock(int k, long low) {
            sk += k;
            sl += low;
            skk += (double) k * k;
            skl += (double) k * low;
        }

        /**
         * μ is the slope of the lowest address over the sampled blocks' indices, the grid-wide mean bytes
         * per block (the paper's |E|/|V| estimate for a graph): the mean of 16 consecutive distances is off
         * by its sampling error, and placement multiplies that error by the block index (spmv's rows, 0.5 %
         * too long a stride, drifted a whole chunk from the block groups by the grid's end). CoV is the
         * spread of the sampled distances around their own mean.
         */
        CtaStrideProfile ranges() {
            double n = 2.0 * pairs, den = n * skk - sk * sk;
            double slope = den > 0 ? (n * skl - sk * sl) / den : sum / pairs;
            double mean = sum / pairs, sd = Math.sqrt(Math.max(0, sumSq / pairs - mean * mean));
            double cov = mean == 0 ? (sd == 0 ? 0 : Double.POSITIVE_INFINITY) : sd / Math.abs(mean);
            return new CtaStrideProfile(slope, cov, pairs);
        }

        /**
         * A runtime-constant stride holds between every pair of consecutive blocks: one distance must appear
         * in all sampled pairs that show a regular access but at most one in eight (row wraps of a 2D grid),
         * and in more than half of them; one pair suffices only where the grid has no second. Counting pairs,
         * not accesses, keeps a few blocks with many accesses (a graph's hubs) from outvoting the rest.
         *
         * @return that distance, or {@link #NO_COMMON_DISTANCE} when the kernel shows none
         */
        long runtimeConstantStride() {
            int seen = pairsWithRegularAccess;
            if (seen == 0) return NO_COMMON_DISTANCE;
            long best = 0;
            int bestPairs = -1;
            for (var e : deltaPairs.entrySet())
                if (e.getValue() > bestPairs || (e.getValue() == bestPairs && e.getKey() < best)) {
                    best = e.getKey();
                    bestPairs = e.getValue();
                }
            boolean constant = 2 * bestPairs > seen && bestPairs >= seen - seen / 8 && (seen >= 2 || pairs == 1);
            return constant ? best : NO_COMMON_DISTANCE;
        }
    }

    private static KernelSample sample(Kernel k, Allocation a) {
        KernelSample s = new KernelSample();
        int pairs = Math.min(PAIRS, k.ctas() - 1);
        for (int i = 0; i < pairs; i++) {
            int b = sampledBlock(i, pairs, k.ctas());
            BlockTrace t0 = trace(k, b - 1, a), t1 = trace(k, b, a);
            if (t0.lowest < 0 || t1.lowest < 0) continue;
            s.addRange(b, t0.lowest, t1.lowest);
            compareRegularAccesses(t0, t1, s);
        }
        return s;
    }

    /**
     * Block K of sample {@code i}: one in each of {@code pairs} equal stretches of [1, ctas), at a position
     * in it fixed by a hash ("some random thread blocks"). Evenly spaced positions fell on grid-row starts
     * of power-of-two 2D grids (sgemm's 64 x 64: every K the first block of a row), where every distance
     * is a row wrap.
     */
    static int sampledBlock(int i, int pairs, int ctas) {
        long lo = 1 + (long) i * (ctas - 1) / pairs, hi = 1 + (long) (i + 1) * (ctas - 1) / pairs;
        long z = (i + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        return (int) (lo + Math.floorMod(z, Math.max(1, hi - lo)));
    }

    /** The distances by which accesses at the same rank of the same warp moved every thread active in both blocks. */
    private static void compareRegularAccesses(BlockTrace before, BlockTrace after, KernelSample s) {
        Set<Long> seen = new HashSet<>();
        int warps = Math.min(before.warps.size(), after.warps.size());
        for (int w = 0; w < warps; w++) {
            List<Access> x = before.warps.get(w), y = after.warps.get(w);
            for (int j = 0; j < Math.min(x.size(), y.size()); j++) {
                long d = commonDistance(x.get(j), y.get(j));
                if (d != NO_COMMON_DISTANCE && seen.add(d)) s.deltaPairs.merge(d, 1, Integer::sum);
            }
        }
        if (!seen.isEmpty()) s.pairsWithRegularAccess++;
    }

    private static final long NO_COMMON_DISTANCE = Long.MIN_VALUE;

    /** The one distance every thread active in both moved by, or {@link #NO_COMMON_DISTANCE}. */
    static long commonDistance(Access before, Access after) {
        int both = before.mask & after.mask;
        if (Integer.bitCount(both) < 2) return NO_COMMON_DISTANCE;
        int first = Integer.numberOfTrailingZeros(both);
        long d = after.addresses[first] - before.addresses[first];
        for (int l = first + 1; l < WarpInstruction.THREADS; l++)
            if ((both & (1 << l)) != 0 && after.addresses[l] - before.addresses[l] != d) return NO_COMMON_DISTANCE;
        return d;
    }

    /** One memory instruction's active threads and their addresses. */
    record Access(int mask, long[] addresses) {}

    /** One block's accesses to an allocation: its lowest address, and per warp its first accesses. */
    private record BlockTrace(long lowest, List<List<Access>> warps) {}

    private static BlockTrace trace(Kernel k, int cta, Allocation a) {
        long lo = Long.MAX_VALUE, base = a.baseVa(), end = a.baseVa() + a.bytes();
        List<List<Access>> warps = new ArrayList<>(k.warpsPerCta());
        WarpInstruction in = new WarpInstruction();
        for (int w = 0; w < k.warpsPerCta(); w++) {
            WarpProgram p = k.program(cta, w);
            List<Access> kept = new ArrayList<>();
            for (int i = 0; i < MAX_INSTRUCTIONS && p.next(in); i++) {
                if (in.kind == WarpInstruction.Kind.COMPUTE || in.kind == WarpInstruction.Kind.BARRIER) continue;
                boolean touches = false;
                for (int l = 0; l < WarpInstruction.THREADS; l++) {
                    if ((in.activeMask & (1 << l)) == 0) continue;
                    long va = in.addresses[l];
                    if (va >= base && va < end) {
                        touches = true;
                        if (va < lo) lo = va;
                    }
                }
                if (touches && kept.size() < KEPT_ACCESSES) kept.add(new Access(in.activeMask, in.addresses.clone()));
            }
            warps.add(kept);
        }
        return new BlockTrace(lo == Long.MAX_VALUE ? -1 : lo, warps);
    }
}
