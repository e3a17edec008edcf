package org.hmsim.platform.gpu.sm;

/**
 * The GPU an SM belongs to: told when a CTA retires, when a throttling policy raised the SM's thread-block cap, and
 * when the SM's stores have all been acknowledged.
 */
public interface SmOwner {
    void ctaCompleted(Sm sm);

    /** The SM may take more thread blocks than before (its cap was raised); called outside the SM's cycle. */
    void roomOpened(Sm sm);

    void storesDrained(Sm sm);
}
