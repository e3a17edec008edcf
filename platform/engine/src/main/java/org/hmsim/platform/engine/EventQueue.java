package org.hmsim.platform.engine;

import java.util.Arrays;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;

/**
 * The single-threaded discrete-event loop: events run in order of time, and events at the same time in
 * the order they were scheduled, so every run is deterministic.
 *
 * <p>Why it is built like this (it is the innermost loop of every simulation). Simulated components are
 * clocked, so pending events pile up on few distinct times (every SM ticking on the same GPU cycle, a
 * crossbar delivery on that cycle, ...). A heap over events then spends its time breaking ties. Here the
 * events of one time form a FIFO (scheduling order is the tie order, so no sequence number is needed), a
 * small open-addressing table finds the FIFO of a time, and a 4-ary min-heap orders only the distinct
 * times, with no ties at all. Events live in slot arrays (target, kind, payload, next-in-FIFO) recycled
 * through a free list; nothing is allocated once the arrays have grown to the run's peak.
 */
public final class EventQueue implements Engine {
    private static final int INITIAL = 1024;
    private static final int NONE = -1;

    // events: slot arrays; next links a time's FIFO, or the free list
    private EventTarget[] target = new EventTarget[INITIAL];
    private int[] kind = new int[INITIAL];
    private long[] payload = new long[INITIAL];
    private int[] next = new int[INITIAL];
    private int freeHead = NONE;
    private int slotsUsed;
    private int size;

    // distinct pending times: open-addressing table time -> FIFO (head, tail slot); head NONE = empty entry
    private long[] tTime = new long[INITIAL];
    private int[] tHead = new int[INITIAL], tTail = new int[INITIAL];
    private int tShift = 64 - Integer.numberOfTrailingZeros(INITIAL);
    private int tCount;
    /**
     * The last time looked up and its entry: bursts of events share a time (schedules from one handler,
     * pops at one instant). Inserting never moves an entry; removal and growth may, so they clear it.
     */
    private long cachedTime = -1;
    private int cachedEntry;

    // 4-ary min-heap of the distinct times
    private long[] heap = new long[INITIAL];
    private int heapSize;

    private long now;
    private long handled;
    private boolean stopRequested;

    public EventQueue() { Arrays.fill(tHead, NONE); }

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
        next[slot] = NONE;
        size++;
        int e = entry(timePs);
        if (tHead[e] == NONE) {
            tTime[e] = timePs;
            tHead[e] = slot;
            tTail[e] = slot;
            tCount++;
            heapPush(timePs);
            if (2 * tCount > tHead.length) growTable();
        } else {
            next[tTail[e]] = slot;
            tTail[e] = slot;
        }
    }

    /** Runs events until none is left, {@link #stop()} is called, or time would pass {@code untilPs}. */
    public void run(long untilPs) {
        stopRequested = false;
        while (size > 0 && !stopRequested) {
            if (heap[0] > untilPs) return;
            step();
        }
    }

    public void run() { run(Long.MAX_VALUE); }

    /** Handles the earliest event. */
    public void step() {
        long t = heap[0];
        int e = entry(t);
        int slot = tHead[e];
        int after = next[slot];
        if (after == NONE) {
            removeEntry(e);
            heapPop();
        } else {
            tHead[e] = after;
        }
        EventTarget tg = target[slot];
        int k = kind[slot];
        long p = payload[slot];
        target[slot] = null;
        next[slot] = freeHead;
        freeHead = slot;
        size--;
        now = t;
        handled++;
        tg.handle(k, p);
    }

    /** Time of the earliest pending event, or Long.MAX_VALUE. */
    public long peekTime() { return size == 0 ? Long.MAX_VALUE : heap[0]; }

    public void stop() { stopRequested = true; }

    // ---------------------------------------------------------------- event slots

    private int allocSlot() {
        int s = freeHead;
        if (s != NONE) {
            freeHead = next[s];
            return s;
        }
        if (slotsUsed == target.length) {
            int n = target.length * 2;
            target = Arrays.copyOf(target, n);
            kind = Arrays.copyOf(kind, n);
            payload = Arrays.copyOf(payload, n);
            next = Arrays.copyOf(next, n);
        }
        return slotsUsed++;
    }

    // ---------------------------------------------------------------- time table

    private int home(long time) { return (int) ((time * 0x9E3779B97F4A7C15L) >>> tShift); }

    /** The entry holding {@code time}, or the empty entry where it would go. */
    private int entry(long time) {
        if (time == cachedTime) return cachedEntry;
        int mask = tHead.length - 1;
        int i = home(time);
        while (tHead[i] != NONE && tTime[i] != time) i = (i + 1) & mask;
        cachedTime = time;
        cachedEntry = i;
        return i;
    }

    /** Linear probing with backward-shift deletion: no tombstones, so probe chains stay short. */
    private void removeEntry(int hole) {
        int mask = tHead.length - 1;
        tCount--;
        cachedTime = -1;
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (tHead[i] == NONE) break;
            int h = home(tTime[i]);
            boolean between = hole <= i ? (h > hole && h <= i) : (h > hole || h <= i);
            if (!between) {
                tTime[hole] = tTime[i];
                tHead[hole] = tHead[i];
                tTail[hole] = tTail[i];
                hole = i;
            }
        }
        tHead[hole] = NONE;
    }

    private void growTable() {
        long[] oldTime = tTime;
        int[] oldHead = tHead, oldTail = tTail;
        int n = oldHead.length * 2;
        tTime = new long[n];
        tHead = new int[n];
        tTail = new int[n];
        Arrays.fill(tHead, NONE);
        tShift--;
        cachedTime = -1;
        for (int i = 0; i < oldHead.length; i++) {
            if (oldHead[i] == NONE) continue;
            int e = entry(oldTime[i]);
            tTime[e] = oldTime[i];
            tHead[e] = oldHead[i];
            tTail[e] = oldTail[i];
        }
    }

    // ---------------------------------------------------------------- heap of distinct times

    private void heapPush(long t) {
        if (heapSize == heap.length) heap = Arrays.copyOf(heap, heapSize * 2);
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = heap[parent];
            if (pt <= t) break;
            heap[i] = pt;
            i = parent;
        }
        heap[i] = t;
    }

    private void heapPop() {
        int last = --heapSize;
        if (last == 0) return;
        long lt = heap[last];
        int i = 0;
        while (true) {
            int c = 4 * i + 1;
            if (c >= last) break;
            int best = c;
            long bt = heap[c];
            int end = Math.min(c + 4, last);
            for (int j = c + 1; j < end; j++) {
                if (heap[j] < bt) {
                    best = j;
                    bt = heap[j];
                }
            }
            if (lt <= bt) break;
            heap[i] = bt;
            i = best;
        }
        heap[i] = lt;
    }
}
