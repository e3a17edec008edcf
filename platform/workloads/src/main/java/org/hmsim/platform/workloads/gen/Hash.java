package org.hmsim.platform.workloads.gen;

/**
 * Stateless seeded pseudo-random numbers: each value is a pure function of (seed, coordinates).
 * Warp programs use it instead of a shared generator so that a warp's stream does not depend on the
 * order in which the SMs create or run warps (determinism, DESIGN §3). SplitMix64 finaliser.
 */
public final class Hash {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private Hash() {}

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    public static long of(long seed, long a) { return mix(mix(seed) + GOLDEN * (a + 1)); }

    public static long of(long seed, long a, long b) { return of(of(seed, a), b); }

    public static long of(long seed, long a, long b, long c) { return of(of(of(seed, a), b), c); }

    /** A uniform double in [0, 1) from a hash value. */
    public static double unit(long h) { return (h >>> 11) * 0x1.0p-53; }

    /** A uniform integer in [0, n) from a hash value (n > 0). */
    public static long below(long h, long n) { return Math.floorMod(h >>> 1, n); }
}
