package org.hmsim.platform.gpu.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The FRC's entry bookkeeping (seed 003 §M7): a set-associative array whose sets each hold {@code ways} entries. The L2
 * asks {@link FetchReplacementCache#allocate} for an entry at every miss and takes the conventional path on -1, so an
 * entry lost or handed out twice changes every FRC result without failing anything else (a mutation review lost one
 * entry per set unnoticed). These tests pin the contract the class states: set = line number mod sets, one fully
 * associative set for {@code ways} 0 or >= entries, -1 exactly when the line's set is full, and a freed entry usable again.
 */
class FetchReplacementCacheTest {
    private static final int LINE = 128;

    /** The line address of line number {@code n}. */
    private static long line(long n) { return n * LINE; }

    @Test
    void aFullyAssociativeFrcHandsOutEachOfItsEntriesOnceThenRefusesUntilOneIsFreed() {
        FetchReplacementCache frc = new FetchReplacementCache(4, 4, LINE);
        assertEquals(1, frc.sets);
        assertEquals(4, frc.ways);
        Set<Integer> held = new HashSet<>();
        for (int k = 0; k < 4; k++) {
            assertTrue(frc.hasFree(line(k)), "entry " + k + " of 4 not free");
            int e = frc.allocate(line(k));
            assertTrue(e >= 0 && e < 4, "entry out of range: " + e);
            assertTrue(held.add(e), "entry " + e + " handed out twice");
            assertEquals(k + 1, frc.busy());
        }
        // the fifth miss finds the set full: the L2 takes the conventional path
        assertFalse(frc.hasFree(line(4)));
        assertEquals(-1, frc.allocate(line(4)));
        assertEquals(4, frc.busy(), "a refused allocation counted as busy");
        // an entry whose victim has left is free again, and only that one
        int freed = held.iterator().next();
        frc.free(freed);
        held.remove(freed);
        assertEquals(3, frc.busy());
        assertTrue(frc.hasFree(line(5)));
        int again = frc.allocate(line(5));
        assertEquals(freed, again, "the only free entry is the one freed");
        assertEquals(-1, frc.allocate(line(6)));
        for (int e : held) frc.free(e);
        frc.free(again);
        assertEquals(0, frc.busy());
        for (int k = 0; k < 4; k++) assertTrue(frc.allocate(line(k)) >= 0, "after freeing all, entry " + k + " of 4 refused");
    }

    @Test
    void setsOfASetAssociativeFrcAreIndependent() {
        FetchReplacementCache frc = new FetchReplacementCache(64, 8, LINE); // 8 sets of 8
        assertEquals(8, frc.sets);
        assertEquals(8, frc.ways);
        // set = line number mod sets: every byte of a line, and lines a multiple of 8 lines apart, share a set
        assertEquals(frc.setOf(line(3)), frc.setOf(line(3) + LINE - 1));
        assertEquals(frc.setOf(line(3)), frc.setOf(line(3 + 8 * 1000)));
        assertNotEquals(frc.setOf(line(3)), frc.setOf(line(4)));
        // fill set 0 with eight lines of it
        Set<Integer> set0 = new HashSet<>();
        for (int k = 0; k < 8; k++) {
            int e = frc.allocate(line(8L * k));
            assertTrue(e >= 0, "entry " + k + " of set 0's 8 refused");
            assertEquals(0, e / frc.ways, "an entry of set 0 outside it: " + e); // free() finds an entry's set so
            assertTrue(set0.add(e), "entry " + e + " handed out twice");
        }
        assertEquals(-1, frc.allocate(line(64)), "a ninth line of set 0 got an entry");
        assertFalse(frc.hasFree(line(8 * 9)));
        // set 0 full leaves every other set untouched
        for (int s = 1; s < 8; s++) {
            assertTrue(frc.hasFree(line(s)), "set " + s + " not free while set 0 is full");
            int e = frc.allocate(line(s));
            assertEquals(s, e / frc.ways, "line of set " + s + " got entry " + e);
        }
        assertEquals(15, frc.busy());
        // freeing an entry of set 1 does not give set 0 room, freeing one of set 0 does
        int e1 = frc.allocate(line(9)); // a second entry of set 1
        assertEquals(1, e1 / frc.ways);
        frc.free(e1);
        assertEquals(-1, frc.allocate(line(8 * 3)), "set 0 got room from set 1's entry");
        for (int e0 : set0) { // each entry of set 0, freed, is set 0's again (and no other set's)
            frc.free(e0);
            assertEquals(e0, frc.allocate(line(8 * 5)), "freed entry " + e0 + " of set 0 not given back to it");
        }
    }

    @Test
    void everyEntryOfEverySetIsUsableAndComesBackFreed() {
        FetchReplacementCache frc = new FetchReplacementCache(64, 8, LINE);
        Set<Integer> all = new HashSet<>();
        for (int n = 0; n < 64; n++) {
            int e = frc.allocate(line(n));
            assertTrue(e >= 0, "line " + n + " refused with its set not full");
            assertEquals(frc.setOf(line(n)), e / frc.ways);
            all.add(e);
        }
        assertEquals(64, all.size(), "entries handed out twice");
        assertEquals(64, frc.busy());
        for (int n = 64; n < 72; n++) assertEquals(-1, frc.allocate(line(n)), "a full FRC gave line " + n + " an entry");
        for (int e : all) frc.free(e);
        assertEquals(0, frc.busy());
        for (int n = 0; n < 64; n++) {
            int e = frc.allocate(line(n + 1000));
            assertTrue(e >= 0, "a freed entry was lost");
            assertEquals(frc.setOf(line(n + 1000)), e / frc.ways, "a freed entry went back to another set: " + e);
        }
    }

    @Test
    void geometry() {
        // ways 0 or >= entries: one fully associative set
        for (int ways : new int[] {0, -1, 8, 16}) {
            FetchReplacementCache frc = new FetchReplacementCache(8, ways, LINE);
            assertEquals(1, frc.sets, "ways " + ways);
            assertEquals(8, frc.ways, "ways " + ways);
        }
        assertEquals(16, new FetchReplacementCache(512, 32, LINE).sets);
        // the index is taken unsigned: an address with the top bit set still names a set
        FetchReplacementCache frc = new FetchReplacementCache(48, 8, LINE); // 6 sets, not a power of two
        for (long a : new long[] {-LINE, Long.MIN_VALUE, 0x8000_0000_0000_0080L}) {
            int s = frc.setOf(a);
            assertTrue(s >= 0 && s < 6, "set " + s + " of 0x" + Long.toHexString(a));
            assertEquals(s, frc.allocate(a) / frc.ways);
        }
        assertThrows(IllegalArgumentException.class, () -> new FetchReplacementCache(0, 8, LINE));
        assertThrows(IllegalArgumentException.class, () -> new FetchReplacementCache(12, 8, LINE), "12 entries are not sets of 8");
    }
}
