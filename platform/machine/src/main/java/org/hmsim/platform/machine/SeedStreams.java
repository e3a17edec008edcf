package org.hmsim.platform.machine;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * Named random streams derived from a run's seed. Each consumer (a policy, a workload generator) draws
 * from its own stream, so adding draws in one place never shifts another's numbers, and results do not
 * depend on thread count or on the order components were built.
 */
public final class SeedStreams {
    private SeedStreams() {}

    /** A generator for {@code name} under {@code seed}: a 64-bit FNV-1a of the name mixed into the seed. */
    public static SplittableRandom stream(long seed, String name) {
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return new SplittableRandom(mix(seed ^ mix(h)));
    }

    /** Stafford's variant 13 of the SplitMix64 finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
