package org.hmsim.platform.gpu.cache;

import java.util.function.LongConsumer;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.CacheView;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.xbar.Crossbar;
import org.hmsim.platform.gpu.util.LongIntMap;

/**
 * One L2 slice (bank): sectored, set-associative, write-back, write-allocate, with a finite MSHR file and
 * the L2 miss path of seed 003 (Candel Margaix 2019).
 *
 * <p><b>Conventional miss path</b> (§M6, Fig. 6.2a): on a miss the victim way is chosen and locked
 * (transient: no access to it); the copies of the victim in the L1s that read it are invalidated (a
 * crossbar round trip), a dirty victim is written back and its write acknowledged (with {@code evict_notice} a
 * clean victim's header-only notice is acknowledged too, as Multi2Sim 4.2's main-memory module acknowledges
 * every eviction), and only then is the missing block fetched into the way — in that order, per line. A miss that finds every way of its set
 * transient, or that wants the line being evicted, waits in a per-set list ({@link SetWaitList}) until a way
 * of the set is released; other sets' requests go on past it. A burst of misses to one set can therefore
 * lock all its ways: the congestion FRC removes.
 *
 * <p><b>FRC</b> (§M7, Ch. 6.4.2) when the l2-miss-path policy gives {@code fetchBuffersPerBank() > 0}: an L2
 * tag miss also looks up the bank's {@link FetchReplacementCache} (+1 cycle, sequential). With a free entry
 * in its FRC set the fetch leaves at once while the would-be victim stays valid and hittable; when the
 * block arrives the waiting requests are answered from the entry, then entry and victim (chosen now, LRU)
 * swap in {@code swapCycles()} cycles and the victim's invalidation and write-back proceed from the entry,
 * off the critical path; the entry is then free. With no free entry in its FRC set the miss takes the
 * conventional path. An FRC entry holds its own miss state (it does not use an MSHR; §8 q1 is open, this
 * is the reading "FRC adds directory entries"). Store misses allocate an FRC entry too (no fetch: the
 * entry is swapped in at once). The FRC geometry follows the policy at the first miss after a change,
 * once no FRC entry is busy (a live swap drains the GPU first).
 *
 * <p><b>NACK</b> (§M1): a request from an L1 that finds every MSHR busy (or its line's merge slots full)
 * is answered with a NACK ({@code nacked = true}, a header-only packet) and the L1 retries it; requests
 * nobody can retry (write-backs from elsewhere) stall the input queue instead.
 *
 * <p>Other rules: reads fetch only the missing 32 B sectors; a read to a line with a fetch in flight
 * merges into its MSHR; writes are acknowledged after the tag latency even when they allocate (non-blocking
 * stores, §M3), a store miss allocates without a fetch (writing whole sectors); atomics are performed here;
 * an access the cacheability policy forbids to allocate still uses an MSHR but no line.
 */
public final class L2Slice implements CacheView, MemSink, MemClient, EventTarget, Crossbar.SharerTracking, Crossbar.InvalidationAcks {
    private static final int EV_PROCESS = 0, EV_SEND = 1, EV_SEND_FIFO = 2, EV_RESPOND = 3,
            EV_EVICT = 4, EV_INV_DONE = 5, EV_SWAP_DONE = 6, EV_VC_FILL = 7, EV_VC_IN = 8;
    private static final int NOT_BLOCKED = 0, BLOCK_MSHR = 1, BLOCK_MERGE = 2, BLOCK_SET = 3;
    /** Transaction phases. */
    private static final int FREE = 0, EVICT = 1, FETCH = 2, SWAP_WAIT = 3, SWAP = 4, FRC_EVICT = 5;
    /** Set in a write-back's tag: it is the acknowledged write-back of transaction (tag & mask). */
    private static final long WB_ACK = 1L << 40;

    private final String name;
    private final int gpu, index;
    private final CacheConfig cfg;
    private final Engine engine;
    private final long periodPs, latencyPs;
    private final RequestPool pool;
    private final Crossbar xbar;
    private MemSink fabric;
    private UpperLevels upper = UpperLevels.NONE;
    private LongConsumer stores;
    private final ReplacementPolicy.State repl;
    private final CacheabilityPolicy cacheability;
    private final CoherencePolicy coherence;
    private final L2MissPathPolicy missPath;
    private final SectorTags t;
    /** Per line: bit (sm & 63) of every SM that read it (the victim's L1 copies to invalidate). */
    private final long[] sharers;
    private final long invalidatePs;

    // input queue, requests released from the set-wait list (served first), the set-wait list
    private final MemRequest[] queue;
    private int qHead, qSize;
    private final SetWaitList parked;
    private final SetWaitList.Replay replay = new SetWaitList.Replay();
    private MemClient waitingSender;
    private boolean processScheduled;
    private long lastProcessPs = -1;
    private int blocked = NOT_BLOCKED;
    private long blockedSincePs;

    // the transaction table: 0..mshrs-1 are the MSHRs, mshrs + e is FRC entry e's transaction
    private final int mshrs, merge, slots;
    private long[] tLine, tVictim, tAllocPs, tFetchPs;
    private int[] tWay, tSet, tFrc, tPhase, tPending, tWant, tWrite, tOutstanding, tCount, tServed, tVictimDirty;
    /**
     * Of a transaction that leaves no line (an uncached read, seed 000 §6.2.2): the sectors arrived so far and
     * the SMs whose requests it holds. With variable-size transfers several responses may fill it (§6.2.2.3);
     * each waiter is answered as soon as its own sectors are in, and a request of an SM already waiting (the
     * L1's request for further sectors of its own MSHR) is not counted as cross-SM coalescing.
     */
    private int[] tArrived;
    private long[] tSms;
    /**
     * Of such a transaction, its fetch while it has not yet left for the fabric (null once sent): the request
     * header and its sub-block mask are formed when the request crosses (§6.2.2.3), so a further request for
     * other sectors of the line widens this mask instead of crossing on its own.
     */
    private MemRequest[] tUnsent;
    private long[] tVictimSharers, tSharers;
    /** Invalidation acknowledgements transaction m still waits for ({@code l2.invalidation: crossbar}). */
    private int[] tInvPending;
    private boolean[] tStore;
    /** Transaction's line belongs to a frame unified memory evicted: invalidate it when the transaction installs it. */
    private boolean[] tDrop;
    private MemRequest[] tWaiters;
    private final int[] freeMshr;
    private int freeMshrs;
    private LongIntMap mshrByLine;
    /** The victims FRC entries are evicting (FRC_EVICT), by line: a request for one waits as for a locked way. */
    private LongIntMap evictingByLine;
    private FetchReplacementCache frc;
    /** Per transaction: the MSHR an FRC entry holds while its fetch is in flight (fetchBufferTakesMshr), else -1. */
    private int[] tHeldMshr;
    /** Per transaction: sectors the victim cache gives back (taken at the miss, installed after vcPs). */
    private int[] tVc;
    private int pendingVc;
    private VictimCache vc;
    private long swapPs, frcLookupPs, vcPs;
    private int swapWaiting;
    private long occIntegral, occLastPs;
    // memory-level parallelism: fetches in flight, integrated over time, and the time any was in flight
    private int fetchesInFlight;
    private long mlpIntegral, mlpBusyPs, mlpLastPs;

    // delayed and refused sends to the fabric
    private MemRequest[] sendSlot = new MemRequest[64];
    private int[] freeSend = new int[64];
    private int freeSends;
    private int pendingSends;
    // hit responses wait out the hit latency here and reach the crossbar port in time order, so that a
    // response still in the tag pipeline does not hold the port against fills that are ready earlier
    private MemRequest[] respQ = new MemRequest[64];
    private long[] respT = new long[64];
    private int rqHead, rqSize;
    // sends in time order (the common case: constant tag latency) wait in a FIFO with one event
    private MemRequest[] delayQ = new MemRequest[64];
    private long[] delayT = new long[64];
    private int dqHead, dqSize;
    private MemRequest[] fabricQ = new MemRequest[64];
    private int fqHead, fqSize;

