package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.machine.MachineView;

/**
 * What CODA's rules need from the machine: GPUs, SMs per GPU, and {@code N_blocks_per_GPU}, the number of
 * thread blocks one GPU holds at once (seed 004 §4.3: SMs per GPU × resident blocks per SM). Placement (at
 * cudaMalloc) and the affinity scheduler (at launch) must use the same value, or the data chunks and the
 * block groups drift apart; both take it from here.
 */
final class GpuGeometry {
    private GpuGeometry() {}

    /**
     * @param given the {@code blocks_per_gpu} parameter; 0 = SMs per GPU × the SM's resident-CTA limit
     *              (the paper's occupancy is per kernel and not given; the hardware limit is what the
     *              runtime knows before any launch)
     */
    static int blocksPerGpu(MachineView m, int given) {
        if (given > 0) return given;
        List<? extends CoreView> sms = m.sms();
        int onGpu0 = 0;
        for (CoreView c : sms) if (c.gpu() == 0) onGpu0++;
        return Math.max(1, onGpu0 * sms.get(0).maxCtas());
    }

    /** {@link #blocksPerGpu} computed at first use: policies are created before the SMs exist. */
    static final class LazyBlocks {
        private final MachineView m;
        private final int given;
        private int value;

        LazyBlocks(MachineView m, int given) {
            this.m = m;
            this.given = given;
        }

        int get() {
            if (value == 0) value = blocksPerGpu(m, given);
            return value;
        }
    }

    /** Eq. 1: {@code affinity(block) = (block / N_blocks_per_GPU) mod N_GPUs}. */
    static int affinity(int cta, int blocksPerGpu, int gpus) { return (cta / blocksPerGpu) % gpus; }

    /**
     * For each GPU, the index of its memory among the GPU memories (pools attached to GPU nodes, in pool
     * order, as the machine numbers them for {@code pageHome}); -1 for a GPU without one.
     */
    static int[] memoryOfGpu(MachineView m) {
        int[] out = new int[m.gpuCount()];
        java.util.Arrays.fill(out, -1);
        int k = 0;
        for (org.hmsim.api.machine.PoolInfo p : m.pools()) {
            if (p.node() >= m.gpuCount()) continue;
            if (out[p.node()] < 0) out[p.node()] = k;
            k++;
        }
        return out;
    }
}
