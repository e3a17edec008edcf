package org.hmsim.platform.memory.os;

/**
 * Told when a page has moved to a new frame, with the GPUs that had translated it (bit g = GPU g) and the
 * physical address of the frame it left: the GPU side invalidates those GPUs' TLB entries and stalls them
 * for the shootdown cost (seed 000 §2.5: a shootdown is needed only if the GPU is in the page's sharer
 * list), and drops the old frame's lines from its caches, since the frame is free for another page.
 */
public interface ShootdownListener {
    void onPageMoved(long vpn, long sharerMask, long oldFrame);

    /**
     * A frame a migration left is taken again (by a migration, a first touch or a host mapping): requests translated
     * to it before the shootdown may have cached its old lines after {@link #onPageMoved} dropped them, so the caches
     * drop them once more before the new page can hit them.
     */
    default void onFrameReused(long frameBase) {}
}
