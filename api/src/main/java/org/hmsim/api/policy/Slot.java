package org.hmsim.api.policy;

import java.util.Locale;

/**
 * The decision points of a machine that a policy fills (DESIGN §5). Each simulation has exactly one
 * active policy per slot. The id is what study files and service properties use.
 */
public enum Slot {
    PLACEMENT("placement", PlacementPolicy.class, "which pool a newly touched page goes to"),
    MIGRATION("migration", MigrationPolicy.class, "which pages move between pools, when, at what rate"),
    RESIDENCY("residency", ResidencyPolicy.class, "demand paging under oversubscription: eviction victim, prefetch"),
    THROTTLING("throttling", ThrottlingPolicy.class, "how many SMs, thread blocks and warps may issue"),
    COMPRESSION("compression", CompressionPolicy.class, "effective capacity and latency of compressed pages"),
    CACHEABILITY("cacheability", CacheabilityPolicy.class, "whether a GPU access may allocate in L1/L2"),
    COHERENCE("coherence", CoherencePolicy.class, "directory actions for CPU/GPU accesses"),
    L2_MISS_PATH("l2-miss-path", L2MissPathPolicy.class, "how an L2 miss fetches and evicts"),
    REPLACEMENT("replacement", ReplacementPolicy.class, "victim choice within a cache set, in every L1 and L2 (one policy for both; a fully associative L2 keeps its own LRU)"),
    INTERLEAVE("interleave", InterleavePolicy.class, "how physical addresses map to channels and GPUs"),
    CTA_SCHEDULER("cta-scheduler", CtaSchedulerPolicy.class, "which SM runs each thread block"),
    WARP_SCHEDULER("warp-scheduler", WarpSchedulerPolicy.class, "which ready warp an SM issues from"),
    /** Since api.policy 1.24.0. */
    DRAM_SCHEDULER("dram-scheduler", DramSchedulerPolicy.class, "which queued request a DRAM channel serves next, in every pool whose machine file does not fix its own scheduler");

    private final String id;
    private final Class<? extends Policy> type;
    private final String doc;

    Slot(String id, Class<? extends Policy> type, String doc) {
        this.id = id;
        this.type = type;
        this.doc = doc;
    }

    public String id() { return id; }

    public Class<? extends Policy> policyType() { return type; }

    public String doc() { return doc; }

    /** The slot with this id, or null. */
    public static Slot byId(String id) {
        if (id == null) return null;
        String k = id.trim().toLowerCase(Locale.ROOT).replace('_', '-');
        for (Slot s : values()) if (s.id.equals(k)) return s;
        return null;
    }
}
