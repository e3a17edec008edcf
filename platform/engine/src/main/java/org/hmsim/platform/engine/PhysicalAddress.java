package org.hmsim.platform.engine;

/**
 * The platform's physical address layout: the pool index sits above bit 40, so every component can tell
 * a request's home pool from its address alone, and each pool has up to 1 TB of frames.
 */
public final class PhysicalAddress {
    public static final int POOL_SHIFT = 40;
    private static final long OFFSET_MASK = (1L << POOL_SHIFT) - 1;

    private PhysicalAddress() {}

    public static int pool(long paddr) { return (int) (paddr >>> POOL_SHIFT); }

    public static long offset(long paddr) { return paddr & OFFSET_MASK; }

    public static long make(int pool, long offset) { return ((long) pool << POOL_SHIFT) | (offset & OFFSET_MASK); }
}
