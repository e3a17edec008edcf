package org.hmsim.platform.gpu;

/**
 * A cache's specification. Latency is the hit latency in the owning clock's cycles; {@code mshrs} the
 * number of distinct lines that may be outstanding; {@code mshrMerge} how many requests one MSHR can
 * hold (merged requests to the same line); {@code bytesPerCycle} the data port width; {@code ports} the
 * line requests an L1 takes per cycle from its SM's load/store unit (an L2 slice takes what its crossbar port
 * delivers, one packet a cycle, and ignores it). {@code evictNotice} (an L2's only): an eviction that waits
 * for its victim to leave also waits, for a clean victim, for the memory side to acknowledge a header-only
 * notice, as Multi2Sim 4.2's NMOESI evicts every block to a main-memory module that replies after its access
 * latency (a dirty victim's write-back is acknowledged either way). {@code invalidationMessages} (an L2's
 * only): a victim's L1 copies are invalidated by packets that queue in the crossbar with its other traffic
 * and are acknowledged (false: an unloaded round trip of fixed length). {@code writeBack} (an L1's only): stores
 * allocate (fetching the line) and stay in the L1 as dirty sectors, written back when the line leaves, as
 * Multi2Sim's NMOESI GPU L1 keeps non-coherent (N) blocks (false: write-through, no write allocation). {@code fixedLru}:
 * the cache keeps LRU whatever the replacement slot holds (a study of one level's replacement leaves the other alone).
 */
public record CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs,
                          int mshrMerge, int bytesPerCycle, int queueDepth, int ports, boolean evictNotice, boolean invalidationMessages, boolean writeBack,
                          boolean fixedLru) {
    public CacheConfig {
        if (ports < 1) throw new IllegalArgumentException("ports must be >= 1, was " + ports);
    }

    /** One port, silent clean evictions. */
    public CacheConfig(long sizeBytes, int ways, int lineBytes, int latencyCycles, int mshrs, int mshrMerge, int bytesPerCycle, int queueDepth) {
        this(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, 1, false, false, false, false);
    }

    public CacheConfig withPorts(int n) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, n, evictNotice, invalidationMessages, writeBack, fixedLru);
    }

    public CacheConfig withEvictNotice(boolean on) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, ports, on, invalidationMessages, writeBack, fixedLru);
    }

    public CacheConfig withInvalidationMessages(boolean on) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, ports, evictNotice, on, writeBack, fixedLru);
    }

    public CacheConfig withWriteBack(boolean on) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, ports, evictNotice, invalidationMessages, on, fixedLru);
    }

    public CacheConfig withFixedLru(boolean on) {
        return new CacheConfig(sizeBytes, ways, lineBytes, latencyCycles, mshrs, mshrMerge, bytesPerCycle, queueDepth, ports, evictNotice, invalidationMessages, writeBack, on);
    }

    public int sets() { return (int) (sizeBytes / ((long) ways * lineBytes)); }
}
