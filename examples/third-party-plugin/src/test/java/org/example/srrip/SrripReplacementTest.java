package org.example.srrip;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SrripReplacementTest {
    @Test
    void aLineHitAfterItsFillOutlivesLinesNeverReused() {
        SrripReplacement.Rrpv s = new SrripReplacement.Rrpv(2, 4, (byte) 3);
        for (int w = 0; w < 4; w++) s.onFill(1, w);
        s.onHit(1, 2);
        int v = s.victim(1, 0b1111);
        assertEquals(0, v, "the first line predicted distant (after ageing) goes; the reused one stays");
        assertEquals(3, s.rrpv(1, 1), "the others aged to distant");
        assertEquals(1, s.rrpv(1, 2), "the hit line aged by one from near");
    }

    @Test
    void onlyCandidatesAreChosenAndAged() {
        SrripReplacement.Rrpv s = new SrripReplacement.Rrpv(1, 4, (byte) 3);
        for (int w = 0; w < 4; w++) s.onFill(0, w);
        s.onHit(0, 3);
        assertEquals(3, s.victim(0, 0b1000), "a locked set offers one way");
        assertEquals(2, s.rrpv(0, 0), "non-candidates untouched");
    }
}
