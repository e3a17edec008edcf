package org.hmsim.platform.engine;

import java.util.Arrays;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;

/**
 * The single-threaded discrete-event loop: a binary min-heap on (time, sequence) kept in parallel
 * primitive arrays, so scheduling and dispatch allocate nothing once the arrays have grown to the run's
 * peak event count. Ties in time run in scheduling order, which makes every run deterministic.
 */
public final class EventQueue implements Engine {
    private long[] time = new long[1024];
    private long[] seq = new long[1024];
    private long[] payload = new long[1024];
    private int[] kind = new int[1024];
    private EventTarget[] target = new EventTarget[1024];
    private int size;
    private long nextSeq;
    private long now;
    private long handled;
    private boolean stopRequested;

    @Override
    public long now() { return now; }

    @Override
    public long eventsHandled() { return handled; }

    public int pending() { return size; }

    public boolean isEmpty() { return size == 0; }

    @Override
    public void schedule(long timePs, EventTarget t, int k, long p) {
        if (timePs < now) throw new IllegalStateException("event scheduled in the past: " + timePs + " < now " + now);
        if (size == time.length) grow();
        int i = size++;
        long s = nextSeq++;
        // sift up
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!less(timePs, s, time[parent], seq[parent])) break;
            move(parent, i);
            i = parent;
        }
        time[i] = timePs;
        seq[i] = s;
        payload[i] = p;
        kind[i] = k;
        target[i] = t;
    }

    /** Runs events until none is left, {@link #stop()} is called, or time would pass {@code untilPs}. */
    public void run(long untilPs) {
        stopRequested = false;
        while (size > 0 && !stopRequested) {
            if (time[0] > untilPs) return;
            step();
        }
    }

    public void run() { run(Long.MAX_VALUE); }

    /** Handles the earliest event. */
    public void step() {
        long t = time[0];
        EventTarget tg = target[0];
        int k = kind[0];
        long p = payload[0];
        removeTop();
        now = t;
        handled++;
        tg.handle(k, p);
    }

    /** Time of the earliest pending event, or Long.MAX_VALUE. */
    public long peekTime() { return size == 0 ? Long.MAX_VALUE : time[0]; }

    public void stop() { stopRequested = true; }

    private void removeTop() {
        int last = --size;
        long lt = time[last], ls = seq[last], lp = payload[last];
        int lk = kind[last];
        EventTarget ltg = target[last];
        target[last] = null;
        if (last == 0) return;
        int i = 0;
        int half = last >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            int r = c + 1;
            if (r < last && less(time[r], seq[r], time[c], seq[c])) c = r;
            if (!less(time[c], seq[c], lt, ls)) break;
            move(c, i);
            i = c;
        }
        time[i] = lt;
        seq[i] = ls;
        payload[i] = lp;
        kind[i] = lk;
        target[i] = ltg;
    }

    private static boolean less(long t1, long s1, long t2, long s2) {
        return t1 < t2 || (t1 == t2 && s1 < s2);
    }

    private void move(int from, int to) {
        time[to] = time[from];
        seq[to] = seq[from];
        payload[to] = payload[from];
        kind[to] = kind[from];
        target[to] = target[from];
    }

    private void grow() {
        int n = time.length * 2;
        time = Arrays.copyOf(time, n);
        seq = Arrays.copyOf(seq, n);
        payload = Arrays.copyOf(payload, n);
        kind = Arrays.copyOf(kind, n);
        target = Arrays.copyOf(target, n);
    }
}
