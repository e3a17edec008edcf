package org.hmsim.platform.gpu.cache;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.platform.gpu.util.LongIntMap;

/**
 * An L2 slice's transaction table: entries 0..mshrs-1 are the MSHRs, mshrs + e is FRC entry e's transaction
 * (seed 003 §M7: an FRC entry holds its own miss state). Per transaction, in parallel arrays (no object per
 * miss): its line, way, phase, the sectors pending and wanted, and the requests merged into it (§M1). Also the
 * MSHR free list, the index by line, and the occupancy integral.
 */
final class L2Transactions {
    /** Transaction phases. */
    static final int FREE = 0, EVICT = 1, FETCH = 2, SWAP_WAIT = 3, SWAP = 4, FRC_EVICT = 5;

    private final Engine engine;
    final int mshrs, merge, slots;
    long[] line, victim, allocPs, fetchPs;
    int[] way, set, frc, phase, pending, want, write, outstanding, count, served, victimDirty;
    /**
     * Of a transaction that leaves no line (an uncached read, seed 000 §6.2.2): the sectors arrived so far and
     * the SMs whose requests it holds. With variable-size transfers several responses may fill it (§6.2.2.3);
     * each waiter is answered as soon as its own sectors are in, and a request of an SM already waiting (the
     * L1's request for further sectors of its own MSHR) is not counted as cross-SM coalescing.
     */
    int[] arrived;
    long[] sms;
    /**
     * Of such a transaction, its fetch while it has not yet left for the fabric (null once sent): the request
     * header and its sub-block mask are formed when the request crosses (§6.2.2.3), so a further request for
     * other sectors of the line widens this mask instead of crossing on its own.
     */
    MemRequest[] unsent;
    long[] victimSharers, sharers;
    /** Invalidation acknowledgements transaction m still waits for ({@code l2.invalidation: crossbar}). */
    int[] invPending;
    boolean[] store;
    /** A sector miss on a line the way already holds: its fill is a re-reference to the replacement policy, not a new line. */
    boolean[] refill;
    /** Transaction's line belongs to a frame unified memory evicted: invalidate it when the transaction installs it. */
    boolean[] drop;
    MemRequest[] waiters;
    final int[] freeMshr;
    int freeMshrs;
    LongIntMap byLine;
    /** Per transaction: the MSHR an FRC entry holds while its fetch is in flight (fetchBufferTakesMshr), else -1. */
    int[] heldMshr;
    /** Per transaction: sectors the victim cache gives back (taken at the miss, installed after vcPs). */
    int[] vc;
    /** The victim cache's sectors for the miss being allocated (the next {@link #init} takes them). */
    int pendingVc;
    private long occIntegral, occLastPs;

    /** {@code slots}: an MSHR's merge slots (it may leave no line, one target per L1: {@link #mergeFull}). */
    L2Transactions(int mshrs, int merge, int slots, Engine engine) {
        this.engine = engine;
        this.mshrs = mshrs;
        this.merge = merge;
        this.slots = slots;
        freeMshr = new int[mshrs];
        for (int i = 0; i < mshrs; i++) freeMshr[freeMshrs++] = mshrs - 1 - i;
        grow(mshrs);
        byLine = new LongIntMap(mshrs);
    }

    /** Room for {@code n} transactions (the MSHRs and the FRC entries); existing ones keep their state. */
    void grow(int n) {
        line = grow(line, n);
        victim = grow(victim, n);
        allocPs = grow(allocPs, n);
        fetchPs = grow(fetchPs, n);
        victimSharers = grow(victimSharers, n);
        invPending = grow(invPending, n);
        sharers = grow(sharers, n);
        way = grow(way, n);
        set = grow(set, n);
        frc = grow(frc, n);
        phase = grow(phase, n);
        pending = grow(pending, n);
        want = grow(want, n);
        write = grow(write, n);
        outstanding = grow(outstanding, n);
        count = grow(count, n);
        served = grow(served, n);
        arrived = grow(arrived, n);
        sms = grow(sms, n);
        unsent = unsent == null ? new MemRequest[n] : java.util.Arrays.copyOf(unsent, Math.max(n, unsent.length));
        victimDirty = grow(victimDirty, n);
        int old = heldMshr == null ? 0 : heldMshr.length;
        heldMshr = grow(heldMshr, n);
        for (int k = old; k < heldMshr.length; k++) heldMshr[k] = -1;
        vc = grow(vc, n);
        store = store == null ? new boolean[n] : java.util.Arrays.copyOf(store, Math.max(n, store.length));
        refill = refill == null ? new boolean[n] : java.util.Arrays.copyOf(refill, Math.max(n, refill.length));
        drop = drop == null ? new boolean[n] : java.util.Arrays.copyOf(drop, Math.max(n, drop.length));
        int w = waiterBase(n);
        waiters = waiters == null ? new MemRequest[w] : java.util.Arrays.copyOf(waiters, Math.max(w, waiters.length));
    }

