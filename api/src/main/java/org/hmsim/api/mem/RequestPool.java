package org.hmsim.api.mem;

/**
 * A free list of {@link MemRequest}s, so that the steady state of a simulation allocates no requests.
 * One pool per simulation (not thread-safe).
 */
public final class RequestPool {
    private MemRequest[] free = new MemRequest[256];
    private int size;
    private long nextId;
    private long created;

    /** A cleared request with a fresh id. */
    public MemRequest take() {
        MemRequest r;
        if (size > 0) {
            r = free[--size];
            free[size] = null;
        } else {
            r = new MemRequest();
            created++;
        }
        r.clear();
        r.id = nextId++;
        return r;
    }

    /** Returns a request that nobody references any more. */
    public void give(MemRequest r) {
        if (size == free.length) free = java.util.Arrays.copyOf(free, size * 2);
        free[size++] = r;
    }

    /** Requests ever allocated (not reused): a leak shows as this growing with the run. */
    public long allocated() { return created; }

    /** Requests issued (ids handed out). */
    public long issued() { return nextId; }
}
