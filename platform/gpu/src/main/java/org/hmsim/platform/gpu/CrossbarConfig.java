package org.hmsim.platform.gpu;

/**
 * The SM-to-L2 interconnect: per-port bandwidth (bytes per GPU cycle), traversal latency, port queue depth,
 * and how addresses are spread over the L2 slices: {@code sliceInterleaveBytes} 0 = hashed (XOR of address
 * bit fields, so power-of-two strides do not camp on one slice); > 0 = plain interleave in chunks of that
 * many bytes, slice = (paddr / chunk) mod slices (seed 003: AMD GCN L2 banks interleaved at 256 B).
 */
public record CrossbarConfig(int latencyCycles, int bytesPerCycle, int queueDepth, int sliceInterleaveBytes) {
    /** Hashed slice selection. */
    public CrossbarConfig(int latencyCycles, int bytesPerCycle, int queueDepth) { this(latencyCycles, bytesPerCycle, queueDepth, 0); }
}
