package org.hmsim.api.policy;

/**
 * How an L2 bank handles a miss. {@code conventional}: the victim line is locked at once; its write-back
 * and the fetch proceed for that way, and a set whose ways are all locked stalls further misses.
 * A fetch-buffer design (FRC, seed 003) starts the fetch into a separate buffer while the victim stays
 * valid and can still hit.
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
}
