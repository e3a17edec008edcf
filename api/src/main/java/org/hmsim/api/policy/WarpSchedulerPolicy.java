package org.hmsim.api.policy;

/**
 * Chooses which ready warp an SM issues from each cycle (GTO, loose round-robin, two-level, cache-conscious …).
 *
 * <p>An SM asks its state {@link State#pick} once per free issue pipeline per cycle: up to {@code issue_width} times
 * (2 on the presets), each time with the warps already picked this cycle removed from the ready set. Nothing marks the
 * start of a cycle; a state that needs the time reads it from its {@link PolicyContext}.
 */
public interface WarpSchedulerPolicy extends Policy {

    State forSm(int gpu, int sm, int warpSlots);

    /** Per-SM state. Warp slots are at most 64, so a ready set fits a {@code long} (bit i = slot i). */
    interface State {
        /** {@link #pick}'s answer for "leave this pipeline idle this cycle". Since api.policy 1.21.0. */
        int NONE = -1;

        /**
         * A new warp was placed in {@code slot}; lower {@code age} = older. A slot is reused: a later call for the same
         * slot is a new warp (its predecessor's {@link #onWarpExit} came before).
         */
        void onWarpStart(int slot, long age);

        /**
         * Picks one slot from {@code ready}, a non-empty bitmask of the warps that can issue now: not waiting at a
         * barrier or for their loads, not beyond the throttling slot's warp cap, and not a memory instruction while the
         * load/store unit is full. Since api.policy 1.21.0 it may answer {@link #NONE}: nothing issues from this pipeline
         * this cycle (nor from the cycle's later ones), and the SM asks again next cycle. A state that answers NONE for
         * ever stalls the run until the watchdog fails it.
         */
        int pick(long ready);

        /**
         * {@link #pick(long)} told which of the ready warps' next instruction is a load, store or atomic ({@code memory},
         * a subset of {@code ready}): a cache-conscious scheduler (CCWS) holds back only the memory instructions of the
         * warps it throttles. The SM calls this one; by default it asks {@link #pick(long)}. Since api.policy 1.21.0.
         */
        default int pick(long ready, long memory) { return pick(ready); }

        /**
         * The warp in {@code slot} issued its last instruction: it never becomes ready again. Its slot is free for a new
         * warp once its loads have returned. Since api.policy 1.21.0.
         */
        default void onWarpExit(int slot) { }

        /**
         * Whether this state is told of the SM's L1 data cache accesses and evictions ({@link #onL1Access},
         * {@link #onL1Eviction}); asked when the state is made (and at a live swap to it), so an SM whose scheduler
         * answers false pays nothing per access. Since api.policy 1.21.0.
         */
        default boolean observesL1() { return false; }

        /**
         * A load line request of the warp in {@code slot} looked up the SM's L1: {@code hit} when its data is there (every
         * sector it wants present, or already arrived in an uncached line's MSHR); a miss, or a request merged into a miss
         * in flight, is not a hit.
         * {@code line} is the line's physical address (line-aligned), the key of {@link #onL1Eviction}. A refused look-up
         * (no MSHR, a full crossbar port) is told when it is retried and accepted, not each time it is refused. Stores
         * and atomics are not told. Since api.policy 1.21.0.
         */
        default void onL1Access(int slot, long line, boolean hit) { }

        /**
         * The L1 replaced {@code line} to make room for a fill (CCWS's victim tag arrays record these to detect lost
         * locality). Lines dropped because the L2 evicted them, or flushed at a swap, are not told. Since api.policy
         * 1.21.0.
         */
        default void onL1Eviction(long line) { }
    }
}
