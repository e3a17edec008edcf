package org.hmsim.coda;

import org.hmsim.api.policy.InterleavePolicy;

/**
 * The channel part every CODA-family interleave shares: within one GPU memory, consecutive
 * {@code granularity}-byte blocks of the local address go to consecutive channels (seed 004 Table 1:
 * HBM "interleaved at 128B"); the channel address squeezes the channel bits out. Subclasses decide
 * where each page lives across the GPU memories.
 */
abstract class ChannelInterleave implements InterleavePolicy {
    private final int shift;
    private final long mask;
    private final int spread;

    ChannelInterleave(long channelGranularity, int spreadGranularity) {
        this.shift = Long.numberOfTrailingZeros(channelGranularity);
        this.mask = channelGranularity - 1;
        this.spread = spreadGranularity;
    }

    @Override
    public final int channel(long paddr, int pool, int channels) {
        return (int) Long.remainderUnsigned(paddr >>> shift, channels);
    }

    @Override
    public final long channelAddress(long paddr, int pool, int channels) {
        return (Long.divideUnsigned(paddr >>> shift, channels) << shift) | (paddr & mask);
    }

    @Override
    public final int spreadGranularity() { return spread; }
}
