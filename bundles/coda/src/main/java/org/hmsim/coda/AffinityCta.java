package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.CtaSchedulerPolicy;

/**
 * Thread-block placement by a fixed block → GPU rule, then the next SM with room of that GPU in
 * round-robin order; a block whose GPU is full waits (no work stealing, seed 004 §4.3.1). The rule is told to the
 * launcher ({@link #boundGpu}), which keeps a queue per GPU, so other GPUs' blocks go ahead. Two rules:
 * <ul>
 * <li>{@code affinity} (Eq. 1): {@code (block / N_blocks_per_GPU) mod N_GPUs} — block groups of one GPU's
 * capacity dealt round the GPUs, matching CODA's data chunks;</li>
 * <li>{@code contiguous}: the grid cut into N equal contiguous batches, batch g on GPU g (the static
 * work distribution multi-GPU runtimes use).</li>
 * </ul>
 */
final class AffinityCta implements CtaSchedulerPolicy {
    private final boolean contiguous;
    private final int gpus;
    private final GpuGeometry.LazyBlocks blocksPerGpu;
    private final int[] next;
    private int ctas = 1, warpsPerCta;
    private final java.util.function.IntSupplier launchedWarps = () -> warpsPerCta;

    AffinityCta(boolean contiguous, int gpus, GpuGeometry.LazyBlocks blocksPerGpu) {
        this.contiguous = contiguous;
        this.gpus = gpus;
        this.blocksPerGpu = blocksPerGpu;
        this.next = new int[gpus];
    }

    @Override
    public void onKernelLaunch(int kernel, int ctas, int warpsPerCta) {
        this.ctas = Math.max(1, ctas);
        this.warpsPerCta = warpsPerCta;
    }

    int gpuOf(int cta) {
        if (contiguous) return (int) Math.min(gpus - 1, (long) cta * gpus / ctas);
        return GpuGeometry.affinity(cta, blocksPerGpu.get(launchedWarps), gpus);
    }

    @Override
    public int boundGpu(int kernel, int cta) { return gpus == 1 ? -1 : gpuOf(cta); }

    @Override
    public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) {
        int g = gpus == 1 ? -1 : gpuOf(cta);
        int n = sms.size();
        int start = g < 0 ? next[0] : next[g];
        for (int i = 0; i < n; i++) {
            int s = (start + i) % n;
            if (canTake[s] && (g < 0 || sms.get(s).gpu() == g)) {
                next[Math.max(g, 0)] = (s + 1) % n;
                return s;
            }
        }
        return -1;
    }
}
