package org.hmsim.platform.gpu;

/**
 * A cache's specification. Latency is the hit latency in the owning clock's cycles; {@code mshrs} the
 * number of distinct lines that may be outstanding; {@code mshrMerge} how many requests one MSHR can
 * hold (merged requests to the same line); {@code bytesPerCycle} the data port width; {@code ports} the
 * line requests an L1 takes per cycle from its SM's load/store unit (an L2 slice takes what its crossbar port
 * delivers, one packet a cycle, and ignores it).
 */
public record CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs,
                          int mshrMerge, int bytesPerCycle, int queueDepth, int ports) {
    public CacheConfig {
        if (ports < 1) throw new IllegalArgumentException("ports must be >= 1, was " + ports);
    }

    /** One port. */
    public CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs, int mshrMerge, int bytesPerCycle, int queueDepth) {
        this(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, 1);
    }

    public CacheConfig withPorts(int n) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, n);
    }

    public int sets() { return (int) (sizeBytes / ((long) ways * lineBytes)); }
}
