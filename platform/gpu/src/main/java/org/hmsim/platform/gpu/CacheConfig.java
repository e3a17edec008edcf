package org.hmsim.platform.gpu;

/**
 * A cache's specification. Latency is the hit latency in the owning clock's cycles; {@code mshrs} the
 * number of distinct lines that may be outstanding; {@code mshrMerge} how many requests one MSHR can
 * hold (merged requests to the same line); {@code bytesPerCycle} the data port width.
 */
public record CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs,
                          int mshrMerge, int bytesPerCycle, int queueDepth) {
    public int sets() { return (int) (sizeBytes / ((long) ways * lineBytes)); }
}
