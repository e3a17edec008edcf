package org.hmsim.platform.gpu.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongIntMapTest {

    /** Line addresses of one set-aliasing stride collide in the hash's low bits; removals must keep every other key findable. */
    @Test
    void agreesWithAHashMapUnderRandomPutsAndRemovesOfCollidingKeys() {
        LongIntMap map = new LongIntMap(64);
        Map<Long, Integer> ref = new HashMap<>();
        SplittableRandom rnd = new SplittableRandom(7);
        for (int step = 0; step < 200_000; step++) {
            long key = (rnd.nextInt(150) * 4096L) << rnd.nextInt(2); // few distinct keys, many sharing low bits
            int op = rnd.nextInt(3);
            if (op == 0 && (ref.size() < 64 || ref.containsKey(key))) {
                int v = rnd.nextInt(1 << 20);
                map.put(key, v);
                ref.put(key, v);
            } else if (op == 1) {
                map.remove(key);
                ref.remove(key);
            }
            assertEquals(ref.getOrDefault(key, -1), map.get(key), "step " + step + " key " + key);
            assertEquals(ref.size(), map.size(), "step " + step);
        }
        for (long k = 0; k < 150; k++)
            for (int s = 0; s < 2; s++) {
                long key = (k * 4096L) << s;
                assertEquals(ref.getOrDefault(key, -1), map.get(key), "key " + key);
            }
    }

    @Test
    void refusesMoreThanThreeQuartersOfItsSlotsAndNegativeValues() {
        LongIntMap map = new LongIntMap(2); // 8 slots
        for (int i = 0; i < 6; i++) map.put(i, i);
        assertThrows(IllegalStateException.class, () -> map.put(99, 1));
        map.put(3, 30); // replacing a key takes no slot
        assertEquals(30, map.get(3));
        assertThrows(IllegalArgumentException.class, () -> map.put(100, -1));
    }
}
