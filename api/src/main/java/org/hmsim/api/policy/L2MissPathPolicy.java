package org.hmsim.api.policy;

/**
 * How an L2 bank handles a miss. {@code conventional}: the victim line is locked at once; its write-back
 * and the fetch proceed for that way, and a set whose ways are all locked stalls further misses.
 * A fetch-buffer design (FRC, seed 003) starts the fetch into a separate buffer while the victim stays
 * valid and can still hit.
 * <p>
 * A policy of this slot is a set of constants that the platform's one miss path reads; it is not called per miss,
 * so it chooses among the designs below (and their combinations) but cannot reorder the steps of a miss. The getters
 * are read once when the machine is built and once when a swap to the policy is staged (again after its
 * {@code importState}); a getter that throws, or a value out of range (a negative count; more than 65,536 fetch
 * buffers), fails the run at its start or refuses the swap before anything is drained, naming the getter. Fetch
 * buffers and a victim cache may be combined: a miss that finds its fetch-buffer set full takes the conventional path,
 * whose victims then enter the victim cache; {@link #postsWriteBacks()} applies only without either.
 */
public interface L2MissPathPolicy extends Policy {

    /** Entries per L2 bank in which a fetch can wait while its victim stays valid (0 = conventional). */
    default int fetchBuffersPerBank() { return 0; }

    /** Cycles to swap a fetch-buffer entry with its victim on arrival. */
    default int swapCycles() { return 0; }

    /**
     * Associativity of each bank's fetch buffer (seed 003 §M7: 8-way; a buffer smaller than its
     * associativity is fully associative). 0 = fully associative.
     */
    default int fetchBufferWays() { return 8; }

    /**
     * Whether a fetch-buffer entry also takes one of the bank's MSHRs while its fetch is in flight (seed 003
     * §8 q1 is open). false: the entry holds its own miss state ("tags and control bits of blocks in
     * transient state are stored in the FRC", Ch. 6.4.2), so the buffer adds miss-handling state beyond
     * the MSHR file. Since api.policy 1.4.0.
     */
    default boolean fetchBufferTakesMshr() { return false; }

    /**
     * Whether the fetch buffer's set index is the line number within the bank (the bank-interleave bits
     * removed) rather than the line number itself (Multi2Sim's cache_decode_address, whose sets alias with
     * the bank bits). Since api.policy 1.4.0.
     */
    default boolean fetchBufferBankLocalIndex() { return false; }

    /**
     * Lines per L2 bank of a fully associative victim cache that keeps the lines the conventional miss path
     * evicts and serves misses to them (seed 003 Ch. 6.4.3 comparison point); 0 = none,
     * {@code Integer.MAX_VALUE} = unbounded. Since api.policy 1.4.0.
     */
    default int victimCacheLines() { return 0; }

    /**
     * Whether a miss's victim leaves at once: its write-back is posted to memory, its L1 copies are invalidated without
     * a wait, and the fetch starts into its way immediately (GPGPU-Sim's L2, whose write-backs go out through the
     * miss queue while the fill is allocated at miss time), instead of the conventional order invalidate, write back and
     * acknowledge, then fetch (seed 003 M6). Ignored with fetch buffers or a victim cache. Since api.policy 1.6.0.
     */
    default boolean postsWriteBacks() { return false; }
}
