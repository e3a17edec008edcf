package org.hmsim.api.mem;

/** What a memory request does. */
public enum AccessKind {
    /** A load: data returns to the requester. */
    READ,
    /** A store: carries data, acknowledged to the requester. */
    WRITE,
    /** A read-modify-write performed at the point of coherence. */
    ATOMIC,
    /** A dirty line evicted from a cache towards memory; no requester waits for it. */
    WRITEBACK;

    public boolean carriesData() { return this == WRITE || this == WRITEBACK || this == ATOMIC; }
}
