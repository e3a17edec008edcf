package org.hmsim.platform.machine;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import org.hmsim.api.policy.Slot;

/**
 * The policy of each slot when a study names none: the baseline machine of the Agarwal thesis
 * (seed 000) — first-touch-local placement, no migration/residency/throttling/compression/coherence,
 * every access cacheable, conventional L2 miss path, LRU, fine-grained interleave, round-robin CTAs,
 * greedy-then-oldest warps, FR-FCFS DRAM channels.
 */
public final class DefaultPolicies {
    private static final Map<Slot, String> NAMES = new EnumMap<>(Slot.class);

    static {
        NAMES.put(Slot.PLACEMENT, "local");
        NAMES.put(Slot.MIGRATION, "none");
        NAMES.put(Slot.RESIDENCY, "none");
        NAMES.put(Slot.THROTTLING, "none");
        NAMES.put(Slot.COMPRESSION, "none");
        NAMES.put(Slot.CACHEABILITY, "cache-all");
        NAMES.put(Slot.COHERENCE, "none");
        NAMES.put(Slot.L2_MISS_PATH, "conventional");
        NAMES.put(Slot.REPLACEMENT, "lru");
        NAMES.put(Slot.INTERLEAVE, "fine");
        NAMES.put(Slot.CTA_SCHEDULER, "round-robin");
        NAMES.put(Slot.WARP_SCHEDULER, "gto");
        NAMES.put(Slot.DRAM_SCHEDULER, "fr-fcfs");
    }

    private DefaultPolicies() {}

    /** The default policy name of a slot. */
    public static String name(Slot slot) { return NAMES.get(slot); }

    public static Map<Slot, String> all() { return Collections.unmodifiableMap(NAMES); }
}
