package org.hmsim.platform.engine;

import java.util.Arrays;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;

/**
 * The single-threaded discrete-event loop. Pending events live in slot arrays (target, kind, payload,
 * sequence number) recycled through a free list; a 4-ary min-heap of (time, slot) orders them by time,
 * then by sequence number, so events at the same time run in the order they were scheduled and every
 * run is deterministic. Sifting moves only a {@code long} and an {@code int} per level, and nothing is
 * allocated once the arrays have grown to the run's peak number of pending events.
 */
public final class EventQueue implements Engine {
    private static final int INITIAL = 1024;

    // heap: time and slot of each position
    private long[] heapTime = new long[INITIAL];
    private int[] heapSlot = new int[INITIAL];
    private int size;

    // slots: the event itself
    private EventTarget[] target = new EventTarget[INITIAL];
    private int[] kind = new int[INITIAL];
    private long[] payload = new long[INITIAL];
    private long[] seq = new long[INITIAL];
    private int[] freeSlots = new int[INITIAL];
    private int freeCount;
    private int slotsUsed;

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
        int slot = allocSlot();
        target[slot] = t;
        kind[slot] = k;
        payload[slot] = p;
        long s = nextSeq++;
        seq[slot] = s;
        if (size == heapTime.length) {
            heapTime = Arrays.copyOf(heapTime, size * 2);
            heapSlot = Arrays.copyOf(heapSlot, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = heapTime[parent];
            if (pt < timePs || (pt == timePs && seq[heapSlot[parent]] < s)) break;
            heapTime[i] = pt;
            heapSlot[i] = heapSlot[parent];
            i = parent;
        }
        heapTime[i] = timePs;
        heapSlot[i] = slot;
    }

    /** Runs events until none is left, {@link #stop()} is called, or time would pass {@code untilPs}. */
    public void run(long untilPs) {
        stopRequested = false;
        while (size > 0 && !stopRequested) {
            if (heapTime[0] > untilPs) return;
            step();
        }
    }

    public void run() { run(Long.MAX_VALUE); }

    /** Handles the earliest event. */
    public void step() {
        long t = heapTime[0];
        int slot = heapSlot[0];
        EventTarget tg = target[slot];
        int k = kind[slot];
        long p = payload[slot];
        target[slot] = null;
        freeSlots[freeCount++] = slot;
        removeTop();
        now = t;
        handled++;
        tg.handle(k, p);
    }

    /** Time of the earliest pending event, or Long.MAX_VALUE. */
    public long peekTime() { return size == 0 ? Long.MAX_VALUE : heapTime[0]; }

    public void stop() { stopRequested = true; }

    private int allocSlot() {
        if (freeCount > 0) return freeSlots[--freeCount];
        if (slotsUsed == target.length) {
            int n = target.length * 2;
            target = Arrays.copyOf(target, n);
            kind = Arrays.copyOf(kind, n);
            payload = Arrays.copyOf(payload, n);
            seq = Arrays.copyOf(seq, n);
            freeSlots = Arrays.copyOf(freeSlots, n);
        }
        return slotsUsed++;
    }

    private void removeTop() {
        int last = --size;
        if (last == 0) return;
        long lt = heapTime[last];
        int ls = heapSlot[last];
        long lseq = seq[ls];
        int i = 0;
        while (true) {
            int c = 4 * i + 1;
            if (c >= last) break;
            int best = c;
            long bt = heapTime[c];
            int end = Math.min(c + 4, last);
            for (int j = c + 1; j < end; j++) {
                long jt = heapTime[j];
                if (jt < bt || (jt == bt && seq[heapSlot[j]] < seq[heapSlot[best]])) {
                    best = j;
                    bt = jt;
                }
            }
            if (lt < bt || (lt == bt && lseq < seq[heapSlot[best]])) break;
            heapTime[i] = bt;
            heapSlot[i] = heapSlot[best];
            i = best;
        }
        heapTime[i] = lt;
        heapSlot[i] = ls;
    }
}
