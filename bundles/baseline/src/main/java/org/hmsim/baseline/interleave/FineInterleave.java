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

    // Every DRAM access asks both; with a power-of-two channel count (most pools) a mask and a shift give the
    // division's own answers without two 64-bit divisions.

    @Override
    public int channel(long paddr, int pool, int channels) {
        long block = paddr >>> shift;
        return (channels & (channels - 1)) == 0 ? (int) (block & (channels - 1)) : (int) Long.remainderUnsigned(block, channels);
    }

    @Override
    public long channelAddress(long paddr, int pool, int channels) {
        long block = paddr >>> shift;
        long row = (channels & (channels - 1)) == 0 ? block >>> Integer.numberOfTrailingZeros(channels) : Long.divideUnsigned(block, channels);
        return (row << shift) | (paddr & mask);
    }
}