    private long hits, misses, sectorMisses, writeHits, writeMisses, merges, mshrFullStalls, mergeFullStalls,
            setLockedStalls, mshrStallCycles, writebacks, writebackBytes, fetchBytes,
            missLatencyPs, missesCompleted, fabricRefusals, nacks, frcMisses, frcFallbacks, swaps, evictions,
            invalidations, evictNotices, evictLatencyPs, fetchLatencyPs, fetchesTimed, frcStoreAllocs, frcLookups, vcHits, vcInserts;
    // selective caching (seed 000 Ch. 6): requests that leave no line and merges among them
    private long uncachedRequests, uncachedMerges, widenedFetches, mergeNacks;
    /** Read look-ups that did not hit, counted at every attempt (NACKed, parked and re-run ones too): Multi2Sim's report "Misses". */
    private long lookupMisses;

    public L2Slice(String name, int gpu, int index, CacheConfig cfg, ClockDomain clock, Engine engine, RequestPool pool,
                   Crossbar xbar, ReplacementPolicy replacement, CacheabilityPolicy cacheability, CoherencePolicy coherence) {
        this(name, gpu, index, cfg, clock, engine, pool, xbar, replacement, cacheability, coherence, new L2MissPathPolicy() { });
    }

    public L2Slice(String name, int gpu, int index, CacheConfig cfg, ClockDomain clock, Engine engine, RequestPool pool,
                   Crossbar xbar, ReplacementPolicy replacement, CacheabilityPolicy cacheability, CoherencePolicy coherence,
                   L2MissPathPolicy missPath) {
        this.name = name;
        this.gpu = gpu;
        this.index = index;
        this.cfg = cfg;
        this.engine = engine;
        this.periodPs = clock.periodPs();
        this.latencyPs = clock.ps(cfg.latencyCycles());
        this.pool = pool;
        this.xbar = xbar;
        this.cacheability = cacheability;
        this.coherence = coherence;
        this.missPath = missPath;
        this.t = new SectorTags(name, cfg, true, xbar.hashedSlices(), xbar.plainSlices());
        this.sharers = new long[t.sets * t.ways];
        // a fully associative bank (seed 003's FA L2 comparison point) keeps its own LRU order (the replacement
        // slot's 64-bit candidate masks cannot name 4096 ways); gpu.l2.replacement: lru pins a set-associative one
        this.repl = t.fullyAssociative ? t.lruState()
                : cfg.fixedLru() ? new org.hmsim.api.policy.LruState(t.sets, t.ways) : replacement.forCache(name, t.sets, t.ways);
        if (cfg.mshrs() <= 0 || cfg.mshrMerge() <= 0 || cfg.queueDepth() <= 0)
            throw new IllegalArgumentException(name + ": mshrs, mshrMerge and queueDepth must be > 0");
        // invalidate and acknowledge over the crossbar (header packets both ways), plus the directory cycle
        this.invalidatePs = 2 * xbar.unloadedPs(Crossbar.HEADER_BYTES) + periodPs;
        this.frcLookupPs = periodPs;
        this.vcPs = periodPs; // seed 003 §6.6: the VC's access time is taken as the FRC's (1 cycle)
        queue = new MemRequest[cfg.queueDepth()];
        parked = new SetWaitList(Math.max(64, 2 * cfg.queueDepth()));
        mshrs = cfg.mshrs();
        merge = cfg.mshrMerge();
        slots = merge * Integer.bitCount(t.fullMask); // a no-line transaction keeps one target per L1 (mergeFull)
        freeMshr = new int[mshrs];
        for (int i = 0; i < mshrs; i++) freeMshr[freeMshrs++] = mshrs - 1 - i;
        allocTable(mshrs);
        mshrByLine = new LongIntMap(mshrs);
        for (int i = 0; i < 64; i++) freeSend[freeSends++] = 63 - i;
        configureMissPath();
    }

    private void allocTable(int n) {
        tLine = grow(tLine, n);
        tVictim = grow(tVictim, n);
        tAllocPs = grow(tAllocPs, n);
        tFetchPs = grow(tFetchPs, n);
        tVictimSharers = grow(tVictimSharers, n);
        tInvPending = grow(tInvPending, n);
        tSharers = grow(tSharers, n);
        tWay = grow(tWay, n);
        tSet = grow(tSet, n);
        tFrc = grow(tFrc, n);
        tPhase = grow(tPhase, n);
        tPending = grow(tPending, n);
        tWant = grow(tWant, n);
        tWrite = grow(tWrite, n);
        tOutstanding = grow(tOutstanding, n);
        tCount = grow(tCount, n);
        tServed = grow(tServed, n);
        tArrived = grow(tArrived, n);
        tSms = grow(tSms, n);
        tUnsent = tUnsent == null ? new MemRequest[n] : java.util.Arrays.copyOf(tUnsent, Math.max(n, tUnsent.length));
        tVictimDirty = grow(tVictimDirty, n);
        int old = tHeldMshr == null ? 0 : tHeldMshr.length;
        tHeldMshr = grow(tHeldMshr, n);
        for (int k = old; k < tHeldMshr.length; k++) tHeldMshr[k] = -1;
        tVc = grow(tVc, n);
        tStore = tStore == null ? new boolean[n] : java.util.Arrays.copyOf(tStore, Math.max(n, tStore.length));
        tDrop = tDrop == null ? new boolean[n] : java.util.Arrays.copyOf(tDrop, Math.max(n, tDrop.length));
        int w = waiterBase(n);
        tWaiters = tWaiters == null ? new MemRequest[w] : java.util.Arrays.copyOf(tWaiters, Math.max(w, tWaiters.length));
    }

    private static long[] grow(long[] a, int n) { return a == null ? new long[n] : a.length >= n ? a : java.util.Arrays.copyOf(a, n); }

    private static int[] grow(int[] a, int n) { return a == null ? new int[n] : a.length >= n ? a : java.util.Arrays.copyOf(a, n); }

    /** The l2-miss-path's {@link L2MissPathPolicy#postsWriteBacks()}: a victim leaves at once, the fetch does not wait. */
    private boolean posted;

    /**
     * Follows the miss-path policy's FRC geometry (entries, ways, swap cycles) and whether it posts write-backs. The
     * geometry only while no FRC entry is busy: the entries in use keep the geometry they were allocated in until they drain.
     */
    private void configureMissPath() {
        posted = missPath.postsWriteBacks();
        int vcl = missPath.victimCacheLines();
        // the victim cache's lines are clean (written back as they entered): it can change at any time
        if (vcl != (vc == null ? 0 : vc.capacity)) vc = vcl <= 0 ? null : new VictimCache(vcl);
        int n = missPath.fetchBuffersPerBank();
        int ways = missPath.fetchBufferWays();
        boolean local = missPath.fetchBufferBankLocalIndex(), takesMshr = missPath.fetchBufferTakesMshr();
        if (n == (frc == null ? 0 : frc.entries) && (frc == null || ((ways == 0 || Math.min(ways, n) == frc.ways)
                && local == frc.bankLocalIndex && takesMshr == frc.takesMshr))) {
            swapPs = (long) missPath.swapCycles() * periodPs;
            return;
        }
        if (frc != null && frc.busy() > 0) return;
        swapPs = (long) missPath.swapCycles() * periodPs;
        if (n <= 0) {
            frc = null;
            return;
        }
        frc = new FetchReplacementCache(n, ways, t.lineBytes, local, takesMshr);
        evictingByLine = new LongIntMap(n); // no entry is busy here, so none is evicting
        allocTable(mshrs + n);
        LongIntMap m = new LongIntMap(mshrs + n);
        for (int k = 0; k < mshrs; k++) if (tPhase[k] != FREE && tPhase[k] != FRC_EVICT) m.put(tLine[k], k);
        mshrByLine = m;
    }

    public void setFabric(MemSink fabric) { this.fabric = fabric; }

    /**
     * Told the byte address of every store and atomic this bank serves (null: nobody). A machine with a
     * CPU–GPU directory (seed 001) uses it to invalidate the CPU's copies, as the seed's write-through GPU
     * caches do with every write: this bank is write-back, and its write-back reaches the directory only
     * when the line leaves, which a line that fits may never do.
     */
    public void setStoreListener(LongConsumer stores) { this.stores = stores; }

    /** The L1s above this bank, for the victim's invalidation. */
    public void setUpper(UpperLevels upper) { this.upper = upper; }

