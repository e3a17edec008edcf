package org.hmsim.baseline.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.junit.jupiter.api.Test;

class SchedulingTest {

    @Test
    void gtoKeepsIssuingTheSameWarpWhileReadyElseTheOldest() {
        WarpSchedulerPolicy.State s = new Gto().forSm(0, 0, 8);
        s.onWarpStart(3, 10);
        s.onWarpStart(5, 5);
        s.onWarpStart(1, 20);
        long all = (1 << 1) | (1 << 3) | (1 << 5);
        assertEquals(5, s.pick(all));              // oldest
        assertEquals(5, s.pick(all));              // greedy
        assertEquals(3, s.pick(all & ~(1 << 5)));  // 5 stalled: next oldest
        assertEquals(3, s.pick(all));              // greedy on 3 although 5 is ready again
        assertEquals(1, s.pick(1 << 1));
        s.onWarpStart(3, 30);                       // a new, younger warp reuses slot 3
        assertEquals(5, s.pick((1 << 3) | (1 << 5)));
    }

    @Test
    void lrrRotatesOverReadyWarps() {
        WarpSchedulerPolicy.State s = new Lrr().forSm(0, 0, 8);
        long ready = 0b1010_0110;
        int[] expect = {1, 2, 5, 7, 1, 2};
        for (int e : expect) assertEquals(e, s.pick(ready));
        assertEquals(5, s.pick(0b0010_0001)); // after 2: 5 (skipping 0 until it wraps)
        assertEquals(0, s.pick(0b0010_0001));
    }

    @Test
    void lrrHandlesSlot63() {
        WarpSchedulerPolicy.State s = new Lrr().forSm(0, 0, 64);
        assertEquals(63, s.pick(1L << 63));
        assertEquals(0, s.pick((1L << 63) | 1));
    }

    @Test
    void roundRobinCtasSkipFullSms() {
        RoundRobinCta p = new RoundRobinCta();
        List<? extends CoreView> four = java.util.Collections.nCopies(4, null); // the policy only reads canTake
        boolean[] room = {true, true, true, true};
        assertEquals(0, p.pickSm(0, 0, four, room));
        assertEquals(1, p.pickSm(0, 1, four, room));
        room[2] = false;
        assertEquals(3, p.pickSm(0, 2, four, room));
        assertEquals(0, p.pickSm(0, 3, four, room));
        assertEquals(-1, p.pickSm(0, 4, four, new boolean[4]));
    }
}
