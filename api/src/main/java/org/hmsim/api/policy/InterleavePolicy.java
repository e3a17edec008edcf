package org.hmsim.api.policy;

/**
 * Maps a physical address to a channel of its pool (and, on multi-GPU machines, to a home GPU). Banks
 * and rows within a channel are the DRAM model's business.
 */
public interface InterleavePolicy extends Policy {

    /** The channel (0..channels-1) of {@code pool} that serves byte address {@code paddr}. */
    int channel(long paddr, int pool, int channels);

    /**
     * The address within the channel once the channel bits are taken out, so that bank and row bits are
     * not aliased by the channel choice.
     */
    long channelAddress(long paddr, int pool, int channels);
}
