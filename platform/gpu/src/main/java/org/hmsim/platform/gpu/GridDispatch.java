package org.hmsim.platform.gpu;

/**
 * A machine-level CTA dispatcher that spreads one kernel's grid over several GPUs (seed 004: thread
 * blocks go to any SM of any GPU). A GPU that has joined a grid ({@link Gpu#joinGrid}) reports its
 * retiring CTAs and drained stores here instead of dispatching on its own.
 */
public interface GridDispatch {
    /** A CTA retired on {@code gpu}; called from inside the SM's cycle (defer any new dispatch). */
    void ctaCompleted(Gpu gpu);

    /** An SM of {@code gpu} may take more CTAs than before (a throttling policy raised its cap). */
    void roomOpened(Gpu gpu);

    /** Every store of one of {@code gpu}'s SMs has been acknowledged. */
    void storesDrained(Gpu gpu);
}