    private static long[] grow(long[] a, int n) { return a == null ? new long[n] : a.length >= n ? a : java.util.Arrays.copyOf(a, n); }

    private static int[] grow(int[] a, int n) { return a == null ? new int[n] : a.length >= n ? a : java.util.Arrays.copyOf(a, n); }

    /** Re-indexes the transactions in flight by line into a map sized for {@code n} (the FRC geometry changed). */
    void reindex(int n) {
        LongIntMap m = new LongIntMap(n);
        for (int k = 0; k < mshrs; k++) if (phase[k] != FREE && phase[k] != FRC_EVICT) m.put(line[k], k);
        byLine = m;
    }

    int inUse() { return mshrs - freeMshrs; }

    /** A free MSHR, taken (the caller has checked {@code freeMshrs > 0}). */
    int takeMshr() {
        occupancyTick();
        return freeMshr[--freeMshrs];
    }

    void returnMshr(int k) {
        occupancyTick();
        freeMshr[freeMshrs++] = k;
    }

    int alloc(long ln, int s, int w) { return init(takeMshr(), ln, s, w, -1); }

    int init(int m, long ln, int s, int w, int frcEntry) {
        line[m] = ln;
        set[m] = s;
        way[m] = w;
        frc[m] = frcEntry;
        phase[m] = FETCH;
        pending[m] = 0;
        want[m] = 0;
        write[m] = 0;
        outstanding[m] = 0;
        count[m] = 0;
        served[m] = 0;
        arrived[m] = 0;
        sms[m] = 0;
        unsent[m] = null;
        store[m] = false;
        refill[m] = false;
        drop[m] = false;
        victim[m] = -1;
        victimDirty[m] = 0;
        victimSharers[m] = 0;
        sharers[m] = 0;
        allocPs[m] = engine.now();
        fetchPs[m] = -1;
        vc[m] = pendingVc;
        pendingVc = 0;
        byLine.put(ln, m);
        return m;
    }

    /**
     * Where transaction {@code m}'s waiters start (and, for m = the table's size, how many there are): an MSHR has
     * {@code slots} (it may leave no line, mergeFull), an FRC entry's transaction {@code merge} (it always has a line),
     * so a large FRC does not grow four times.
     */
    int waiterBase(int m) { return m <= mshrs ? m * slots : mshrs * slots + (m - mshrs) * merge; }

    void addWaiter(int m, MemRequest r) { waiters[waiterBase(m) + count[m]++] = r; }

    /**
     * Whether {@code r} finds no merge slot in transaction {@code m}. A transaction that leaves no line counts its
     * targets, one per requesting L1: an L1 asking for more sectors of a line it already waits on joins its own
     * target (seed 000 §6.2.2.3: further requests to a pending line "are also sent, and their masks are merged in
     * the GPU MSHR"); an L1 has at most one request per sector outstanding, so a target holds at most a line's
     * sectors' worth. Other transactions count requests, as GPGPU-Sim's MSHR does.
     */
    boolean mergeFull(int m, MemRequest r) {
        int n = count[m];
        if (way[m] >= 0 || frc[m] >= 0 || r.sm < 0) return n >= merge;
        if (n == slots) return true;
        int base = waiterBase(m), targets = 0;
        long seen = 0;
        for (int k = 0; k < n; k++) {
            int sm = waiters[base + k].sm;
            if (sm == r.sm) return false;
            long bit = sm < 0 ? 0 : 1L << (sm & 63);
            if (bit == 0 || (seen & bit) == 0) targets++;
            seen |= bit;
        }
        return targets >= merge;
    }

    /** {@code d} has left for the fabric: a fetch can no longer be widened. */
    void left(MemRequest d, MemClient slice) {
        if (d.replyTo != slice || d.kind != AccessKind.READ) return;
        long m = d.tag;
        if (m >= 0 && m < unsent.length && unsent[(int) m] == d) unsent[(int) m] = null;
    }

    void occupancyTick() {
        long now = engine.now();
        occIntegral += (long) (mshrs - freeMshrs) * (now - occLastPs);
        occLastPs = now;
    }

    /** Integral of MSHRs in use over time, up to now (entries x ps). */
    long occupancyPs() {
        occupancyTick();
        return occIntegral;
    }
}
