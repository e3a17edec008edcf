package org.hmsim.api.machine;

/**
 * A memory pool as a policy sees it: its kind (GDDR5, HBM2, DDR4…), the node it is attached to,
 * its channel count, peak bandwidth and capacity. The peak bandwidth is what the machine description
 * states — the thesis's SBIT entry (seed 000 §4.2).
 */
public record PoolInfo(int index, String name, String kind, int node, int channels,
                       double peakBytesPerSecond, long capacityBytes) {}
