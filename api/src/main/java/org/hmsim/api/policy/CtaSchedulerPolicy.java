package org.hmsim.api.policy;

import java.util.List;
import org.hmsim.api.machine.CoreView;

/** Chooses the SM that runs the next thread block (CTA) of a kernel. */
public interface CtaSchedulerPolicy extends Policy {

    /**
     * @param cta the block's linear index in the grid
     * @param sms the SMs the block may go to: every SM of the machine, or in a multiprogrammed mix (since api.policy 1.11.0)
     *            the SMs of the GPU its program runs on; an SM can take the block if it has room. On a machine of several
     *            GPUs the list is SM-major, interleaving the GPUs (GPU 0's SM 0, GPU 1's SM 0, ..., then each GPU's SM 1),
     *            so that a rule taking the first free SM spreads blocks over the GPUs; {@code MachineView.sms()} is
     *            GPU-major instead. Take an SM's GPU from {@link CoreView#gpu()}, never from its position here.
     * @param canTake {@code canTake[i]} tells whether {@code sms.get(i)} has room for this block
     * @return the index into {@code sms}, or -1 to hold the block until a block finishes
     */
    int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake);

    /**
     * Told before the first {@link #pickSm} of a kernel: its grid size and warps per block (rules that
     * split the grid into per-GPU batches need them). Since api.policy 1.3.0.
     */
    default void onKernelLaunch(int kernel, int ctas, int warpsPerCta) {}

    /**
     * A live swap installed this rule while launch {@code kernel} runs: {@code dispatched.test(cta)} tells which of its
     * {@code ctas} blocks are already on an SM (they run to their end where they are). {@link #boundGpu} and
     * {@link #pickSm} are then asked only about the others, so a rule that splits the remaining work can count it (a
     * researcher's work-stealing rule, told the whole grid again, left a GPU idle half the run). The default tells
     * {@link #onKernelLaunch}, as at a launch. Since api.policy 1.20.0.
     */
    default void onSwappedInMidKernel(int kernel, int ctas, int warpsPerCta, java.util.function.IntPredicate dispatched) {
        onKernelLaunch(kernel, ctas, warpsPerCta);
    }

    /**
     * The GPU this rule binds block {@code cta} to, or -1 if it binds none (the default). Asked once per block after
     * {@link #onKernelLaunch} (after {@link #onSwappedInMidKernel}, once per block not yet dispatched). A multi-GPU launcher keeps the blocks bound to a GPU in that GPU's queue and offers
     * {@link #pickSm} each queue's first block, so a GPU's blocks are never stuck behind another GPU's however far down
     * the grid they are (seed 004 §4.3's per-GPU queues); unbound blocks are offered in grid order. {@link #pickSm} may still place a bound block on an SM of another GPU (work
     * stealing: a GPU whose own blocks have run out takes another queue's first block); {@code grid.gpu<g>.ctas} counts
     * blocks where they ran. Since api.policy 1.10.0.
     */
    default int boundGpu(int kernel, int cta) { return -1; }
}
