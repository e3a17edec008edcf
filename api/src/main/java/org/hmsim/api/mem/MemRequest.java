package org.hmsim.api.mem;

/**
 * One memory transaction in flight between components. Requests are pooled and reused (see
 * {@link RequestPool}): a component must not keep a reference after it has returned the request to its
 * pool or handed it on. Fields are public and mutable on purpose: this object is on the hot path.
 *
 * <p>A request travels downstream through {@link MemSink#tryAccept} and comes back through
 * {@link MemClient#onResponse} of {@link #replyTo}. A component that cannot serve a request itself
 * (a cache miss) issues its own request downstream with itself as {@code replyTo}, so every hop has one
 * requester.
 */
public final class MemRequest {
    /** Unique within a simulation; assigned by the pool. */
    public long id;
    public AccessKind kind = AccessKind.READ;
    /**
     * Virtual address (byte) as the program issued it; on a GPU L1's line requests to the L2, the line's virtual address
     * (so an L2 policy can tell the allocation or page, since 2026-11-29); -1 where there is none (write-backs, a cache's
     * own requests to memory).
     */
    public long vaddr = -1;
    /** Physical address (byte) once translated. */
    public long paddr = -1;
    /** Bytes moved: 32 for a sector, 128 for a line, 4096 for a page copy. */
    public int size;
    /** For line requests: which 32 B sectors of the 128 B line are wanted (bit i = sector i). */
    public int sectorMask;
    /** Index of the memory pool that holds {@link #paddr}. */
    public int pool = -1;
    /** Where the request came from: GPU index, SM index, warp slot (or -1). */
    public int gpu = -1, sm = -1, warp = -1;
    /** Simulated time at which the request was created, ps. */
    public long createdPs;
    /** Who is waiting for the answer (null for fire-and-forget write-backs). */
    public MemClient replyTo;
    /** A slot for the requester's own bookkeeping (an MSHR index, a warp id…). */
    public long tag;
    /** Set by a component that refuses the request for good (a NACK); the requester retries. */
    public boolean nacked;

    /** Line address for a line of {@code lineBytes} (a power of two). */
    public long line(int lineBytes) { return paddr & ~((long) lineBytes - 1); }

    /** Resets every field but {@link #id}; called by the pool. */
    public void clear() {
        kind = AccessKind.READ;
        vaddr = -1;
        paddr = -1;
        size = 0;
        sectorMask = 0;
        pool = -1;
        gpu = sm = warp = -1;
        createdPs = 0;
        replyTo = null;
        tag = 0;
        nacked = false;
    }

    @Override
    public String toString() {
        return "MemRequest#" + id + "{" + kind + " pa=0x" + Long.toHexString(paddr) + " size=" + size + " pool=" + pool + " sm=" + sm + "}";
    }
}
