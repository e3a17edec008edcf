package org.hmsim.api.policy;

import org.hmsim.api.mem.AccessKind;

/**
 * Victim choice within a cache set. The policy is a factory of per-cache state (ChampSim style: flat
 * primitive arrays indexed by set and way), since one simulation has many caches.
 * <p>
 * A line that leaves without a victim choice (an L1 copy the L2 invalidates, a coherence flush, a frame unified memory
 * evicts) is told by {@link State#onInvalidate}, and the way it frees is filled without {@link State#victim}; the L1's
 * hooks carry no address. After a live swap to the policy, its new states are built by presenting every valid
 * way as filled ({@link State#onFill(int, int)}), set by set, least recently used first: those calls are not accesses,
 * and a policy counting fills (set dueling) sees them. {@link State#victim} must answer one of its candidates; any
 * other way fails the run, naming the cache.
 */
public interface ReplacementPolicy extends Policy {

    State forCache(String cacheName, int sets, int ways);

    /** Replacement state of one cache. Ways are at most 64. */
    interface State {
        /**
         * A line in (set, way) was hit; also when more sectors of a line the way already holds arrive (a sector miss
         * re-references the line: the way is not filled anew).
         */
        void onHit(int set, int way);

        /** A line was filled into (set, way): a new line, in a free way or one {@link #victim} chose. */
        void onFill(int set, int way);

        /**
         * The line in (set, way) left without a victim choice: an L1 copy the L2 invalidated when it evicted the line, an
         * L1 copy an atomic invalidated, a cache flushed (a coherence swap), a frame unified memory evicted. The way is
         * free until a later {@link #onFill}; a dead-block predictor may train on it. Since api.policy 1.22.0.
         */
        default void onInvalidate(int set, int way) {}

        /**
         * The way to evict among {@code candidates} (bit w set = way w may be evicted: valid and not
         * locked by a transaction in flight). Never called with an empty mask.
         */
        int victim(int set, long candidates);

        /**
         * A line in (set, way) of an L2 slice was hit by an access of {@code kind} (READ, ATOMIC, WRITE or an
         * L1's WRITEBACK) to line address {@code line} (physical, line-aligned) from SM {@code sm} (-1: not from
         * an SM, such as a write-back). L2 slices call this instead of {@link #onHit(int, int)}; the default
         * forwards to it, so a policy that needs no more is unchanged. L1s call the two-argument form only.
         * What a signature-based policy (SHiP-Mem's address region, a write-aware insertion) needs, which the
         * workload models cannot give as a PC: they have none. Since api.policy 1.14.0.
         */
        default void onHit(int set, int way, long line, AccessKind kind, int sm) { onHit(set, way); }

        /**
         * Line {@code line} was filled into (set, way) of an L2 slice, by a read miss ({@code READ}, also for
         * atomics) or a store miss ({@code WRITE}: a write-allocate of the sectors written). L2 slices call this
         * instead of {@link #onFill(int, int)}, to which the default forwards. After a live swap the kernel
         * rebuilds the state with the two-argument form (it does not know the kinds). Since api.policy 1.14.0.
         */
        default void onFill(int set, int way, long line, AccessKind kind) { onFill(set, way); }

        /**
         * Whether {@link #victim(int, long, long)} should be told which candidates have copies in an L1. An L2
         * eviction first invalidates the L1 copies of its victim (README, the baseline machine), and the L2 never
         * sees the L1s' hits, so a policy that inserts lines at a distant position (BRRIP, DRRIP, SHiP) evicts
         * lines hot in the L1s and turns L1 hits into misses. Asked at each L2 miss that needs a victim; the
         * default (false) costs nothing. Since api.policy 1.14.0.
         */
        default boolean observesUpperCopies() { return false; }

        /**
         * {@link #victim(int, long)} with {@code upperCopies}: bit w set = the line in way w (a candidate) has a
         * copy in at least one L1 (query-based selection, Jaleel et al. MICRO 2010, can avoid those). Called by
         * L2 slices instead of the two-argument form when {@link #observesUpperCopies()} is true. Since api.policy
         * 1.14.0.
         */
        default int victim(int set, long candidates, long upperCopies) { return victim(set, candidates); }
    }
}
