package org.hmsim.api.stats;

/**
 * Sees every epoch's samples as they are taken. Attached by tools (live plots, the shell's status);
 * with none attached, sampling does not call anything.
 */
@FunctionalInterface
public interface StatListener {
    /** {@code names[i]} had {@code values[i]} at the end of the epoch ending at {@code timePs}. */
    void onEpoch(long timePs, String[] names, double[] values);
}
