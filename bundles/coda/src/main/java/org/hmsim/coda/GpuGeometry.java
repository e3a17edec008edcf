package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.machine.MachineView;

/**
 * What CODA's rules need from the machine: GPUs, SMs per GPU, and {@code N_blocks_per_GPU}, the number of
 * thread blocks one GPU holds at once. By default SMs per GPU × the SM's CTA limit; with {@code blocks_per_gpu:
 * -1} the paper's literal "SMs per GPU × concurrent TBs per SM for the kernel" (seed 004 §4.3–4.4), the
 * kernel's occupancy, taken for placement from the first kernel that touches the object and for scheduling
 * from each launch. Placement and the affinity scheduler must use the same value, or the data chunks and the
 * block groups drift apart; both take it from here.
 */
final class GpuGeometry {
    private GpuGeometry() {}

    /** {@code blocks_per_gpu} value for the kernel's occupancy instead of the SM's CTA limit. */
    static final int OCCUPANCY = -1;

    /**
     * @param given       the {@code blocks_per_gpu} parameter: a count; 0 = SMs per GPU × the SM's CTA limit, whatever
     *                    the kernel; {@link #OCCUPANCY} = the kernel's occupancy, SMs per GPU × min(the SM's CTA limit,
     *                    its warps / the kernel's warps per block) (shared memory is not counted)
     * @param warpsPerCta the kernel's warps per block (0: unknown, then the CTA limit)
     */
    static int blocksPerGpu(MachineView m, int given, int warpsPerCta) {
        if (given > 0) return given;
        List<? extends CoreView> sms = m.sms();
        int onGpu0 = 0;
        for (CoreView c : sms) if (c.gpu() == 0) onGpu0++;
        CoreView sm = sms.get(0);
        int perSm = sm.maxCtas();
        if (given == OCCUPANCY && warpsPerCta > 0) perSm = Math.max(1, Math.min(perSm, sm.maxWarps() / warpsPerCta));
        return Math.max(1, onGpu0 * perSm);
    }

    /** {@link #blocksPerGpu} for a kernel's block size, computed at first use: policies are created before the SMs exist. */
    static final class LazyBlocks {
        private final MachineView m;
        private final int given;
        private int lastWarps = Integer.MIN_VALUE, value;

        LazyBlocks(MachineView m, int given) {
            this.m = m;
            this.given = given;
        }

        /** @param warpsPerCta the kernel's warps per block, asked only under {@link #OCCUPANCY} (finding it may run programs) */
        int get(java.util.function.IntSupplier warpsPerCta) {
            int warps = given == OCCUPANCY ? warpsPerCta.getAsInt() : 0;
            if (warps != lastWarps) {
                value = blocksPerGpu(m, given, warps);
                lastWarps = warps;
            }
            return value;
        }
    }

    /** Eq. 1: {@code affinity(block) = (block / N_blocks_per_GPU) mod N_GPUs}. */
    static int affinity(int cta, int blocksPerGpu, int gpus) { return (cta / blocksPerGpu) % gpus; }

    /**
     * For each GPU, the indices of its memories among the GPU memories (pools attached to GPU nodes, in pool
     * order, as the machine numbers them for {@code pageHome}); none for a GPU without one.
     */
    static int[][] memoriesOfGpu(MachineView m) { return byGpu(m, false); }

    /** For each GPU, the pool indices of its memories, in pool order (what a page migration names). */
    static int[][] poolsOfGpu(MachineView m) { return byGpu(m, true); }

    /** The GPU-attached pools grouped by GPU, in pool order: as pool indices, or as their rank among those pools. */
    private static int[][] byGpu(MachineView m, boolean poolIndices) {
        List<List<Integer>> of = new java.util.ArrayList<>();
        for (int g = 0; g < m.gpuCount(); g++) of.add(new java.util.ArrayList<>());
        int k = 0;
        for (org.hmsim.api.machine.PoolInfo p : m.pools()) {
            if (p.node() >= m.gpuCount()) continue;
            of.get(p.node()).add(poolIndices ? p.index() : k);
            k++;
        }
        return of.stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray()).toArray(int[][]::new);
    }

    /** {@code gpus} GPUs with one memory each, memory g on GPU g (the paper's machine). */
    static int[][] oneMemoryEach(int gpus) {
        int[][] out = new int[gpus][];
        for (int g = 0; g < gpus; g++) out[g] = new int[] {g};
        return out;
    }

    /**
     * Which memory of its GPU each coarse-grained page takes: a GPU with several memories (one GPU with four HBM
     * stacks, Fig. 14's machine) gives them its pages in turn, in the order they are mapped, so that a page is whole
     * in one of them, as CGP keeps it, and the GPU's pages spread evenly over them. (By the page number they did not:
     * chunks of one page on two GPUs put every page of a GPU on the same one of its memories.)
     */
    static final class MemoryTurns {
        private final int[][] memoriesOfGpu;
        private final int[] next;

        MemoryTurns(int[][] memoriesOfGpu) {
            this.memoriesOfGpu = memoriesOfGpu;
            this.next = new int[memoriesOfGpu.length];
        }

        int gpus() { return memoriesOfGpu.length; }

        /** As {@link #next}, or -1 for a GPU outside the machine (-1: the CPU). */
        int nextOf(int gpu) { return gpu >= 0 && gpu < memoriesOfGpu.length ? next(gpu) : -1; }

        /** The memory for the next coarse-grained page of {@code gpu}, or -1 if the GPU has none. */
        int next(int gpu) {
            int[] mine = memoriesOfGpu[gpu];
            if (mine.length == 0) return -1;
            int k = next[gpu];
            next[gpu] = k + 1 == mine.length ? 0 : k + 1;
            return mine[k];
        }

        /** The state key of where each GPU's turn stands, handed from one interleave policy of this bundle to the next. */
        static final String STATE_KEY = "coda.memory_turns";

        /** Where each GPU's turn stands, as plain data for a successor (a live swap). */
        long[] state() {
            long[] s = new long[next.length];
            for (int g = 0; g < next.length; g++) s[g] = next[g];
            return s;
        }

        /**
         * Goes on where a predecessor's turns stood (a value of another shape, from another machine, is ignored).
         * Restarted at each GPU's first memory instead, a swap put the pages mapped after it on the memories already
         * holding the most.
         */
        void restore(Object state) {
            if (!(state instanceof long[] s) || s.length != next.length) return;
            for (int g = 0; g < next.length; g++) next[g] = memoriesOfGpu[g].length == 0 ? 0 : (int) Math.floorMod(s[g], (long) memoriesOfGpu[g].length);
        }
    }
}
