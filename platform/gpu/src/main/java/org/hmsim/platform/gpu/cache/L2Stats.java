package org.hmsim.platform.gpu.cache;

import org.hmsim.api.stats.Stats;

/**
 * An L2 slice's event counters, bumped in place by the slice's paths (plain fields: the hot path pays no call),
 * and their registration under the slice's name. The time integrals (MSHR occupancy, fetches in flight) live
 * with the state they integrate ({@link L2Transactions}, {@link L2Fetch}).
 */
final class L2Stats {
    long hits, misses, sectorMisses, writeHits, writeMisses, writeMerges, merges, mshrFullStalls, mergeFullStalls,
            setLockedStalls, mshrStallCycles, writebacks, writebackBytes, fetchBytes,
            missLatencyPs, missesCompleted, fabricRefusals, nacks, frcMisses, frcFallbacks, swaps, evictions,
            invalidations, evictNotices, evictLatencyPs, fetchLatencyPs, fetchesTimed, frcStoreAllocs, frcLookups, vcHits, vcInserts;
    // selective caching (seed 000 Ch. 6): requests that leave no line and merges among them
    long uncachedRequests, uncachedMerges, widenedFetches, mergeNacks;
    /** Read look-ups that did not hit, counted at every attempt (NACKed, parked and re-run ones too): Multi2Sim's report "Misses". */
    long lookupMisses;

    /**
     * Every tag look-up: reads and atomics that hit, every read attempt that did not (a NACKed request's re-send and
     * a waiting one's re-run included), and writes; what the slice's energy counts.
     */
    long accesses() { return hits + lookupMisses + writeHits + writeMisses; }

    /** Average time from MSHR allocation to the data reaching its requesters, ps. */
    double averageMissLatencyPs() { return missesCompleted == 0 ? 0 : (double) missLatencyPs / missesCompleted; }

