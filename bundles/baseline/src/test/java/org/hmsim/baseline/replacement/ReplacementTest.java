package org.hmsim.baseline.replacement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.hmsim.api.policy.ReplacementPolicy;
import org.junit.jupiter.api.Test;

class ReplacementTest {

    @Test
    void lruEvictsTheLeastRecentlyUsedWay() {
        ReplacementPolicy.State s = new Lru().forCache("l1", 2, 4);
        for (int w = 0; w < 4; w++) s.onFill(1, w);
        s.onHit(1, 0);
        s.onHit(1, 2);
        assertEquals(1, s.victim(1, 0b1111));
        s.onHit(1, 1);
        assertEquals(3, s.victim(1, 0b1111));
        // only candidates count: way 3 is locked
        assertEquals(0, s.victim(1, 0b0111));
    }

    @Test
    void lruKeepsSetsApart() {
        ReplacementPolicy.State s = new Lru().forCache("l2", 2, 2);
        s.onFill(0, 0);
        s.onFill(1, 1);
        s.onFill(1, 0);
        s.onFill(0, 1);
        assertEquals(0, s.victim(0, 0b11));
        assertEquals(1, s.victim(1, 0b11));
    }

    @Test
    void randomPicksOnlyCandidatesAndIsDeterministic() {
        RandomReplacement a = new RandomReplacement(name -> new SplittableRandom(name.hashCode()));
        RandomReplacement b = new RandomReplacement(name -> new SplittableRandom(name.hashCode()));
        ReplacementPolicy.State sa = a.forCache("gpu0.l2.slice0", 4, 8), sb = b.forCache("gpu0.l2.slice0", 4, 8);
        int[] seen = new int[8];
        for (int i = 0; i < 2000; i++) {
            int va = sa.victim(0, 0b1011_0110);
            assertEquals(va, sb.victim(0, 0b1011_0110));
            assertTrue((0b1011_0110 & (1 << va)) != 0, "way " + va + " is not a candidate");
            seen[va]++;
        }
        for (int w : new int[] {1, 2, 4, 5, 7}) assertTrue(seen[w] > 300, "way " + w + " drawn " + seen[w] + " times");
        assertEquals(3, sa.victim(2, 1L << 3));
    }

    @Test
    void randomStreamsDifferPerCache() {
        RandomReplacement r = new RandomReplacement(name -> new SplittableRandom(name.hashCode()));
        ReplacementPolicy.State x = r.forCache("a", 1, 64), y = r.forCache("b", 1, 64);
        StringBuilder sx = new StringBuilder(), sy = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            sx.append(x.victim(0, -1L)).append(',');
            sy.append(y.victim(0, -1L)).append(',');
        }
        assertNotEquals(sx.toString(), sy.toString());
    }
}
