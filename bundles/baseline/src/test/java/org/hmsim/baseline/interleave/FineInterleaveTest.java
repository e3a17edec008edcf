package org.hmsim.baseline.interleave;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

class FineInterleaveTest {
    private static InterleavePolicy create(Map<String, ?> params) {
        FineInterleaveProvider p = new FineInterleaveProvider();
        assertEquals(Slot.INTERLEAVE, p.slot());
        assertEquals("fine", p.name());
        return (InterleavePolicy) p.create(null, Params.validate(p.parameters(), params));
    }

    @Test
    void consecutiveBlocksGoToConsecutiveChannels() {
        InterleavePolicy il = create(Map.of());
        for (int i = 0; i < 64; i++) {
            assertEquals(i % 8, il.channel(i * 256L, 0, 8));
            assertEquals(i % 8, il.channel(i * 256L + 255, 0, 8), "same 256 B block, same channel");
        }
    }

    @Test
    void channelAddressIsABijectionWithoutHoles() {
        for (int channels : new int[]{1, 3, 4, 8}) {
            InterleavePolicy il = create(Map.of("granularity", "128B"));
            Set<Long> seen = new HashSet<>();
            long max = 0;
            for (long a = 0; a < 128L * 96; a += 32) {
                int c = il.channel(a, 0, channels);
                assertEquals((a / 128) % channels, c, "128 B blocks on consecutive channels: address " + a);
                long ca = il.channelAddress(a, 0, channels);
                assertTrue(seen.add(ca * channels + c), "two addresses share channel " + c + " address " + ca);
                max = Math.max(max, ca);
            }
            assertEquals(128L * 96 / channels - 32, max, "each channel's addresses are dense (" + channels + " channels)");
        }
    }

    /** The power-of-two path (a mask and a shift) answers as the division, on any 64-bit address. */
    @Test
    void powerOfTwoChannelCountsGiveTheDivisionsAnswers() {
        InterleavePolicy il = create(Map.of("granularity", "256B"));
        java.util.SplittableRandom random = new java.util.SplittableRandom(3);
        for (int channels : new int[]{1, 2, 4, 8, 16, 32, 6, 12}) {
            for (int i = 0; i < 100_000; i++) {
                long a = i % 2 == 0 ? random.nextLong() : random.nextLong(1L << 40);
                long block = a >>> 8;
                assertEquals((int) Long.remainderUnsigned(block, channels), il.channel(a, 0, channels));
                assertEquals((Long.divideUnsigned(block, channels) << 8) | (a & 255), il.channelAddress(a, 0, channels));
            }
        }
    }

    /** A granularity under the line sent every line to the channel of its first byte: 32 B on four channels used one (a DRAM trial). */
    @Test
    void aGranularityUnderTheLineIsRefusedWhereTheLineIsKnown() {
        FineInterleaveProvider p = new FineInterleaveProvider();
        java.util.function.Function<Integer, org.hmsim.api.policy.RunFacts> facts = line -> new org.hmsim.api.policy.RunFacts(java.util.List.of(),
                4096, 1, false, false, java.util.List.of(), 1, false, 16, 8, 48, line);
        Params g32 = Params.validate(p.parameters(), Map.of("granularity", "32B"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.check(g32, facts.apply(128)));
        assertEquals("granularity 32 B is under the L2 line (128 B): a line's request goes whole to the one of its first byte, so 3 in 4 channels"
                + " would get nothing; give at least 128", e.getMessage());
        p.check(Params.validate(p.parameters(), Map.of("granularity", "128B")), facts.apply(128));
        p.check(g32, facts.apply(0)); // the line unknown: passes
    }

    @Test
    void granularityMustBeAPowerOfTwoOfAtLeast32() {
        assertThrows(IllegalArgumentException.class, () -> create(Map.of("granularity", 384)));
        assertThrows(IllegalArgumentException.class, () -> create(Map.of("granularity", 16)));
        // a granularity accepted is the one used: 4 KB blocks, not the default 256 B
        InterleavePolicy il = create(Map.of("granularity", "4KB"));
        assertEquals(0, il.channel(4095, 0, 4), "the first 4 KB on channel 0");
        assertEquals(1, il.channel(4096, 0, 4), "the next 4 KB on channel 1");
        assertEquals(0, il.channel(4 * 4096, 0, 4), "the fifth 4 KB block wraps to channel 0");
        assertEquals(4096 + 300, il.channelAddress(5 * 4096 + 300, 0, 4), "channel 1's second block");
    }
}
