package org.hmsim.baseline.interleave;

import org.hmsim.api.policy.InterleavePolicy;

/**
 * Fine-grained channel interleaving: consecutive {@code granularity}-byte blocks go to consecutive
 * channels, {@code channel = (paddr / granularity) mod channels}. The channel address squeezes the
 * channel bits out: {@code (paddr / granularity / channels) * granularity + paddr mod granularity}, so
 * each channel sees a dense address space and bank/row bits are not aliased by the channel choice.
 */
final class FineInterleave implements InterleavePolicy {
    private final int shift;
    private final long mask;

    FineInterleave(long granularity) {
        this.shift = Long.numberOfTrailingZeros(granularity);
        this.mask = granularity - 1;
    }

    @Override
    public int channel(long paddr, int pool, int channels) {
        return (int) Long.remainderUnsigned(paddr >>> shift, channels);
    }

    @Override
    public long channelAddress(long paddr, int pool, int channels) {
        return (Long.divideUnsigned(paddr >>> shift, channels) << shift) | (paddr & mask);
    }
}