    void register(Stats s, L2Slice sl) {
        s.counter("hits", "read/atomic requests whose sectors were all present", () -> hits);
        s.counter("misses", "read/atomic requests that started a fetch (MSHR or FRC entry)", () -> misses);
        s.counter("sector_misses", "32 B sectors fetched from memory", () -> sectorMisses);
        s.counter("write_hits", "writes to a present line or to a line in flight (those also in write_merges); present as this slice "
                + "serves them, which under NACKs is not program order: a re-sent store reaches it after younger ones", () -> writeHits);
        s.counter("write_merges", "of the write hits, writes into a line in flight (its fill, install or swap applies their sectors); "
                + "write_hits - write_merges found the line present", () -> writeMerges);
        s.counter("write_misses", "writes that allocated a line without fetching (or were posted)", () -> writeMisses);
        s.counter("mshr_merges", "requests merged into a transaction already pending for the line", () -> merges);
        s.counter("nacks", "requests answered with a NACK because every MSHR (or the line's merge slots) was busy; the L1 retries", () -> nacks);
        s.counter("merge_full_nacks", "of the NACKs, those for a line whose MSHR had no merge slot left", () -> mergeNacks);
        s.counter("mshr_full_stalls", "times the input queue stalled because every MSHR was busy (requests that cannot be NACKed)", () -> mshrFullStalls);
        s.counter("mshr_merge_full_stalls", "times the input queue stalled because an MSHR's merge slots were full", () -> mergeFullStalls);
        s.counter("mshr_stall_cycles", "cycles the input queue stalled (MSHRs, merge slots, full set-wait list)", () -> mshrStallCycles);
        s.counter("set_locked_stalls", "requests that waited because every way of their set was transient (or their line was being evicted)", () -> setLockedStalls);
        s.counter("set_locked_stall_cycles", "cycles requests waited for a way of their set to be released (summed over requests)", sl::setLockedStallCycles);
        s.counter("lookup_misses", "read look-ups that did not hit, every attempt counted (a NACKed request's re-send, a parked one's re-run, a merge): "
                + "Multi2Sim's report \"Misses\" (accesses - hits), which seed 003's simulator counts so", () -> lookupMisses);
        s.counter("evictions", "valid victims evicted (invalidation, then write-back if dirty)", () -> evictions);
        s.counter("invalidations", "victims whose L1 copies were invalidated first", () -> invalidations);
        s.counter("evict_notices", "clean victims whose eviction waited for the memory side's acknowledgement (l2.evict_notice)", () -> evictNotices);
        s.counter("writebacks", "dirty victims (and posted writes) sent to memory", () -> writebacks);
        s.counter("writeback_bytes", "bytes of dirty sectors written back", () -> writebackBytes);
        s.counter("fetch_bytes", "bytes fetched from memory (32 B x sectors)", () -> fetchBytes);
        s.counter("fabric_refusals", "sends refused by the fabric (held and retried)", () -> fabricRefusals);
        s.counter("uncached_requests", "read requests to lines the cacheability policy forbids to allocate (seed 000 Ch. 6)", () -> uncachedRequests);
        s.counter("uncached_widened", "further sectors added to an uncached line's fetch before it left the slice (one request header, seed 000 §6.2.2.3)", () -> widenedFetches);
        s.counter("uncached_merges", "of those, requests merged into a pending fetch (cacheless L2 coalescing across SMs, seed 000 §6.2.2.1)", () -> uncachedMerges);
        s.counter("frc_misses", "read misses whose fetch went into an FRC entry (seed 003 §M7)", () -> frcMisses);
        s.counter("frc_fallbacks", "misses that found their FRC set full and took the conventional path (each once, when the path takes it: not a NACKed or parked attempt)", () -> frcFallbacks);
        s.counter("frc_swaps", "FRC entry / L2 way swaps", () -> swaps);
        s.counter("frc_lookups", "FRC tag look-ups (every L2 tag-miss attempt while an FRC is configured, a NACKed or parked request's re-run looking again, "
                + "as l2_mpko_lookups counts; so more than lookup_misses + write_misses, which count each write once; seed 003 §6.6.4 energy)", () -> frcLookups);
        s.counter("vc_hits", "read misses in the L2 tags served by the victim cache (not counted in misses)", () -> vcHits);
        s.counter("vc_inserts", "victims put into the victim cache", () -> vcInserts);
        s.counter("frc_store_allocs", "store misses allocated through an FRC entry", () -> frcStoreAllocs);
        s.counter("evict_latency_ps", "sum over read misses of the eviction part of the miss latency (victim invalidation + write-back before the fetch)", () -> evictLatencyPs);
        s.counter("fetch_latency_ps", "sum over fetches of the fetch part (bank to memory and back)", () -> fetchLatencyPs);
        s.counter("fetches", "fetches whose latency is in fetch_latency_ps", () -> fetchesTimed);
        s.counter("mshr_occupancy_ps", "integral of MSHRs in use over time (entries x ps); / sim time = mean occupancy", sl::mshrOccupancyPs);
        s.counter("mlp_integral_ps", "integral of fetches in flight over time (fetches x ps)", sl::mlpIntegralPs);
        s.counter("mlp_busy_ps", "time at least one fetch was in flight", sl::mlpBusyPs);
        s.gauge("mlp", "memory-level parallelism: mean fetches in flight while any is", () -> {
            long b = sl.mlpBusyPs();
            return b == 0 ? 0 : (double) sl.mlpIntegralPs() / b;
        });
        s.gauge("avg_miss_latency_ps", "mean time from a miss to its data reaching the requesters", this::averageMissLatencyPs);
        s.gauge("avg_evict_latency_ps", "mean eviction part of a read miss's (or victim-cache hit's) latency", () -> misses + vcHits == 0 ? 0 : (double) evictLatencyPs / (misses + vcHits));
        s.gauge("avg_fetch_latency_ps", "mean fetch part of a miss's latency", () -> fetchesTimed == 0 ? 0 : (double) fetchLatencyPs / fetchesTimed);
        s.gauge("frc_share", "share of read misses served by FRC entries", () -> misses == 0 ? 0 : (double) frcMisses / misses);
        s.gauge("hit_rate", "hits / (hits + misses) of reads", () -> hits + misses == 0 ? 0 : (double) hits / (hits + misses));
    }
}
