package org.hmsim.platform.memory.os;

/**
 * Physical frames of one pool: a bump pointer over never-used frames plus a LIFO free list of
 * released ones (reused first), so allocation order is deterministic.
 */
final class FrameAllocator {
    private final long total;
    private long bump;
    private long[] freed = new long[64];
    private int nFreed;

    FrameAllocator(long total) { this.total = total; }

    /**
     * A free frame number, or -1 if the pool is full; a never-used one only below {@code ceiling} (a frame mapper holds
     * those above; {@code Long.MAX_VALUE} without one).
     */
    long allocate(long ceiling) {
        if (nFreed > 0) return freed[--nFreed];
        if (bump < Math.min(total, ceiling)) return bump++;
        return -1;
    }

    /** Frames below this one may have been handed out (never-used frames start here). */
    long bump() { return bump; }

    void release(long frame) {
        if (nFreed == freed.length) freed = java.util.Arrays.copyOf(freed, nFreed * 2);
        freed[nFreed++] = frame;
    }

    /** Free frames when a frame mapper holds those from {@code ceiling} up (its released ones are in the free list). */
    long free(long ceiling) { return Math.max(0, Math.min(total, ceiling) - bump) + nFreed; }

    long total() { return total; }
}