    // ---------------------------------------------------------------- input

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (qSize == queue.length) {
            waitingSender = from;
            return false;
        }
        queue[wrap(qHead + qSize, queue.length)] = r;
        qSize++;
        if (blocked != NOT_BLOCKED) return true;
        long now = engine.now();
        if (qSize == 1 && replay.isEmpty() && !processScheduled && now >= lastProcessPs + periodPs && now % periodPs == 0) {
            // An idle slice serves a request arriving on a clock edge at once: the same cycle the
            // scheduled tick would use, one event fewer per request.
            process();
        } else scheduleProcess();
        return true;
    }

    /** {@code i mod n} for 0 &lt;= i &lt; 2n (ring indices: head &lt; n plus at most n): no integer division on the hot path. */
    private static int wrap(int i, int n) { return i >= n ? i - n : i; }

    private void scheduleProcess() {
        if (processScheduled) return;
        processScheduled = true;
        long at = Math.max(engine.now(), lastProcessPs + periodPs);
        long r = at % periodPs;
        if (r != 0) at += periodPs - r;
        engine.schedule(at, this, EV_PROCESS, 0);
    }

    @Override
    public void handle(int kind, long payload) {
        switch (kind) {
            case EV_PROCESS -> process();
            case EV_SEND_FIFO -> drainDelayed();
            case EV_RESPOND -> drainResponses();
            case EV_EVICT -> evictVictim((int) payload);
            case EV_INV_DONE -> writeBackVictim((int) payload);
            case EV_SWAP_DONE -> swapDone((int) payload);
            case EV_VC_FILL -> vcFilled((int) payload);
            case EV_VC_IN -> victimWritten((int) payload);
            default -> {
                int s = (int) payload;
                MemRequest d = sendSlot[s];
                sendSlot[s] = null;
                freeSend[freeSends++] = s;
                pendingSends--;
                sendNow(d);
            }
        }
    }

    /** One request per cycle: a released (previously parked) one first, else the head of the input queue. */
    private void process() {
        processScheduled = false;
        if (blocked != NOT_BLOCKED) return;
        if (!replay.isEmpty()) {
            lastProcessPs = engine.now();
            if (!serve(replay.peek())) return;
            replay.pop();
            if (!replay.isEmpty() || qSize > 0) scheduleProcess();
            return;
        }
        if (qSize == 0) return;
        lastProcessPs = engine.now();
        MemRequest r = queue[qHead];
        if (!serve(r)) return;
        queue[qHead] = null;
        qHead = wrap(qHead + 1, queue.length);
        qSize--;
        if (waitingSender != null) {
            MemClient c = waitingSender;
            waitingSender = null;
            c.onSpaceAvailable(this);
        }
        if (qSize > 0 && blocked == NOT_BLOCKED) scheduleProcess();
    }

    /** Serves {@code r}; false if it must wait at the head of the input queue (the slice is then blocked). */
    private boolean serve(MemRequest r) {
        long line = t.lineOf(r.paddr);
        int set = t.setOf(line);
        int need = r.sectorMask == 0 ? t.fullMask : r.sectorMask & t.fullMask;
        int way = t.find(set, line);
        if (stores != null && r.kind != AccessKind.READ) stores.accept(r.paddr); // idempotent if r is served again
        return switch (r.kind) {
            case READ, ATOMIC -> read(r, line, set, way, need);
            case WRITE, WRITEBACK -> write(r, line, set, way, need);
        };
    }

    // ---------------------------------------------------------------- reads

    private boolean read(MemRequest r, long line, int set, int way, int need) {
        long now = engine.now();
        int i = way < 0 ? -1 : set * t.ways + way;
        boolean present = i >= 0 && (t.valid[i] & need) == need;
        // A hit on an unlocked line needs no MSHR look-up (the common hit): only a locked line's hit
        // depends on a transaction in flight for it, and every other path below needs m.
        int m = present && !t.locked[i] ? -1 : mshrByLine.get(line);
        if (present && (!t.locked[i] || m >= 0)) {
            hits++;
            if (r.kind == AccessKind.ATOMIC) t.dirty[i] |= need;
            else if (r.sm >= 0) sharers[i] |= 1L << (r.sm & 63);
            repl.onHit(set, way, line, r.kind, r.sm);
            respondAt(r, now + latencyPs);
            return true;
        }
        lookupMisses++;
        if (m >= 0) return mergeRead(r, m, set, need, i);
        if (i >= 0 && t.locked[i]) return park(r, set); // its line is being evicted (§M6: wait for the release)
        if (i < 0 && evictedFromFrc(line)) return park(r, set);
        configureMissPath();
        boolean allocate = i < 0 && cacheability.mayAllocate(2, r);
        if (i < 0 && frc != null) frcLookups++;
        if (allocate && frc != null && (!frc.takesMshr || freeMshrs > 0)) {
            int e = frc.allocate(frcLine(line));
            if (e >= 0) {
                frcFetch(r, line, set, e, need);
                return true;
            }
            frcFallbacks++;
        }
        long cand = 0; // the set's replacement candidates, scanned once (nothing below changes them before use)
        if (i < 0 && allocate) {
            way = t.freeWay(set);
            if (way < 0 && (cand = t.candidates(set)) == 0) {
                setLockedStalls++;
                return park(r, set);
            }
        }
        if (freeMshrs == 0) return refuse(r, BLOCK_MSHR);
        pendingVc = i < 0 && vc != null ? vc.take(line) : 0; // the VC gives the line back instead of memory
        if (pendingVc != 0) vcHits++;
        else misses++;
        if (i >= 0 || !allocate) { // a sector miss on a present line, or an access that leaves no line
            if (i >= 0) t.locked[i] = true;
            m = allocMshr(line, set, i >= 0 ? way : -1);
            addWaiter(m, r);
            int ask = need & ~(i >= 0 ? t.valid[i] : 0);
            if (i < 0) { // selective caching (seed 000 §6.2.2): coalesce here or not; 32 B or line-sized transfer
                uncachedRequests++;
                if (r.sm >= 0) tSms[m] = 1L << (r.sm & 63);
                if (!cacheability.mayCoalesce(2, r)) mshrByLine.remove(line);
                if (!cacheability.subBlockTransfers(r)) ask = t.fullMask;
            }
            startFetch(m, ask, latencyPs);
            return true;
        }
        if (way >= 0) { // an invalid way: nothing to evict
            claim(set * t.ways + way, line);
            m = allocMshr(line, set, way);
            addWaiter(m, r);
            startFetch(m, need, latencyPs);
            return true;
        }
        way = victimWay(set, cand);
        m = allocMshr(line, set, way);
        addWaiter(m, r);
        if (postsNow()) {
            evictPosted(set * t.ways + way);
            claim(set * t.ways + way, line);
            startFetch(m, need, latencyPs);
            return true;
        }
        tWant[m] = need;
        tPhase[m] = EVICT;
        lockVictim(m, set * t.ways + way);
        engine.schedule(now + latencyPs, this, EV_EVICT, m);
        return true;
    }

    /**
     * Whether {@code r} finds no merge slot in transaction {@code m}. A transaction that leaves no line counts its
     * targets, one per requesting L1: an L1 asking for more sectors of a line it already waits on joins its own
     * target (seed 000 §6.2.2.3: further requests to a pending line "are also sent, and their masks are merged in
     * the GPU MSHR"); an L1 has at most one request per sector outstanding, so a target holds at most a line's
     * sectors' worth. Other transactions count requests, as GPGPU-Sim's MSHR does.
     */
    private boolean mergeFull(int m, MemRequest r) {
        int n = tCount[m];
        if (tWay[m] >= 0 || tFrc[m] >= 0 || r.sm < 0) return n >= merge;
        if (n == slots) return true;
        int base = waiterBase(m), targets = 0;
        long seen = 0;
        for (int k = 0; k < n; k++) {
            int sm = tWaiters[base + k].sm;
            if (sm == r.sm) return false;
            long bit = sm < 0 ? 0 : 1L << (sm & 63);
            if (bit == 0 || (seen & bit) == 0) targets++;
            seen |= bit;
        }
        return targets >= merge;
    }

    /** A read to a line with a transaction in flight: merge into it (§M1), or wait if it cannot cover the read. */
    private boolean mergeRead(MemRequest r, int m, int set, int need, int i) {
        if (mergeFull(m, r)) return refuse(r, BLOCK_MERGE);
        int ph = tPhase[m];
        boolean arrived = ph == SWAP_WAIT || ph == SWAP || (tStore[m] && ph == EVICT);
        if (arrived && (need & ~(tPending[m] | tWrite[m])) != 0) return park(r, set);
        merges++;
        if (tWay[m] < 0 && tFrc[m] < 0) { // a transaction that leaves no line: cacheless L1+L2 coalescing
            long smBit = r.sm >= 0 ? 1L << (r.sm & 63) : 0;
            if ((tSms[m] & smBit) == 0) { // another SM's request (not the same L1 asking for more sectors)
                uncachedRequests++;
                uncachedMerges++;
                tSms[m] |= smBit;
            }
            if (r.kind == AccessKind.READ && ph == FETCH && (need & ~tArrived[m]) == 0) {
                respondAt(r, engine.now() + latencyPs); // its sectors already arrived: from the MSHR's data latch
                return true;
            }
        }
        addWaiter(m, r);
        if (ph == FETCH) {
            int extra = need & ~tPending[m] & ~(i >= 0 ? t.valid[i] : 0);
            if (extra != 0 && !widenUnsent(m, extra)) fetch(m, extra, latencyPs);
        } else if (ph == EVICT) tWant[m] |= need;
        return true;
    }

    // ---------------------------------------------------------------- writes

    private boolean write(MemRequest r, long line, int set, int way, int need) {
        long now = engine.now();
        int i = way < 0 ? -1 : set * t.ways + way;
        int m = mshrByLine.get(line);
        if (m >= 0) { // into the line in flight: its fill, install or swap applies the sectors
            tWrite[m] |= need;
            writeHits++;
        } else if (i >= 0 && t.locked[i]) {
            return park(r, set); // its line is being evicted
        } else if (i >= 0) {
            t.valid[i] |= need;
            t.dirty[i] |= need;
            writeHits++;
            repl.onHit(set, way, line, r.kind, r.sm);
        } else if (evictedFromFrc(line)) {
            return park(r, set);
        } else {
            if (vc != null) vc.drop(line); // its clean copy there is stale now
            if (frc != null) frcLookups++;
            if (cacheability.mayAllocate(2, r)) {
                if (!allocateForStore(r, line, set, need)) return parkedOrRefused;
            } else {
                writeMisses++;
                postWrite(line, need);
            }
        }
        // non-blocking stores (§M3): acknowledged after the tag lookup even while their line is evicting
        if (r.kind == AccessKind.WRITEBACK || r.replyTo == null) pool.give(r);
        else respondAt(r, now + latencyPs);
        return true;
    }

    /** What {@link #allocateForStore} did when it returned false: true = parked or NACKed, false = blocked. */
    private boolean parkedOrRefused;

    /** A store miss that allocates: an invalid way, else an FRC entry, else a conventional eviction. */
    private boolean allocateForStore(MemRequest r, long line, int set, int need) {
        configureMissPath();
        int way = t.freeWay(set);
        if (way >= 0) {
            storeInto(set, way, line, need);
            return true;
        }
        if (frc != null) {
            int e = frc.allocate(frcLine(line));
            if (e >= 0) {
                int m = initTx(mshrs + e, line, set, -1, e);
                tStore[m] = true;
                tWrite[m] = need;
                writeMisses++;
                frcStoreAllocs++;
                beginSwap(m);
                return true;
            }
            frcFallbacks++;
        }
        long cand = t.candidates(set);
        if (cand == 0) {
            setLockedStalls++;
            parkedOrRefused = park(r, set);
            return false;
        }
        if (postsNow()) { // the victim leaves at once and the store takes its way: no transaction
            way = victimWay(set, cand);
            evictPosted(set * t.ways + way);
            storeInto(set, way, line, need);
            return true;
        }
        if (freeMshrs == 0) {
            parkedOrRefused = refuse(r, BLOCK_MSHR);
            return false;
        }
        way = victimWay(set, cand);
        int m = allocMshr(line, set, way);
        tStore[m] = true;
        tWrite[m] = need;
        tPhase[m] = EVICT;
        writeMisses++;
        lockVictim(m, set * t.ways + way);
        engine.schedule(engine.now() + latencyPs, this, EV_EVICT, m);
        return true;
    }

    /**
     * An L1 replaced a line: the SM's sharer bit is cleared, so the line's eviction does not wait for an invalidation
     * round trip to an L1 that no longer holds it (a physics review found ~15,700 invalidations sent per slice, 0-36
     * of them finding a copy). Only for an L1 line of this cache's size; a smaller one leaves the rest of the line
     * possibly held, and the bit stays.
     */
    @Override
    public void l1Dropped(long line, int lineBytes, int sm) {
        if (lineBytes != t.lineBytes) return;
        int set = t.setOf(line);
        int way = t.find(set, line);
        if (way >= 0) sharers[set * t.ways + way] &= ~(1L << (sm & 63));
    }

    /**
     * A write-back L1 flushed {@code sectors} of {@code line} ({@link L1Cache#invalidateAll}, after this slice's own
     * flush, so the line is no longer here): they are posted to memory, in flight after the flush as the slice's own
     * write-backs are.
     */
    @Override
    public void l1Flushed(long line, int sectors) {
        postWrite(line, sectors);
    }

    /**
     * Way {@code i}'s line leaves now ({@link L2MissPathPolicy#postsWriteBacks()}): a dirty one's write-back is posted,
     * the L1 copies dropped without a wait (as GPGPU-Sim's L2 evicts: no inclusion is kept with the L1s there).
     */
    private void evictPosted(int i) {
        evictions++;
        int dirty = t.dirty[i];
        if (sharers[i] != 0) {
            dirty |= upper.invalidate(t.tag[i], sharers[i]);
            invalidations++;
        }
        if (dirty != 0) postWrite(t.tag[i], dirty);
    }

    /** A store miss's line takes way {@code way} at once, holding just the sectors written. */
    private void storeInto(int set, int way, long line, int need) {
        int i = set * t.ways + way;
        claim(i, line);
        t.locked[i] = false;
        t.valid[i] = need;
        t.dirty[i] = need;
        writeMisses++;
        repl.onFill(set, way, line, AccessKind.WRITE);
    }

    /** Whether a conventional miss's victim leaves at once (posted write-backs; not with fetch buffers or a victim cache). */
    private boolean postsNow() { return posted && vc == null && frc == null; }

    /** Chooses a replacement victim among {@code cand} (valid, unlocked ways). */
    private int victimWay(int set, long cand) {
        int way;
        if (repl.observesUpperCopies()) {
            long upper = 0;
            for (long c = cand; c != 0; c &= c - 1) {
                int w = Long.numberOfTrailingZeros(c);
                if (sharers[set * t.ways + w] != 0) upper |= 1L << w;
            }
            way = repl.victim(set, cand, upper);
        } else way = repl.victim(set, cand);
        if (way < 0 || way >= t.ways || (cand & (1L << way)) == 0)
            throw new IllegalStateException(name + ": replacement chose way " + way + " outside candidates " + Long.toBinaryString(cand));
        return way;
    }

    /** Way {@code i} now belongs to {@code line} with no data yet (locked until its fill). */
    private void claim(int i, long line) {
        t.setTag(i, line);
        t.valid[i] = 0;
        t.dirty[i] = 0;
        t.locked[i] = true;
        sharers[i] = 0;
    }

    /** Way {@code i}'s line becomes transaction {@code m}'s victim: locked, its state remembered for the eviction. */
    private void lockVictim(int m, int i) {
        tVictim[m] = t.tag[i];
        tVictimDirty[m] = t.dirty[i];
        tVictimSharers[m] = sharers[i];
        t.locked[i] = true;
        evictions++;
    }

    /** A write-back of {@code sectors} of {@code line} to memory; nobody waits for it. */
    private void postWrite(long line, int sectors) {
        MemRequest w = writeBack(line, sectors);
        sendNow(w);
    }

    /**
     * A write-back of {@code sectors} of {@code line}. No sectors (a clean victim under {@code evict_notice}) is an
     * eviction notice: a header-only write-back the memory side acknowledges without a DRAM access, as Multi2Sim 4.2's
     * NMOESI sends a clean (E/S) block's eviction to the lower-level directory, which locks its entry for its access
     * latency before replying ({@code mod_handler_nmoesi_evict}; the FRC thesis group's fork replies at once for
     * main memory).
     */
    private MemRequest writeBack(long line, int sectors) {
        MemRequest w = pool.take();
        w.kind = AccessKind.WRITEBACK;
        w.paddr = line;
        w.sectorMask = sectors;
        w.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        w.pool = PhysicalAddress.pool(line);
        w.gpu = gpu;
        w.createdPs = engine.now();
        if (sectors == 0) evictNotices++;
        else {
            writebacks++;
            writebackBytes += w.size;
        }
        return w;
    }

    /** A request that cannot take an MSHR (or merge slot): NACKed to an L1 that will retry, else the queue stalls. */
    private boolean refuse(MemRequest r, int reason) {
        if (r.replyTo != null && r.sm >= 0 && r.kind != AccessKind.WRITEBACK) {
            nacks++;
            if (reason == BLOCK_MERGE) mergeNacks++;
            r.nacked = true;
            respondAt(r, engine.now() + latencyPs);
            return true;
        }
        return block(reason);
    }

    private boolean park(MemRequest r, int set) {
        if (parked.full()) return block(BLOCK_SET);
        parked.park(r, set, engine.now());
        return true;
    }

    /** A way of {@code set} was released: its waiting requests are served again, a waiting swap may go on. */
    private void releaseSet(int set) {
        if (parked.size() > 0) {
            parked.release(set, replay, engine.now());
            if (!replay.isEmpty()) scheduleProcess();
        }
        if (swapWaiting > 0) {
            int n = mshrs + (frc == null ? 0 : frc.entries);
            for (int m = mshrs; m < n && swapWaiting > 0; m++) {
                if (tPhase[m] != SWAP_WAIT || tSet[m] != set) continue;
                swapWaiting--;
                if (!beginSwap(m)) break;
            }
        }
        if (blocked != NOT_BLOCKED) unblock();
    }

    private boolean block(int reason) {
        blocked = reason;
        blockedSincePs = engine.now();
        switch (reason) {
            case BLOCK_MSHR -> mshrFullStalls++;
            case BLOCK_MERGE -> mergeFullStalls++;
            default -> setLockedStalls++;
        }
        return false;
    }

    private void unblock() {
        mshrStallCycles += (engine.now() - blockedSincePs) / periodPs;
        blocked = NOT_BLOCKED;
        if (qSize > 0 || !replay.isEmpty()) scheduleProcess();
    }

    // ---------------------------------------------------------------- transactions

    private int allocMshr(long line, int set, int way) {
        occupancyTick();
        return initTx(freeMshr[--freeMshrs], line, set, way, -1);
    }

    private int initTx(int m, long line, int set, int way, int frcEntry) {
        tLine[m] = line;
        tSet[m] = set;
        tWay[m] = way;
        tFrc[m] = frcEntry;
        tPhase[m] = FETCH;
        tPending[m] = 0;
        tWant[m] = 0;
        tWrite[m] = 0;
        tOutstanding[m] = 0;
        tCount[m] = 0;
        tServed[m] = 0;
        tArrived[m] = 0;
        tSms[m] = 0;
        tUnsent[m] = null;
        tStore[m] = false;
        tDrop[m] = false;
        tVictim[m] = -1;
        tVictimDirty[m] = 0;
        tVictimSharers[m] = 0;
        tSharers[m] = 0;
        tAllocPs[m] = engine.now();
        tFetchPs[m] = -1;
        tVc[m] = pendingVc;
        pendingVc = 0;
        mshrByLine.put(line, m);
        return m;
    }

    /**
     * Where transaction {@code m}'s waiters start (and, for m = the table's size, how many there are): an MSHR has
     * {@code slots} (it may leave no line, mergeFull), an FRC entry's transaction {@code merge} (it always has a line),
     * so a large FRC does not grow four times.
     */
    private int waiterBase(int m) { return m <= mshrs ? m * slots : mshrs * slots + (m - mshrs) * merge; }

    private void addWaiter(int m, MemRequest r) { tWaiters[waiterBase(m) + tCount[m]++] = r; }

    private void freeTx(int m) {
        tPhase[m] = FREE;
        if (m < mshrs) {
            occupancyTick();
            freeMshr[freeMshrs++] = m;
        } else frc.free(tFrc[m]);
        tFrc[m] = -1;
        if (blocked != NOT_BLOCKED) unblock();
    }

    /**
     * Whether an FRC entry is evicting this line (after the swap). The thesis describes hits on the incoming block
     * only (§M7, ambiguity 3): a request for the victim waits for its eviction, as one for the conventional path's
     * locked victim does (§M6), instead of fetching the line again while its write-back is in flight.
     */
    private boolean evictedFromFrc(long line) { return frc != null && evictingByLine.size() > 0 && evictingByLine.get(line) >= 0; }

    /** The address an FRC set is taken from: within the bank, or as the L2 bank's own index takes it (Multi2Sim's caches). */
    private long frcLine(long line) { return frc.bankLocalIndex ? xbar.addressWithinSlice(line) : t.lineNumberForIndex(line) * t.lineBytes; }

    /** An FRC miss (§M7 step 4): the fetch leaves at once (after the L2 and FRC tag look-ups); no victim yet. */
    private void frcFetch(MemRequest r, long line, int set, int e, int need) {
        int m = initTx(mshrs + e, line, set, -1, e);
        if (frc.takesMshr) { // §8 q1, the other reading: the entry's fetch also holds an MSHR until it arrives
            occupancyTick();
            tHeldMshr[m] = freeMshr[--freeMshrs];
        }
        misses++;
        frcMisses++;
        addWaiter(m, r);
        startFetch(m, need, latencyPs + frcLookupPs);
    }

    private void startFetch(int m, int sectors, long delayPs) {
        tPhase[m] = FETCH;
        int have = tVc[m];
        if (have != 0) { // from the victim cache (its access after the tag look-ups), the rest from memory
            tPending[m] |= have;
            tOutstanding[m]++;
            engine.schedule(engine.now() + delayPs + vcPs, this, EV_VC_FILL, m);
            sectors &= ~have;
            if (sectors == 0) return;
        }
        tFetchPs[m] = engine.now() + delayPs;
        mlpTick();
        fetchesInFlight++;
        fetch(m, sectors, delayPs);
    }

    private void fetch(int m, int sectors, long delayPs) {
        MemRequest d = pool.take();
        d.kind = AccessKind.READ;
        d.paddr = tLine[m];
        d.sectorMask = sectors;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        d.pool = PhysicalAddress.pool(d.paddr);
        d.gpu = gpu;
        d.replyTo = this;
        d.tag = m;
        d.createdPs = engine.now();
        tPending[m] |= sectors;
        tOutstanding[m]++;
        sectorMisses += Integer.bitCount(sectors);
        fetchBytes += d.size;
        if (tWay[m] < 0 && tFrc[m] < 0) tUnsent[m] = d;
        sendAt(d, engine.now() + delayPs + coherence.onLastLevelMiss(d));
    }

    /** Adds {@code extra} sectors to transaction {@code m}'s fetch if it is still in this slice; false if it left. */
    private boolean widenUnsent(int m, int extra) {
        MemRequest d = tUnsent[m];
        if (d == null) return false;
        d.sectorMask |= extra;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(d.sectorMask);
        tPending[m] |= extra;
        sectorMisses += Integer.bitCount(extra);
        fetchBytes += SectorTags.SECTOR_BYTES * Integer.bitCount(extra);
        widenedFetches++;
        return true;
    }

    /** {@code d} has left for the fabric: a fetch can no longer be widened. */
    private void left(MemRequest d) {
        if (d.replyTo != this || d.kind != AccessKind.READ) return;
        long m = d.tag;
        if (m >= 0 && m < tUnsent.length && tUnsent[(int) m] == d) tUnsent[(int) m] = null;
    }

    @Override
    public void onResponse(MemRequest d) {
        int m = (int) (d.tag & 0xFFFF_FFFFL);
        boolean wbAck = (d.tag & WB_ACK) != 0;
        int sectors = d.sectorMask;
        pool.give(d);
        if (wbAck) {
            victimWritten(m);
            return;
        }
        int way = tWay[m];
        if (tFrc[m] < 0 && way >= 0) t.valid[tSet[m] * t.ways + way] |= sectors;
        if (--tOutstanding[m] > 0) {
            if (tFrc[m] < 0 && way < 0 && tPhase[m] == FETCH) answerArrived(m, sectors);
            return;
        }
        fetched(m);
    }

    /** Every part of transaction {@code m}'s data has arrived. */
    private void fetched(int m) {
        if (tFetchPs[m] >= 0) { // a memory fetch (not only the victim cache's sectors)
            mlpTick();
            fetchesInFlight--;
            fetchLatencyPs += engine.now() - tFetchPs[m];
            fetchesTimed++;
        }
        if (tFrc[m] >= 0) frcArrived(m);
        else complete(m);
    }

    /** The victim cache's sectors of {@code m}'s line are back in its way. */
    private void vcFilled(int m) {
        int have = tVc[m];
        tVc[m] = 0;
        if (tWay[m] >= 0) t.valid[tSet[m] * t.ways + tWay[m]] |= have;
        if (--tOutstanding[m] > 0) return;
        fetched(m);
    }

    /** The conventional fill (or a store's install after its eviction): the way is released. */
    private void complete(int m) {
        long now = engine.now();
        int set = tSet[m], way = tWay[m];
        int i = way < 0 ? -1 : set * t.ways + way;
        if (i >= 0) {
            t.valid[i] |= tWrite[m];
            t.dirty[i] |= tWrite[m];
            t.locked[i] = false;
            repl.onFill(set, way, tLine[m], tStore[m] ? AccessKind.WRITE : AccessKind.READ);
        } else if (tWrite[m] != 0) postWrite(tLine[m], tWrite[m]);
        answer(m, 0, i, now);
        if (tDrop[m] && i >= 0) dropWay(i, tLine[m]); // its frame was evicted meanwhile (dropRange)
        if (!tStore[m]) {
            missLatencyPs += now - tAllocPs[m];
            missesCompleted++;
        }
        if (mshrByLine.get(tLine[m]) == m) mshrByLine.remove(tLine[m]); // an uncoalesced one is not in the map
        freeTx(m);
        if (i >= 0) releaseSet(set);
    }

    /**
     * Part of a no-line transaction's sectors arrived (§6.2.2.3): its reads whose sectors are all in are answered
     * now and leave their merge slots free (such a transaction can live through several sub-block fetches).
     */
    private void answerArrived(int m, int sectors) {
        int have = tArrived[m] |= sectors, base = waiterBase(m), kept = 0, n = tCount[m];
        long now = engine.now();
        for (int k = 0; k < n; k++) {
            MemRequest r = tWaiters[base + k];
            tWaiters[base + k] = null;
            if (r == null) continue;
            int need = r.sectorMask == 0 ? t.fullMask : r.sectorMask & t.fullMask;
            if (r.kind == AccessKind.READ && (need & ~have) == 0) xbar.respond(index, r, now);
            else tWaiters[base + kept++] = r;
        }
        tCount[m] = kept;
        if (kept < n && blocked != NOT_BLOCKED) unblock();
    }

    /** Answers waiters {@code from..} of {@code m}; {@code i} is the line's way (-1: data only in the FRC entry). */
    private void answer(int m, int from, int i, long now) {
        int base = waiterBase(m);
        for (int k = from; k < tCount[m]; k++) {
            MemRequest r = tWaiters[base + k];
            if (r == null) continue; // answered when its sectors arrived
            tWaiters[base + k] = null;
            if (r.kind == AccessKind.ATOMIC) {
                int mask = r.sectorMask == 0 ? t.fullMask : r.sectorMask;
                if (i >= 0) t.dirty[i] |= mask;
                else if (tFrc[m] >= 0) tWrite[m] |= mask;
                else postWrite(tLine[m], mask);
            } else if (r.sm >= 0 && i >= 0) sharers[i] |= 1L << (r.sm & 63); // FRC: recorded at the swap
            xbar.respond(index, r, now);
        }
        tServed[m] = tCount[m];
    }

    // ---------------------------------------------------------------- eviction (§M6 steps 3-4; §M7 after the swap)

    /** The victim's L1 copies are invalidated first (a crossbar round trip), if any SM read it. */
    private void evictVictim(int m) {
        long sh = tVictimSharers[m];
        if (sh == 0) {
            writeBackVictim(m);
            return;
        }
        invalidations++;
        if (cfg.invalidationMessages()) {
            tInvPending[m] = xbar.invalidate(index, tVictim[m], sh, this, m);
            if (tInvPending[m] == 0) writeBackVictim(m); // no SM port behind the bits (defensive: sharers come from SMs)
            return;
        }
        tVictimDirty[m] |= upper.invalidate(tVictim[m], sh);
        engine.schedule(engine.now() + invalidatePs, this, EV_INV_DONE, m);
    }

    /** An L1's acknowledgement arrived, with the dirty sectors its copy held: the victim takes them (written back). */
    @Override
    public void invalidationAcked(int m, int dirty) {
        tVictimDirty[m] |= dirty;
        if (--tInvPending[m] == 0) writeBackVictim(m);
    }

    /** Then a dirty victim is written back, and the eviction waits for the write's acknowledgement. */
    private void writeBackVictim(int m) {
        if (vc != null && tPhase[m] != FRC_EVICT) {
            // into the victim cache (1 cycle); a dirty victim's write-back leaves as it enters, posted
            vc.insert(tVictim[m], t.valid[tSet[m] * t.ways + tWay[m]]);
            vcInserts++;
            if (tVictimDirty[m] != 0) postWrite(tVictim[m], tVictimDirty[m]);
            engine.schedule(engine.now() + vcPs, this, EV_VC_IN, m);
            return;
        }
        if (tVictimDirty[m] == 0 && !cfg.evictNotice()) {
            victimWritten(m);
            return;
        }
        MemRequest w = writeBack(tVictim[m], tVictimDirty[m]);
        w.replyTo = this;
        w.tag = WB_ACK | m;
        sendNow(w);
    }

    /** The victim has left: an FRC entry is free again; a conventional way takes its new line. */
    private void victimWritten(int m) {
        if (tPhase[m] == FRC_EVICT) {
            evictingByLine.remove(tVictim[m]);
            freeTx(m);
            releaseSet(tSet[m]); // requests for the victim waited for it to leave
            return;
        }
        long now = engine.now();
        int set = tSet[m];
        int i = set * t.ways + tWay[m];
        claim(i, tLine[m]);
        if (tStore[m]) {
            complete(m);
            return;
        }
        evictLatencyPs += now - tAllocPs[m] - latencyPs;
        startFetch(m, tWant[m], 0);
        releaseSet(set); // requests waiting for the victim's own line may now miss on it
    }

    // ---------------------------------------------------------------- FRC arrival and swap (§M7 step 4)

    /** The block is in the FRC entry: its requests are answered from there, then the swap starts. */
    private void frcArrived(int m) {
        long now = engine.now();
        if (tHeldMshr[m] >= 0) {
            occupancyTick();
            freeMshr[freeMshrs++] = tHeldMshr[m];
            tHeldMshr[m] = -1;
            if (blocked != NOT_BLOCKED) unblock();
        }
        long sh = 0;
        int base = waiterBase(m);
        for (int k = 0; k < tCount[m]; k++) {
            MemRequest r = tWaiters[base + k];
            if (r.kind != AccessKind.ATOMIC && r.sm >= 0) sh |= 1L << (r.sm & 63);
        }
        answer(m, 0, -1, now);
        missLatencyPs += now - tAllocPs[m];
        missesCompleted++;
        tSharers[m] = sh; // the incoming line's L1 sharers, given to its way at the swap
        beginSwap(m);
    }

    /**
     * Chooses the victim now (LRU at swap time: the victim lived on while the fetch was in flight) and swaps
     * it with the entry in {@code swapCycles}. If every way of the set is transient the entry waits.
     */
    private boolean beginSwap(int m) {
        int set = tSet[m];
        int way = t.freeWay(set);
        if (way < 0) {
            long cand = t.candidates(set);
            if (cand == 0) {
                tPhase[m] = SWAP_WAIT;
                swapWaiting++;
                return false;
            }
            way = victimWay(set, cand);
            lockVictim(m, set * t.ways + way);
        } else t.locked[set * t.ways + way] = true;
        tWay[m] = way;
        tPhase[m] = SWAP;
        swaps++;
        engine.schedule(engine.now() + swapPs, this, EV_SWAP_DONE, m);
        return true;
    }

    /** The incoming block is in the L2 way, the victim in the entry: requests merged meanwhile are answered. */
    private void swapDone(int m) {
        long now = engine.now();
        int set = tSet[m], way = tWay[m];
        int i = set * t.ways + way;
        t.setTag(i, tLine[m]);
        t.valid[i] = tPending[m] | tWrite[m];
        t.dirty[i] = tWrite[m];
        sharers[i] = tSharers[m];
        t.locked[i] = false;
        repl.onFill(set, way, tLine[m], tStore[m] ? AccessKind.WRITE : AccessKind.READ);
        answer(m, tServed[m], i, now);
        if (tDrop[m]) dropWay(i, tLine[m]); // its frame was evicted meanwhile (dropRange)
        mshrByLine.remove(tLine[m]);
        releaseSet(set);
        if (tVictim[m] == -1) {
            freeTx(m);
            return;
        }
        tPhase[m] = FRC_EVICT;
        evictingByLine.put(tVictim[m], m);
        evictVictim(m);
    }

    private void occupancyTick() {
        long now = engine.now();
        occIntegral += (long) (mshrs - freeMshrs) * (now - occLastPs);
        occLastPs = now;
    }

    private void mlpTick() {
        long now = engine.now();
        if (fetchesInFlight > 0) {
            mlpIntegral += fetchesInFlight * (now - mlpLastPs);
            mlpBusyPs += now - mlpLastPs;
        }
        mlpLastPs = now;
    }

    // ---------------------------------------------------------------- to the fabric

    private void sendAt(MemRequest d, long timePs) {
        if (timePs <= engine.now()) {
            sendNow(d);
            return;
        }
        if (dqSize == 0 || timePs >= delayT[wrap(dqHead + dqSize - 1, delayT.length)]) {
            if (dqSize == delayQ.length) growDelayed();
            int k = wrap(dqHead + dqSize, delayQ.length);
            delayQ[k] = d;
            delayT[k] = timePs;
            if (dqSize++ == 0) engine.schedule(timePs, this, EV_SEND_FIFO, 0);
            return;
        }
        if (freeSends == 0) growSends();
        int s = freeSend[--freeSends];
        sendSlot[s] = d;
        pendingSends++;
        engine.schedule(timePs, this, EV_SEND, s);
    }

    private void respondAt(MemRequest r, long t) {
        if (rqSize == respQ.length) {
            int n = respQ.length;
            MemRequest[] q = new MemRequest[n * 2];
            long[] tt = new long[n * 2];
            for (int k = 0; k < rqSize; k++) {
                q[k] = respQ[(rqHead + k) % n];
                tt[k] = respT[(rqHead + k) % n];
            }
            respQ = q;
            respT = tt;
            rqHead = 0;
        }
        int k = wrap(rqHead + rqSize, respQ.length);
        respQ[k] = r;
        respT[k] = t;
        if (rqSize++ == 0) engine.schedule(t, this, EV_RESPOND, 0);
    }

    private void drainResponses() {
        long now = engine.now();
        while (rqSize > 0 && respT[rqHead] <= now) {
            MemRequest r = respQ[rqHead];
            respQ[rqHead] = null;
            rqHead = wrap(rqHead + 1, respQ.length);
            rqSize--;
            xbar.respond(index, r, now);
        }
        if (rqSize > 0) engine.schedule(respT[rqHead], this, EV_RESPOND, 0);
    }

    private void drainDelayed() {
        long now = engine.now();
        while (dqSize > 0 && delayT[dqHead] <= now) {
            MemRequest d = delayQ[dqHead];
            delayQ[dqHead] = null;
            dqHead = wrap(dqHead + 1, delayQ.length);
            dqSize--;
            sendNow(d);
        }
        if (dqSize > 0) engine.schedule(delayT[dqHead], this, EV_SEND_FIFO, 0);
    }

    private void growDelayed() {
        int n = delayQ.length;
        MemRequest[] q = new MemRequest[n * 2];
        long[] tt = new long[n * 2];
        for (int k = 0; k < dqSize; k++) {
            q[k] = delayQ[(dqHead + k) % n];
            tt[k] = delayT[(dqHead + k) % n];
        }
        delayQ = q;
        delayT = tt;
        dqHead = 0;
    }

    private void sendNow(MemRequest d) {
        if (fqSize == 0 && fabric.tryAccept(d, this)) {
            left(d);
            return;
        }
        fabricRefusals++;
        if (fqSize == fabricQ.length) {
            MemRequest[] q = new MemRequest[fqSize * 2];
            for (int k = 0; k < fqSize; k++) q[k] = fabricQ[(fqHead + k) % fabricQ.length];
            fabricQ = q;
            fqHead = 0;
        }
        fabricQ[wrap(fqHead + fqSize, fabricQ.length)] = d;
        fqSize++;
    }

    @Override
    public void onSpaceAvailable(MemSink sink) {
        while (fqSize > 0 && fabric.tryAccept(fabricQ[fqHead], this)) {
            left(fabricQ[fqHead]);
            fabricQ[fqHead] = null;
            fqHead = wrap(fqHead + 1, fabricQ.length);
            fqSize--;
        }
    }

    private void growSends() {
        int n = sendSlot.length;
        sendSlot = java.util.Arrays.copyOf(sendSlot, n * 2);
        freeSend = java.util.Arrays.copyOf(freeSend, n * 2);
        for (int k = n * 2 - 1; k >= n; k--) freeSend[freeSends++] = k;
    }

    // ---------------------------------------------------------------- views and stats

    @Override
    public String name() { return name; }

    @Override
    public int sets() { return t.sets; }

    @Override
    public int ways() { return t.ways; }

    @Override
    public int lineBytes() { return t.lineBytes; }

    @Override
    public int mshrs() { return mshrs; }

    @Override
    public long hits() { return hits; }

    @Override
    public long misses() { return misses; }

    public long writebacks() { return writebacks; }

    /** Read look-ups that did not hit, every attempt counted (see the {@code lookup_misses} statistic). */
    public long lookupMisses() { return lookupMisses; }

    /**
     * Every tag look-up: reads and atomics that hit, every read attempt that did not (a NACKed request's re-send and
     * a waiting one's re-run included), and writes; what the slice's energy counts.
     */
    public long accesses() { return hits + lookupMisses + writeHits + writeMisses; }

    /** Clean victims whose eviction sent a notice and waited for its acknowledgement ({@code l2.evict_notice}). */
    public long evictNotices() { return evictNotices; }

    public long mshrMerges() { return merges; }

    public long sectorMisses() { return sectorMisses; }

    public int mshrsInUse() { return mshrs - freeMshrs; }

    /** Read misses whose fetch went into an FRC entry (seed 003 Fig. 5.7). */
    public long frcMisses() { return frcMisses; }

    /** FRC tag look-ups (L2 tag misses while an FRC is configured). */
    public long frcLookups() { return frcLookups; }

    public long frcSwaps() { return swaps; }

    /** Read misses served by the victim cache. */
    public long vcHits() { return vcHits; }

    /** FRC entries of this bank (0: conventional miss path). */
    public int frcEntries() { return frc == null ? 0 : frc.entries; }

    public long nacks() { return nacks; }

    /** Sum over read misses of the time spent evicting the victim before the fetch could leave, ps. */
    public long evictLatencyPs() { return evictLatencyPs; }

    /** Sum over fetches of the time from leaving the bank to the last data arriving, ps. */
    public long fetchLatencyPs() { return fetchLatencyPs; }

    public long fetchesTimed() { return fetchesTimed; }

    /** Integral of fetches in flight over time, and the time any fetch was in flight (MLP = ratio), ps. */
    public long mlpIntegralPs() {
        mlpTick();
        return mlpIntegral;
    }

    public long mlpBusyPs() {
        mlpTick();
        return mlpBusyPs;
    }

    /** Average time from MSHR allocation to the data reaching its requesters, ps. */
    public double averageMissLatencyPs() { return missesCompleted == 0 ? 0 : (double) missLatencyPs / missesCompleted; }

    @Override
    public int inFlight() {
        return qSize + replay.size() + parked.size() + (mshrs - freeMshrs) + (frc == null ? 0 : frc.busy())
                + pendingSends + dqSize + fqSize + rqSize;
    }

    /**
     * Writes every dirty line back (its dirty sectors leave through the normal write-back path, as a dirty
     * victim's do) and invalidates every line: what a change of coherence protocol requires before the new
     * protocol starts from empty caches (DESIGN §6, live swap). Only at a drained safe point
     * ({@link #inFlight()} == 0, so no way is locked by a fill). Returns {dirty lines written back, lines
     * invalidated}; the write-backs are in flight afterwards and count in {@code writebacks}.
     */
    public long[] writeBackAndInvalidateAll() {
        if (inFlight() != 0) throw new IllegalStateException(name + ": flush with " + inFlight() + " requests in flight");
        long written = 0, invalidated = 0;
        for (int i = 0; i < t.tag.length; i++) {
            if (t.valid[i] == 0) continue;
            if (t.dirty[i] != 0) {
                postWrite(t.tag[i], t.dirty[i]);
                written++;
            }
            t.invalidate(i);
            sharers[i] = 0;
            invalidated++;
        }
        if (vc != null) vc = new VictimCache(vc.capacity); // clean lines: nothing to write
        return new long[] {written, invalidated};
    }

    /**
     * Drops this slice's lines of the physical range [{@code base}, {@code base + bytes}) and their L1 copies:
     * unified memory evicted the page held in that frame (seed 002), so its lines must not hit for the page the
     * frame receives next. Dirty lines leave with the page's device-to-host copy (the copy engine reads through
     * the L2), so they are dropped here, not written back into the frame. The victim cache's copies go too. A
     * line with a fill (or a store's install) in flight is marked: its transaction answers its waiters and then
     * invalidates the line instead of keeping it. A way locked as an eviction's victim is leaving anyway.
     * Returns {lines dropped, of which dirty}.
     */
    public long[] dropRange(long base, long bytes) {
        long dropped = 0, dirty = 0;
        for (long line = t.lineOf(base); line < base + bytes; line += t.lineBytes) {
            if (vc != null) vc.drop(line);
            int m = mshrByLine.get(line);
            if (m >= 0) tDrop[m] = true;
            int set = t.setOf(line);
            int w = t.find(set, line);
            if (w < 0) continue;
            int i = set * t.ways + w;
            if (t.locked[i]) continue;
            if (t.dirty[i] != 0) dirty++;
            dropWay(i, line);
            dropped++;
        }
        return new long[] {dropped, dirty};
    }

    /**
     * Invalidates way {@code i} (holding {@code line}) here and in the L1s that share it. Their dirty data (a write-back
     * L1's) is dropped with the line: this serves frames that leave the GPU, and the machine refuses write-back L1s
     * where frames do (unified memory, a CPU).
     */
    private void dropWay(int i, long line) {
        if (sharers[i] != 0) upper.invalidate(line, sharers[i]);
        t.invalidate(i);
        sharers[i] = 0;
    }

    /**
     * Lines of the physical range [{@code base}, {@code base + bytes}) this slice still holds: in a way (valid
     * or claimed by a fill), in the victim cache, or with a transaction in flight that will install one (a
     * transaction marked to drop its line on completion does not count). For checks, not the hot path.
     */
    public int linesHeld(long base, long bytes) {
        int n = 0;
        for (long line = t.lineOf(base); line < base + bytes; line += t.lineBytes) {
            int m = mshrByLine.get(line);
            if (t.find(t.setOf(line), line) >= 0 && (m < 0 || !tDrop[m])) n++;
            else if (m >= 0 && !tDrop[m] && (tWay[m] >= 0 || tFrc[m] >= 0)) n++;
            else if (vc != null && vc.contains(line)) n++;
        }
        return n;
    }

    @Override
    public void registerStats(Stats s) {
        s.counter("hits", "read/atomic requests whose sectors were all present", () -> hits);
        s.counter("misses", "read/atomic requests that started a fetch (MSHR or FRC entry)", () -> misses);
        s.counter("sector_misses", "32 B sectors fetched from memory", () -> sectorMisses);
        s.counter("write_hits", "writes to a present line or to a line in flight", () -> writeHits);
        s.counter("write_misses", "writes that allocated a line without fetching (or were posted)", () -> writeMisses);
        s.counter("mshr_merges", "requests merged into a transaction already pending for the line", () -> merges);
        s.counter("nacks", "requests answered with a NACK because every MSHR (or the line's merge slots) was busy; the L1 retries", () -> nacks);
        s.counter("merge_full_nacks", "of the NACKs, those for a line whose MSHR had no merge slot left", () -> mergeNacks);
        s.counter("mshr_full_stalls", "times the input queue stalled because every MSHR was busy (requests that cannot be NACKed)", () -> mshrFullStalls);
        s.counter("mshr_merge_full_stalls", "times the input queue stalled because an MSHR's merge slots were full", () -> mergeFullStalls);
        s.counter("mshr_stall_cycles", "cycles the input queue stalled (MSHRs, merge slots, full set-wait list)", () -> mshrStallCycles);
        s.counter("set_locked_stalls", "requests that waited because every way of their set was transient (or their line was being evicted)", () -> setLockedStalls);
        s.counter("set_locked_stall_cycles", "cycles requests waited for a way of their set to be released (summed over requests)", () -> parked.waitedPs / periodPs);
        s.counter("lookup_misses", "read look-ups that did not hit, every attempt counted (a NACKed request's re-send, a parked one's re-run, a merge): "
                + "Multi2Sim's report \"Misses\" (accesses - hits), which seed 003's simulator counts so", this::lookupMisses);
        s.counter("evictions", "valid victims evicted (invalidation, then write-back if dirty)", () -> evictions);
        s.counter("invalidations", "victims whose L1 copies were invalidated first", () -> invalidations);
        s.counter("evict_notices", "clean victims whose eviction waited for the memory side's acknowledgement (l2.evict_notice)", this::evictNotices);
        s.counter("writebacks", "dirty victims (and posted writes) sent to memory", () -> writebacks);
        s.counter("writeback_bytes", "bytes of dirty sectors written back", () -> writebackBytes);
        s.counter("fetch_bytes", "bytes fetched from memory (32 B x sectors)", () -> fetchBytes);
        s.counter("fabric_refusals", "sends refused by the fabric (held and retried)", () -> fabricRefusals);
        s.counter("uncached_requests", "read requests to lines the cacheability policy forbids to allocate (seed 000 Ch. 6)", () -> uncachedRequests);
        s.counter("uncached_widened", "further sectors added to an uncached line's fetch before it left the slice (one request header, seed 000 §6.2.2.3)", () -> widenedFetches);
        s.counter("uncached_merges", "of those, requests merged into a pending fetch (cacheless L2 coalescing across SMs, seed 000 §6.2.2.1)", () -> uncachedMerges);
        s.counter("frc_misses", "read misses whose fetch went into an FRC entry (seed 003 §M7)", () -> frcMisses);
        s.counter("frc_fallbacks", "misses that found their FRC set full and took the conventional path", () -> frcFallbacks);
        s.counter("frc_swaps", "FRC entry / L2 way swaps", () -> swaps);
        s.counter("frc_lookups", "FRC tag look-ups (every L2 tag miss while an FRC is configured; seed 003 §6.6.4 energy)", () -> frcLookups);
        s.counter("vc_hits", "read misses in the L2 tags served by the victim cache (not counted in misses)", () -> vcHits);
        s.counter("vc_inserts", "victims put into the victim cache", () -> vcInserts);
        s.counter("frc_store_allocs", "store misses allocated through an FRC entry", () -> frcStoreAllocs);
        s.counter("evict_latency_ps", "sum over read misses of the eviction part of the miss latency (victim invalidation + write-back before the fetch)", () -> evictLatencyPs);
        s.counter("fetch_latency_ps", "sum over fetches of the fetch part (bank to memory and back)", () -> fetchLatencyPs);
        s.counter("fetches", "fetches whose latency is in fetch_latency_ps", () -> fetchesTimed);
        s.counter("mshr_occupancy_ps", "integral of MSHRs in use over time (entries x ps); / sim time = mean occupancy", () -> {
            occupancyTick();
            return occIntegral;
        });
        s.counter("mlp_integral_ps", "integral of fetches in flight over time (fetches x ps)", this::mlpIntegralPs);
        s.counter("mlp_busy_ps", "time at least one fetch was in flight", this::mlpBusyPs);
        s.gauge("mlp", "memory-level parallelism: mean fetches in flight while any is", () -> {
            long b = mlpBusyPs();
            return b == 0 ? 0 : (double) mlpIntegralPs() / b;
        });
        s.gauge("avg_miss_latency_ps", "mean time from a miss to its data reaching the requesters", this::averageMissLatencyPs);
        s.gauge("avg_evict_latency_ps", "mean eviction part of a read miss's (or victim-cache hit's) latency", () -> misses + vcHits == 0 ? 0 : (double) evictLatencyPs / (misses + vcHits));
        s.gauge("avg_fetch_latency_ps", "mean fetch part of a miss's latency", () -> fetchesTimed == 0 ? 0 : (double) fetchLatencyPs / fetchesTimed);
        s.gauge("frc_share", "share of read misses served by FRC entries", () -> misses == 0 ? 0 : (double) frcMisses / misses);
        s.gauge("hit_rate", "hits / (hits + misses) of reads", () -> hits + misses == 0 ? 0 : (double) hits / (hits + misses));
    }
}
