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
 * events of one time form a FIFO (scheduling order is the tie order, so no sequence number is needed), and
 * a 4-ary min-heap orders only the distinct times, with no ties at all. Each pending time has a FIFO record
 * (head and tail slot) under a stable id; heap nodes carry (time, id), so running the earliest event reads
 * the root's FIFO directly, and a small open-addressing table from time to id serves only {@link #schedule}
 * (to find the FIFO of a time already pending) and the removal of a time whose FIFO has run dry. Events live in slot arrays (target, kind, payload, next-in-FIFO) recycled
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

    // FIFO records of the pending times, by id (ids recycled through a free stack)
    private int[] fHead = new int[INITIAL], fTail = new int[INITIAL];
    private int[] freeIds = new int[INITIAL];
    private int nFreeIds, idsUsed;

    // 4-ary min-heap of the distinct pending times: (time, FIFO id)
    private long[] hTime = new long[INITIAL];
    private int[] hId = new int[INITIAL];
    private int heapSize;

    // open-addressing table: time -> FIFO id (tId NONE = empty entry)
    private long[] tTime = new long[INITIAL];
    private int[] tId = new int[INITIAL];
    private int tShift = 64 - Integer.numberOfTrailingZeros(INITIAL);
    private int tCount;
    /**
     * The last time scheduled to and its FIFO id: bursts of events share a time (schedules from one
     * handler). Cleared when that time's FIFO runs dry.
     */
    private long cachedTime = -1;
    private int cachedId;

    private long now;
    private long handled;
    private boolean stopRequested;

    public EventQueue() { Arrays.fill(tId, NONE); }

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
        if (timePs == cachedTime) {
            int id = cachedId;
            next[fTail[id]] = slot;
            fTail[id] = slot;
            return;
        }
        int e = entry(timePs);
        int id = tId[e];
        cachedTime = timePs;
        if (id == NONE) {
            id = allocId();
            fHead[id] = slot;
            fTail[id] = slot;
            tTime[e] = timePs;
            tId[e] = id;
            tCount++;
            cachedId = id;
            heapPush(timePs, id);
            if (2 * tCount > tId.length) growTable();
        } else {
            cachedId = id;
            next[fTail[id]] = slot;
            fTail[id] = slot;
        }
    }

    /** Runs events until none is left, {@link #stop()} is called, or time would pass {@code untilPs}. */
    public void run(long untilPs) {
        stopRequested = false;
        while (size > 0 && !stopRequested) {
            if (hTime[0] > untilPs) return;
            step();
        }
    }

    public void run() { run(Long.MAX_VALUE); }

    /** Handles the earliest event. */
    public void step() {
        long t = hTime[0];
        int id = hId[0];
        int slot = fHead[id];
        int after = next[slot];
        if (after == NONE) {
            removeEntry(entry(t));
            freeIds[nFreeIds++] = id;
            if (t == cachedTime) cachedTime = -1;
            heapPop();
        } else {
            fHead[id] = after;
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
    public long peekTime() { return size == 0 ? Long.MAX_VALUE : hTime[0]; }

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

    private int allocId() {
        if (nFreeIds > 0) return freeIds[--nFreeIds];
        if (idsUsed == fHead.length) {
            int n = idsUsed * 2;
            fHead = Arrays.copyOf(fHead, n);
            fTail = Arrays.copyOf(fTail, n);
            freeIds = Arrays.copyOf(freeIds, n);
        }
        return idsUsed++;
    }

    // ---------------------------------------------------------------- time table

    private int home(long time) { return (int) ((time * 0x9E3779B97F4A7C15L) >>> tShift); }

    /** The entry holding {@code time}, or the empty entry where it would go. */
    private int entry(long time) {
        int mask = tId.length - 1;
        int i = home(time);
        while (tId[i] != NONE && tTime[i] != time) i = (i + 1) & mask;
        return i;
    }

    /** Linear probing with backward-shift deletion: no tombstones, so probe chains stay short. */
    private void removeEntry(int hole) {
        int mask = tId.length - 1;
        tCount--;
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            if (tId[i] == NONE) break;
            int h = home(tTime[i]);
            boolean between = hole <= i ? (h > hole && h <= i) : (h > hole || h <= i);
            if (!between) {
                tTime[hole] = tTime[i];
                tId[hole] = tId[i];
                hole = i;
            }
        }
        tId[hole] = NONE;
    }

    private void growTable() {
        long[] oldTime = tTime;
        int[] oldPos = tId;
        int n = oldPos.length * 2;
        tTime = new long[n];
        tId = new int[n];
        Arrays.fill(tId, NONE);
        tShift--;
        for (int i = 0; i < oldPos.length; i++) {
            if (oldPos[i] == NONE) continue;
            int e = entry(oldTime[i]);
            tTime[e] = oldTime[i];
            tId[e] = oldPos[i];
        }
    }

    // ---------------------------------------------------------------- heap of distinct times

    private void heapPush(long t, int id) {
        if (heapSize == hTime.length) {
            hTime = Arrays.copyOf(hTime, heapSize * 2);
            hId = Arrays.copyOf(hId, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = hTime[parent];
            if (pt <= t) break;
            hTime[i] = pt;
            hId[i] = hId[parent];
            i = parent;
        }
        hTime[i] = t;
        hId[i] = id;
    }

    private void heapPop() {
        int last = --heapSize;
        if (last == 0) return;
        long lt = hTime[last];
        int lid = hId[last];
        int i = 0;
        while (true) {
            int c = 4 * i + 1;
            if (c >= last) break;
            int best = c;
            long bt = hTime[c];
            int end = Math.min(c + 4, last);
            for (int j = c + 1; j < end; j++) {
                if (hTime[j] < bt) {
                    best = j;
                    bt = hTime[j];
                }
            }
            if (lt <= bt) break;
            hTime[i] = bt;
            hId[i] = hId[best];
            i = best;
        }
        hTime[i] = lt;
        hId[i] = lid;
    }
}
