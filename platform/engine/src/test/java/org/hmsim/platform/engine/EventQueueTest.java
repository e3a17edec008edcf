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
}
