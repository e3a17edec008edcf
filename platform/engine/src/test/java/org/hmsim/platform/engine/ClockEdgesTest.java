package org.hmsim.platform.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The clock-edge arithmetic answers exactly as the division it replaces, on every period the presets use and beyond. */
class ClockEdgesTest {

    @Test
    void phaseAndAlignmentAreTheDivisionsOwn() {
        SplittableRandom random = new SplittableRandom(7);
        long[] periods = {1, 2, 3, 667, 714, 715, 833, 1058, 1082, 1429, 4_000_000_007L};
        for (long p : periods) {
            ClockEdges e = new ClockEdges(p);
            for (int i = 0; i < 200_000; i++) {
                long t = switch (i % 4) {
                    case 0 -> random.nextLong(1L << 40);
                    case 1 -> random.nextLong(1L << 52);
                    case 2 -> (random.nextLong(1L << 30)) * p + random.nextInt(3) - 1; // next to an edge
                    default -> (1L << 52) - 1 - random.nextLong(1_000_000);
                };
                if (t < 0) t = 0;
                assertEquals(t % p, e.phase(t), "phase of " + t + " at period " + p);
                long r = t % p;
                assertEquals(r == 0 ? t : t + p - r, e.alignUp(t), "edge after " + t + " at period " + p);
                assertEquals(r == 0, e.isEdge(t));
            }
            // beyond 2^52 ps the double's estimate can be off by more than a period (2^60 + 1 at period 3: 62, not 2),
            // so the division answers there
            for (int i = 0; i < 10_000; i++) {
                long late = (1L << 52) + random.nextLong(Long.MAX_VALUE - (1L << 52));
                assertEquals(late % p, e.phase(late), "phase of " + late + " at period " + p);
            }
            assertEquals(((1L << 60) + 1) % p, e.phase((1L << 60) + 1));
        }
    }

    @Test
    void aPeriodMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new ClockEdges(0));
    }
}
