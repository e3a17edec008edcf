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
 * crossbar delivery on that cycle, ...), and almost all of them are due within a few hundred
 * nanoseconds (a GPU cycle, an L2 hit, a DRAM burst, a link hop). So:
 * <ul>
 * <li>The events of one time form a FIFO (scheduling order is the tie order, so no sequence number is
 *     needed) under a time record (time, head, tail).
 * <li>Time records live in a calendar wheel of {@value #BUCKETS} buckets of {@value #BUCKET_PS} ps
 *     covering the next {@code BUCKETS * BUCKET_PS} ps from the current bucket; a bucket keeps its
 *     records sorted by time (usually zero to two of them). A bitmap of non-empty buckets finds the next
 *     one in a word scan. Scheduling walks one short bucket list (no hashing); running the earliest event
 *     takes the head of the first non-empty bucket (no heap sift with its unpredictable branches). A
 *     round of the previous design (a 4-ary heap of distinct times plus a time-to-FIFO hash table) cost
 *     ≈ 45 ns per event on the bench's kmeans schedule.
 * <li>Events beyond the wheel's horizon (epoch ends, long waits) go to an overflow heap ordered by
 *     (time, scheduling order). Whenever the wheel advances, every overflow event now inside the horizon
 *     moves into the wheel in that order; so an overflow event is always later than the horizon, and an
 *     event scheduled into the wheel at some time always comes after any overflow event of that time,
 *     which moved in first: same-time order is scheduling order across both.
 * </ul>
 * Events live in slot arrays (target, kind, payload, next-in-FIFO) recycled through a free list; nothing
 * is allocated once the arrays have grown to the run's peak.
 */
public final class EventQueue implements Engine {
    private static final int INITIAL = 1024;
    private static final int NONE = -1;

    /**
     * Bucket width 2^7 = 128 ps and 2048 buckets (a 262 ns horizon): the bench's pending times (≈ 180
     * distinct ones, nearly all within 86 ns) then share a bucket rarely, so an insertion walks almost
     * nothing; 512 ps buckets were measurably slower on the kmeans schedule, wider horizons buy nothing
     * (20 of 4.3 M events go beyond 262 ns).
     */
    private static final int SHIFT = 7;
    static final long BUCKET_PS = 1L << SHIFT;
    static final int BUCKETS = 2048; // a power of two and a multiple of 64
    private static final int MASK = BUCKETS - 1;
    private static final int WORDS = BUCKETS / 64;
    private static final long HORIZON = (long) BUCKETS << SHIFT;

    // events: slot arrays; next links a time's FIFO, or the free list
    private EventTarget[] target = new EventTarget[INITIAL];
    private int[] kind = new int[INITIAL];
    private long[] payload = new long[INITIAL];
    private int[] next = new int[INITIAL];
    private int freeHead = NONE;
    private int slotsUsed;
    private int size;

    // time records: time, FIFO head and tail, next record of the same bucket (or the free list)
    private long[] rTime = new long[INITIAL];
    private int[] rHead = new int[INITIAL], rTail = new int[INITIAL], rNext = new int[INITIAL];
    private int freeRec = NONE;
    private int recsUsed;

    // the wheel: first record of each bucket, and a bitmap of the non-empty buckets
    private final int[] bucket = new int[BUCKETS];
    private final long[] occupied = new long[WORDS];
    /** Start of the current bucket (a multiple of BUCKET_PS, never after now): the horizon's start. */
    private long wheelStart;

    // overflow: binary min-heap of events beyond the horizon, by (time, sequence)
    private long[] oTime = new long[64];
    private long[] oSeq = new long[64];
    private int[] oSlot = new int[64];
    private int oSize;
    private long oSeqNext;

    /**
     * The last time scheduled to and its record: bursts of events share a time (schedules from one
     * handler). Cleared when that time's FIFO runs dry.
     */
    private long cachedTime = -1;
    private int cachedRec;

    private long now;
    private long handled;
    private boolean stopRequested;
    private long horizon = Long.MAX_VALUE;

    public EventQueue() { Arrays.fill(bucket, NONE); }

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
            int r = cachedRec;
            next[rTail[r]] = slot;
            rTail[r] = slot;
            return;
        }
        if (timePs - wheelStart >= HORIZON) overflowPush(timePs, slot);
        else insert(timePs, slot);
    }

    /** Appends event {@code slot} to the FIFO of {@code time} (inside the horizon), creating its record. */
    private void insert(long time, int slot) {
        int b = (int) (time >>> SHIFT) & MASK;
        int prev = NONE, r = bucket[b];
        while (r != NONE && rTime[r] < time) {
            prev = r;
            r = rNext[r];
        }
        if (r != NONE && rTime[r] == time) {
            next[rTail[r]] = slot;
            rTail[r] = slot;
        } else {
            int n = allocRec();
            rTime[n] = time;
            rHead[n] = slot;
            rTail[n] = slot;
            rNext[n] = r;
            if (prev == NONE) {
                bucket[b] = n;
                occupied[b >>> 6] |= 1L << b;
            } else {
                rNext[prev] = n;
            }
            r = n;
        }
        cachedTime = time;
        cachedRec = r;
    }

    /** Runs events until none is left, {@link #stop()} is called, or time would pass {@code untilPs} (or a lower {@link #limitTo}). */
    public void run(long untilPs) {
        stopRequested = false;
        horizon = untilPs;
        while (size > 0 && !stopRequested) {
            int b = firstBucket();
            if ((b == NONE ? oTime[0] : rTime[bucket[b]]) > horizon) return;
            stepFrom(b);
        }
    }

    /** Lowers the bound of the {@link #run} in progress to {@code ps} (never raises it). */
    public void limitTo(long ps) { horizon = Math.min(horizon, ps); }

    public void run() { run(Long.MAX_VALUE); }

    /** Handles the earliest event. */
    public void step() { stepFrom(firstBucket()); }

    /** Handles the earliest event, {@code b} being {@link #firstBucket()}. */
    private void stepFrom(int b) {
        if (b == NONE) {
            // the wheel is empty: jump to the earliest overflow event's bucket
            wheelStart = oTime[0] & -BUCKET_PS;
            migrate();
            b = firstBucket();
        } else {
            long start = wheelStart + ((long) ((b - ((int) (wheelStart >>> SHIFT) & MASK)) & MASK) << SHIFT);
            if (start != wheelStart) {
                wheelStart = start;
                // the check before the call: the wheel advances on most events, and the epoch timer is nearly
                // always waiting in the overflow heap, far beyond the horizon
                if (oSize > 0 && oTime[0] - wheelStart < HORIZON) migrate();
            }
        }
        int r = bucket[b];
        long t = rTime[r];
        int slot = rHead[r];
        int after = next[slot];
        if (after == NONE) {
            int rn = rNext[r];
            bucket[b] = rn;
            if (rn == NONE) occupied[b >>> 6] &= ~(1L << b);
            rNext[r] = freeRec;
            freeRec = r;
            if (t == cachedTime) cachedTime = -1;
        } else {
            rHead[r] = after;
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
    public long peekTime() {
        if (size == 0) return Long.MAX_VALUE;
        int b = firstBucket();
        return b == NONE ? oTime[0] : rTime[bucket[b]];
    }

    public void stop() { stopRequested = true; }

    // ---------------------------------------------------------------- wheel

    /** The first non-empty bucket from the current one on (cyclically), or NONE if the wheel is empty. */
    private int firstBucket() {
        int c = (int) (wheelStart >>> SHIFT) & MASK;
        int w = c >>> 6;
        long bits = occupied[w] & (-1L << c);
        if (bits != 0) return (w << 6) + Long.numberOfTrailingZeros(bits);
        for (int i = 1; i < WORDS; i++) {
            int ww = (w + i) & (WORDS - 1);
            bits = occupied[ww];
            if (bits != 0) return (ww << 6) + Long.numberOfTrailingZeros(bits);
        }
        bits = occupied[w] & ~(-1L << c); // the current word's buckets before the cursor: a lap ahead
        if (bits != 0) return (w << 6) + Long.numberOfTrailingZeros(bits);
        return NONE;
    }

    /** Moves every overflow event now inside the horizon into the wheel, in (time, scheduling) order. */
    private void migrate() {
        while (oSize > 0 && oTime[0] - wheelStart < HORIZON) {
            long t = oTime[0];
            int slot = oSlot[0];
            overflowPop();
            insert(t, slot);
        }
    }

    // ---------------------------------------------------------------- slots and records

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

    private int allocRec() {
        int r = freeRec;
        if (r != NONE) {
            freeRec = rNext[r];
            return r;
        }
        if (recsUsed == rTime.length) {
            int n = recsUsed * 2;
            rTime = Arrays.copyOf(rTime, n);
            rHead = Arrays.copyOf(rHead, n);
            rTail = Arrays.copyOf(rTail, n);
            rNext = Arrays.copyOf(rNext, n);
        }
        return recsUsed++;
    }

    // ---------------------------------------------------------------- overflow heap

    private static boolean before(long ta, long sa, long tb, long sb) { return ta < tb || (ta == tb && sa < sb); }

    private void overflowPush(long t, int slot) {
        if (oSize == oTime.length) {
            int n = oSize * 2;
            oTime = Arrays.copyOf(oTime, n);
            oSeq = Arrays.copyOf(oSeq, n);
            oSlot = Arrays.copyOf(oSlot, n);
        }
        long s = oSeqNext++;
        int i = oSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(t, s, oTime[parent], oSeq[parent])) break;
            oTime[i] = oTime[parent];
            oSeq[i] = oSeq[parent];
            oSlot[i] = oSlot[parent];
            i = parent;
        }
        oTime[i] = t;
        oSeq[i] = s;
        oSlot[i] = slot;
    }

    private void overflowPop() {
        int last = --oSize;
        if (last == 0) return;
        long lt = oTime[last], ls = oSeq[last];
        int lslot = oSlot[last];
        int i = 0;
        while (true) {
            int c = 2 * i + 1;
            if (c >= last) break;
            if (c + 1 < last && before(oTime[c + 1], oSeq[c + 1], oTime[c], oSeq[c])) c++;
            if (!before(oTime[c], oSeq[c], lt, ls)) break;
            oTime[i] = oTime[c];
            oSeq[i] = oSeq[c];
            oSlot[i] = oSlot[c];
            i = c;
        }
        oTime[i] = lt;
        oSeq[i] = ls;
        oSlot[i] = lslot;
    }
}
