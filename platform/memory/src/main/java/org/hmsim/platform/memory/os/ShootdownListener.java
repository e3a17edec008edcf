package org.hmsim.platform.memory.os;

/**
 * Told when a page has moved to a new frame, with the GPUs that had translated it (bit g = GPU g): the
 * GPU side invalidates those GPUs' TLB entries and stalls them for the shootdown cost (seed 000 §2.5:
 * a shootdown is needed only if the GPU is in the page's sharer list).
 */
@FunctionalInterface
public interface ShootdownListener {
    void onPageMoved(long vpn, long sharerMask);
}
