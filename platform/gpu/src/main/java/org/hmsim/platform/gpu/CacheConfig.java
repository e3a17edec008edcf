package org.hmsim.platform.gpu;

/**
 * A cache's specification. Latency is the hit latency in the owning clock's cycles; {@code mshrs} the
 * number of distinct lines that may be outstanding; {@code mshrMerge} how many requests one MSHR can
 * hold (merged requests to the same line); {@code bytesPerCycle} the data port width; {@code ports} the
 * line requests an L1 takes per cycle from its SM's load/store unit (an L2 slice takes what its crossbar port
 * delivers, one packet a cycle, and ignores it). {@code evictNotice} (an L2's only): an eviction that waits
 * for its victim to leave also waits, for a clean victim, for the memory side to acknowledge a header-only
 * notice, as Multi2Sim 4.2's NMOESI evicts every block to a main-memory module that replies after its access
 * latency (a dirty victim's write-back is acknowledged either way).
 */
public record CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs,
                          int mshrMerge, int bytesPerCycle, int queueDepth, int ports, boolean evictNotice) {
    public CacheConfig {
        if (ports < 1) throw new IllegalArgumentException("ports must be >= 1, was " + ports);
    }

    /** One port, silent clean evictions. */
    public CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs, int mshrMerge, int bytesPerCycle, int queueDepth) {
        this(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, 1, false);
    }

    public CacheConfig withPorts(int n) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, n, evictNotice);
    }

    public CacheConfig withEvictNotice(boolean on) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, ports, on);
    }

    public int sets() { return (int) (sizeBytes / ((long) ways * lineBytes)); }
}
