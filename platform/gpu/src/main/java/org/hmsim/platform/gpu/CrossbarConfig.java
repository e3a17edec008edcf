package org.hmsim.platform.gpu;

/** The SM-to-L2 interconnect: per-port bandwidth (bytes per GPU cycle), traversal latency, port queue depth. */
public record CrossbarConfig(int latencyCycles, int bytesPerCycle, int queueDepth) {}
