package org.hmsim.api.policy;

/** Effective capacity and access cost of compressed pages. The baseline compresses nothing. */
public interface CompressionPolicy extends Policy {

    /** How many times more pages a pool holds than its frames (1.0 = no compression). */
    default double capacityFactor(int pool) { return 1.0; }

    /**
     * How many times more pages like {@code vpn} a pool holds than its frames: the factor page {@code vpn} is stored
     * at when it moves into {@code pool} now ({@code 1.0}: uncompressed, no metadata and no codec latency, as LCP keeps
     * a page that does not compress). A policy that takes each allocation's declared compressibility
     * ({@link org.hmsim.api.os.MemoryManager#compressionRatio}) answers per page; the default is the pool's
     * {@link #capacityFactor(int)}. The platform asks this one, not {@link #capacityFactor(int)}: several times per page
     * (to price a batch of faults, again while the batch waits for frames, at allocation, for the effective capacity), so
     * it must answer from the policy's state without changing it. A page keeps the factor it was stored at until it
     * leaves: after a live swap of this slot, pages already resident stay stored as they were (still counted as
     * compressed accesses, at the new policy's metadata and latency costs), and pages moving in take the new factor.
     * Since api.policy 1.15.0.
     */
    default double capacityFactor(int pool, long vpn) { return capacityFactor(pool); }

    /** Extra latency of an access to a compressed page, ps. */
    default long extraLatencyPs(long vpn) { return 0; }

    /**
     * Compression metadata that an access to byte {@code offset} of compressed page {@code vpn} must first read
     * from memory (LCP keeps each page's metadata in memory; a miss of the memory controller's metadata cache
     * is an extra memory access, seed 002 §4.4): the byte offset, within the frame holding the page, of the
     * 64 B metadata block to read, or -1 when no read is needed (a metadata-cache hit, or no metadata). The
     * platform reads that block through the memory controllers before the access proceeds. Called once per
     * access to a compressed page, before {@link #extraLatencyPs}. Since api.policy 1.4.0.
     */
    default long metadataRead(long vpn, long offset, boolean write) { return -1; }
}
