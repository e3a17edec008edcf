package org.hmsim.api.policy;

/** Effective capacity and access cost of compressed pages. The baseline compresses nothing. */
public interface CompressionPolicy extends Policy {

    /** How many times more pages a pool holds than its frames (1.0 = no compression). */
    default double capacityFactor(int pool) { return 1.0; }

    /** Extra latency of an access to a compressed page, ps. */
    default long extraLatencyPs(long vpn) { return 0; }
}
