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

    /** {@link #pageHome}: the page is spread over every GPU memory at {@link #spreadGranularity()}. */
    int SPREAD = -1;

    /**
     * Machines whose GPUs have several memories (one HBM per GPU, seed 004): where virtual page
     * {@code vpn} of {@code allocation} lives when it is first mapped. A memory index
     * {@code 0..memories-1} (memory i is the i-th GPU-attached pool) holds the page whole there (a
     * coarse-grained page, CGP); {@link #SPREAD} interleaves its blocks over all the memories (a
     * fine-grained page, FGP). {@code gpu} is the GPU whose access touched it (-1: the CPU). Single-memory
     * machines never ask. Default: every page spread (FGP-only). Since api.policy 1.3.0.
     */
    default int pageHome(long vpn, org.hmsim.api.os.Allocation allocation, int gpu, int memories) { return SPREAD; }

    /**
     * The block size, bytes (a power of two, 128 B .. a page), at which a spread page's consecutive blocks go
     * to consecutive GPU memories (seed 004: 128 B). Read once when the machine is built. Since api.policy 1.3.0.
     */
    default int spreadGranularity() { return 128; }
}
