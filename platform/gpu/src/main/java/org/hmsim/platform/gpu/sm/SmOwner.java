package org.hmsim.platform.gpu.sm;

/** The GPU an SM belongs to: told when a CTA retires and when the SM's stores have all been acknowledged. */
public interface SmOwner {
    void ctaCompleted(Sm sm);

    void storesDrained(Sm sm);
}
