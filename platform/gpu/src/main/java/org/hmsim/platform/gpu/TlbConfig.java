package org.hmsim.platform.gpu;

/**
 * Address translation: a per-SM L1 TLB, a GPU-wide shared L2 TLB, page-table walkers with a fixed walk
 * latency, and the stall a GPU-wide shootdown costs (seed 000 §5.2: 100 cycles by default).
 */
public record TlbConfig(int l1Entries, int l1Ways, int l1LatencyCycles, int l2Entries, int l2Ways,
                        int l2LatencyCycles, int walkLatencyCycles, int walkers, int shootdownCycles) {}
