package org.hmsim.platform.engine;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EventQueueTest {

    @Test
    void eventsRunInTimeOrderAndTiesInSchedulingOrder() {
        EventQueue q = new EventQueue();
        List<Long> seen = new ArrayList<>();
        Random rnd = new Random(1);
        for (int i = 0; i < 5000; i++) {
            long t = rnd.nextInt(100) * 10L;
            long id = i;
            q.schedule(t, (k, p) -> seen.add(p), 0, t * 100_000 + id);
        }
        q.run();
        assertEquals(5000, seen.size());
        for (int i = 1; i < seen.size(); i++) {
            long a = seen.get(i - 1), b = seen.get(i);
            assertTrue(a < b, "order broken at " + i + ": " + a + " then " + b);
        }
        assertEquals(5000, q.eventsHandled());
    }

    @Test
    void handlersMayScheduleMoreAndTimeAdvances() {
        EventQueue q = new EventQueue();
        long[] count = {0};
        q.schedule(0, new org.hmsim.api.engine.EventTarget() {
            @Override
            public void handle(int kind, long payload) {
                count[0]++;
                if (payload < 99) q.scheduleIn(7, this, kind, payload + 1);
            }
        }, 0, 0);
        q.run();
        assertEquals(100, count[0]);
        assertEquals(99 * 7, q.now());
    }

    @Test
    void schedulingInThePastIsRejected() {
        EventQueue q = new EventQueue();
        q.schedule(10, (k, p) -> {}, 0, 0);
        q.run();
        assertThrows(IllegalStateException.class, () -> q.schedule(5, (k, p) -> {}, 0, 0));
    }

    @Test
    void runStopsAtTheBound() {
        EventQueue q = new EventQueue();
        q.schedule(10, (k, p) -> {}, 0, 0);
        q.schedule(30, (k, p) -> {}, 0, 0);
        q.run(20);
        assertEquals(1, q.eventsHandled());
        assertEquals(30, q.peekTime());
    }

    /**
     * Many distinct times (the time table grows and shifts entries on removal) and handlers that
     * schedule at the current time and in the future: the order must equal a reference sort by
     * (time, scheduling order).
     */
    @Test
    void orderMatchesReferenceUnderChurn() {
        EventQueue q = new EventQueue();
        Random rnd = new Random(7);
        List<long[]> ran = new ArrayList<>();
        long[] seq = {0};
        java.util.PriorityQueue<long[]> ref = new java.util.PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        org.hmsim.api.engine.EventTarget[] self = new org.hmsim.api.engine.EventTarget[1];
        self[0] = (k, p) -> {
            ran.add(new long[] {q.now(), p});
            if (seq[0] < 200_000) {
                int n = rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    long t = q.now() + (rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(5000));
                    long s = seq[0]++;
                    ref.add(new long[] {t, s});
                    q.schedule(t, self[0], 0, s);
                }
            }
        };
        for (int i = 0; i < 3000; i++) {
            long t = rnd.nextInt(3000);
            long s = seq[0]++;
            ref.add(new long[] {t, s});
            q.schedule(t, self[0], 0, s);
        }
        q.run();
        assertEquals(ref.size(), ran.size());
        for (long[] e : ran) {
            long[] want = ref.poll();
            assertEquals(want[0], e[0]);
            assertEquals(want[1], e[1]);
        }
    }

    /**
     * Times spread over many horizons of the calendar wheel (events far ahead wait in the overflow heap
     * and move into the wheel as it advances): a time first scheduled while beyond the horizon and later
     * again from inside it must keep scheduling order, and so must everything else.
     */
    @Test
    void orderMatchesReferenceAcrossTheHorizon() {
        EventQueue q = new EventQueue();
        Random rnd = new Random(11);
        List<long[]> ran = new ArrayList<>();
        long[] seq = {0};
        long horizon = EventQueue.BUCKETS * EventQueue.BUCKET_PS;
        java.util.PriorityQueue<long[]> ref = new java.util.PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        org.hmsim.api.engine.EventTarget[] self = new org.hmsim.api.engine.EventTarget[1];
        self[0] = (k, p) -> {
            ran.add(new long[] {q.now(), p});
            if (seq[0] < 100_000) {
                int n = rnd.nextInt(3);
                for (int i = 0; i < n; i++) {
                    long d = switch (rnd.nextInt(5)) {
                        case 0 -> 0;
                        case 1 -> rnd.nextInt(300);
                        case 2 -> horizon - 64 + rnd.nextInt(128); // around the horizon's edge
                        case 3 -> rnd.nextInt(4) * horizon; // exact multiples: same time via both paths
                        default -> rnd.nextInt((int) (3 * horizon));
                    };
                    // round to a few times so that ties are common
                    long t = q.now() + d - (d % 100);
                    long s = seq[0]++;
                    ref.add(new long[] {t, s});
                    q.schedule(t, self[0], 0, s);
                }
            }
        };
        for (int i = 0; i < 2000; i++) {
            long t = rnd.nextInt(20) * horizon / 3;
            long s = seq[0]++;
            ref.add(new long[] {t, s});
            q.schedule(t, self[0], 0, s);
        }
        q.run();
        assertEquals(ref.size(), ran.size());
        for (long[] e : ran) {
            long[] want = ref.poll();
            assertEquals(want[0], e[0]);
            assertEquals(want[1], e[1]);
        }
    }

    /** Stopping before a far event must not move the wheel past now: an earlier event may still come. */
    @Test
    void runBoundLeavesRoomForEarlierEvents() {
        EventQueue q = new EventQueue();
        List<Long> seen = new ArrayList<>();
        q.schedule(5, (k, p) -> seen.add(p), 0, 1);
        q.schedule(10_000_000, (k, p) -> seen.add(p), 0, 3);
        q.run(1_000);
        assertEquals(10_000_000, q.peekTime());
        q.schedule(2_000, (k, p) -> seen.add(p), 0, 2);
        q.schedule(10_000_000, (k, p) -> seen.add(p), 0, 4);
        q.run();
        assertEquals(List.of(1L, 2L, 3L, 4L), seen);
        assertEquals(10_000_000, q.now());
    }
}
