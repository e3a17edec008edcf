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

    /** A free frame number, or -1 if the pool is full. */
    long allocate() {
        if (nFreed > 0) return freed[--nFreed];
        if (bump < total) return bump++;
        return -1;
    }

    void release(long frame) {
        if (nFreed == freed.length) freed = java.util.Arrays.copyOf(freed, nFreed * 2);
        freed[nFreed++] = frame;
    }

    long free() { return total - bump + nFreed; }

    long total() { return total; }
}
