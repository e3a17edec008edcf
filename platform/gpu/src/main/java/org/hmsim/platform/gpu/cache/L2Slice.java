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
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.xbar.Crossbar;

import static org.hmsim.platform.gpu.cache.L2Transactions.EVICT;
import static org.hmsim.platform.gpu.cache.L2Transactions.FETCH;
import static org.hmsim.platform.gpu.cache.L2Transactions.FREE;
import static org.hmsim.platform.gpu.cache.L2Transactions.SWAP;
import static org.hmsim.platform.gpu.cache.L2Transactions.SWAP_WAIT;

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
    static final int EV_PROCESS = 0, EV_SEND = 1, EV_SEND_FIFO = 2, EV_RESPOND = 3,
            EV_EVICT = 4, EV_INV_DONE = 5, EV_SWAP_DONE = 6, EV_VC_FILL = 7, EV_VC_IN = 8;
    private static final int NOT_BLOCKED = 0, BLOCK_MSHR = 1, BLOCK_MERGE = 2, BLOCK_SET = 3;

    final String name;
    final int gpu, index;
    final CacheConfig cfg;
    final Engine engine;
    final long periodPs, latencyPs;
    private final org.hmsim.platform.engine.ClockEdges edges;
    final RequestPool pool;
    final Crossbar xbar;
    UpperLevels upper = UpperLevels.NONE;
    private LongConsumer stores;
    final ReplacementPolicy.State repl;
    private final CacheabilityPolicy cacheability;
    final CoherencePolicy coherence;
    final L2MissPathPolicy missPath;
    final SectorTags t;
    /** Per line: bit (sm & 63) of every SM that read it (the victim's L1 copies to invalidate). */
    final long[] sharers;
    final long invalidatePs;

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

    final int mshrs;
    final L2Stats st = new L2Stats();
    final L2Transactions tx;
    final L2Ports ports;
    private final L2MissPath mp;
    private final L2WriteBack wb;
    private final L2Fetch fetch;
    private final L2Flush flush;

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
        this.edges = new org.hmsim.platform.engine.ClockEdges(periodPs);
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
        queue = new MemRequest[cfg.queueDepth()];
        parked = new SetWaitList(Math.max(64, 2 * cfg.queueDepth()));
        mshrs = cfg.mshrs();
        int merge = cfg.mshrMerge();
        // a no-line transaction keeps one target per L1 (mergeFull)
        tx = new L2Transactions(mshrs, merge, merge * Integer.bitCount(t.fullMask), engine);
        ports = new L2Ports(this, engine, xbar, index, st, tx);
        mp = new L2MissPath(this);
        wb = new L2WriteBack(this);
        fetch = new L2Fetch(this);
        flush = new L2Flush(this);
        mp.wire(fetch, wb, flush);
        wb.wire(fetch, mp);
        fetch.wire(wb, mp, flush);
        flush.wire(wb, mp);
        mp.configure();
    }

    public void setFabric(MemSink fabric) { ports.fabric = fabric; }

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
        queue[L2Ports.wrap(qHead + qSize, queue.length)] = r;
        qSize++;
        if (blocked != NOT_BLOCKED) return true;
        long now = engine.now();
        if (qSize == 1 && replay.isEmpty() && !processScheduled && now >= lastProcessPs + periodPs && edges.isEdge(now)) {
            // An idle slice serves a request arriving on a clock edge at once: the same cycle the
            // scheduled tick would use, one event fewer per request.
            process();
        } else scheduleProcess();
        return true;
    }

    private void scheduleProcess() {
        if (processScheduled) return;
        processScheduled = true;
        engine.schedule(edges.alignUp(Math.max(engine.now(), lastProcessPs + periodPs)), this, EV_PROCESS, 0);
    }

    @Override
    public void handle(int kind, long payload) {
        switch (kind) {
            case EV_PROCESS -> process();
            case EV_SEND_FIFO -> ports.drainDelayed();
            case EV_RESPOND -> ports.drainResponses();
            case EV_EVICT -> wb.evictVictim((int) payload);
            case EV_INV_DONE -> wb.writeBackVictim((int) payload);
            case EV_SWAP_DONE -> mp.swapDone((int) payload);
            case EV_VC_FILL -> fetch.vcFilled((int) payload);
            case EV_VC_IN -> wb.victimWritten((int) payload);
            default -> ports.sendSlotDue((int) payload);
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
        qHead = L2Ports.wrap(qHead + 1, queue.length);
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
        int m = present && !t.locked[i] ? -1 : tx.byLine.get(line);
        if (present && (!t.locked[i] || m >= 0)) {
            st.hits++;
            if (r.kind == AccessKind.ATOMIC) t.dirty[i] |= need;
            else if (r.sm >= 0) sharers[i] |= 1L << (r.sm & 63);
            repl.onHit(set, way, line, r.kind, r.sm);
            ports.respondAt(r, now + latencyPs);
            return true;
        }
        st.lookupMisses++;
        if (m >= 0) return mergeRead(r, m, set, need, i);
        if (i >= 0 && t.locked[i]) return park(r, set); // its line is being evicted (§M6: wait for the release)
        if (i < 0 && mp.evictedFromFrc(line)) return park(r, set);
        mp.configure();
        boolean allocate = i < 0 && cacheability.mayAllocate(2, r);
        if (i < 0 && mp.frc != null) st.frcLookups++;
        boolean fellBack = false; // counted once the conventional path takes the miss: a parked or NACKed one comes back
        if (allocate && mp.frc != null && (!mp.frc.takesMshr || tx.freeMshrs > 0)) {
            int e = mp.frc.allocate(mp.frcLine(line));
            if (e >= 0) {
                mp.frcFetch(r, line, set, e, need);
                return true;
            }
            fellBack = true;
        }
        long cand = 0; // the set's replacement candidates, scanned once (nothing below changes them before use)
        if (i < 0 && allocate) {
            way = t.freeWay(set);
            if (way < 0 && (cand = t.candidates(set)) == 0) {
                st.setLockedStalls++;
                return park(r, set);
            }
        }
        if (tx.freeMshrs == 0) return refuse(r, BLOCK_MSHR);
        if (fellBack) st.frcFallbacks++;
        tx.pendingVc = i < 0 && mp.vc != null ? mp.vc.take(line) : 0; // the VC gives the line back instead of memory
        if (tx.pendingVc != 0) st.vcHits++;
        else st.misses++;
        if (i >= 0 || !allocate) { // a sector miss on a present line, or an access that leaves no line
            if (i >= 0) t.locked[i] = true;
            m = tx.alloc(line, set, i >= 0 ? way : -1);
            tx.refill[m] = i >= 0;
            tx.addWaiter(m, r);
            int ask = need & ~(i >= 0 ? t.valid[i] : 0);
            if (i < 0) { // selective caching (seed 000 §6.2.2): coalesce here or not; 32 B or line-sized transfer
                st.uncachedRequests++;
                if (r.sm >= 0) tx.sms[m] = 1L << (r.sm & 63);
                if (!cacheability.mayCoalesce(2, r)) tx.byLine.remove(line);
                if (!cacheability.subBlockTransfers(r)) ask = t.fullMask;
            }
            fetch.startFetch(m, ask, latencyPs);
            return true;
        }
        if (way >= 0) { // an invalid way: nothing to evict
            claim(set * t.ways + way, line);
            m = tx.alloc(line, set, way);
            tx.addWaiter(m, r);
            fetch.startFetch(m, need, latencyPs);
            return true;
        }
        way = wb.victimWay(set, cand);
        m = tx.alloc(line, set, way);
        tx.addWaiter(m, r);
        if (mp.postsNow()) {
            wb.evictPosted(set * t.ways + way);
            claim(set * t.ways + way, line);
            fetch.startFetch(m, need, latencyPs);
            return true;
        }
        tx.want[m] = need;
        tx.phase[m] = EVICT;
        wb.lockVictim(m, set * t.ways + way);
        engine.schedule(now + latencyPs, this, EV_EVICT, m);
        return true;
    }

    /** A read to a line with a transaction in flight: merge into it (§M1), or wait if it cannot cover the read. */
    private boolean mergeRead(MemRequest r, int m, int set, int need, int i) {
        if (tx.mergeFull(m, r)) return refuse(r, BLOCK_MERGE);
        int ph = tx.phase[m];
        boolean arrived = ph == SWAP_WAIT || ph == SWAP || (tx.store[m] && ph == EVICT);
        if (arrived && (need & ~(tx.pending[m] | tx.write[m])) != 0) return park(r, set);
        st.merges++;
        if (tx.way[m] < 0 && tx.frc[m] < 0) { // a transaction that leaves no line: cacheless L1+L2 coalescing
            long smBit = r.sm >= 0 ? 1L << (r.sm & 63) : 0;
            if ((tx.sms[m] & smBit) == 0) { // another SM's request (not the same L1 asking for more sectors)
                st.uncachedRequests++;
                st.uncachedMerges++;
                tx.sms[m] |= smBit;
            }
            if (r.kind == AccessKind.READ && ph == FETCH && (need & ~tx.arrived[m]) == 0) {
                ports.respondAt(r, engine.now() + latencyPs); // its sectors already arrived: from the MSHR's data latch
                return true;
            }
        }
        tx.addWaiter(m, r);
        if (ph == FETCH) {
            int extra = need & ~tx.pending[m] & ~(i >= 0 ? t.valid[i] : 0);
            if (extra != 0 && !fetch.widenUnsent(m, extra)) fetch.fetch(m, extra, latencyPs);
        } else if (ph == EVICT) tx.want[m] |= need;
        return true;
    }

    // ---------------------------------------------------------------- writes

    private boolean write(MemRequest r, long line, int set, int way, int need) {
        long now = engine.now();
        int i = way < 0 ? -1 : set * t.ways + way;
        int m = tx.byLine.get(line);
        if (m >= 0) { // into the line in flight: its fill, install or swap applies the sectors
            tx.write[m] |= need;
            st.writeHits++;
            st.writeMerges++; // counted apart too: write_hits alone cannot tell this from a present line
        } else if (i >= 0 && t.locked[i]) {
            return park(r, set); // its line is being evicted
        } else if (i >= 0) {
            // a present line: also where a store finds a line that, in program order, LRU would have evicted already,
            // when its previous store was NACKed and re-sent after younger stores to its set (the L1 sends new requests
            // past its re-send queue, L1Cache.sentPastResends): the tags follow the order this slice serves
            t.valid[i] |= need;
            t.dirty[i] |= need;
            st.writeHits++;
            repl.onHit(set, way, line, r.kind, r.sm);
        } else if (mp.evictedFromFrc(line)) {
            return park(r, set);
        } else {
            if (mp.vc != null) mp.vc.drop(line); // its clean copy there is stale now
            if (mp.frc != null) st.frcLookups++;
            if (cacheability.mayAllocate(2, r)) {
                if (!allocateForStore(r, line, set, need)) return parkedOrRefused;
            } else {
                st.writeMisses++;
                wb.postWrite(line, need);
            }
        }
        // non-blocking stores (§M3): acknowledged after the tag lookup even while their line is evicting
        if (r.kind == AccessKind.WRITEBACK || r.replyTo == null) pool.give(r);
        else ports.respondAt(r, now + latencyPs);
        return true;
    }

    /** What {@link #allocateForStore} did when it returned false: true = parked or NACKed, false = blocked. */
    private boolean parkedOrRefused;

    /** A store miss that allocates: an invalid way, else an FRC entry, else a conventional eviction. */
    private boolean allocateForStore(MemRequest r, long line, int set, int need) {
        mp.configure();
        int way = t.freeWay(set);
        if (way >= 0) {
            storeInto(set, way, line, need);
            return true;
        }
        if (mp.frc != null) {
            int e = mp.frc.allocate(mp.frcLine(line));
            if (e >= 0) {
                int m = tx.init(mshrs + e, line, set, -1, e);
                tx.store[m] = true;
                tx.write[m] = need;
                st.writeMisses++;
                st.frcStoreAllocs++;
                mp.beginSwap(m);
                return true;
            }
        }
        long cand = t.candidates(set);
        if (cand == 0) {
            st.setLockedStalls++;
            parkedOrRefused = park(r, set);
            return false;
        }
        if (mp.postsNow()) { // the victim leaves at once and the store takes its way: no transaction (no FRC either)
            way = wb.victimWay(set, cand);
            wb.evictPosted(set * t.ways + way);
            storeInto(set, way, line, need);
            return true;
        }
        if (tx.freeMshrs == 0) {
            parkedOrRefused = refuse(r, BLOCK_MSHR);
            return false;
        }
        if (mp.frc != null) st.frcFallbacks++; // its set was full (it returned above otherwise), and it is taken now
        way = wb.victimWay(set, cand);
        int m = tx.alloc(line, set, way);
        tx.store[m] = true;
        tx.write[m] = need;
        tx.phase[m] = EVICT;
        st.writeMisses++;
        wb.lockVictim(m, set * t.ways + way);
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
        wb.postWrite(line, sectors);
    }

    /** A store miss's line takes way {@code way} at once, holding just the sectors written. */
    private void storeInto(int set, int way, long line, int need) {
        int i = set * t.ways + way;
        claim(i, line);
        t.locked[i] = false;
        t.valid[i] = need;
        t.dirty[i] = need;
        st.writeMisses++;
        repl.onFill(set, way, line, AccessKind.WRITE);
    }

    /** Way {@code i} now belongs to {@code line} with no data yet (locked until its fill). */
    void claim(int i, long line) {
        t.setTag(i, line);
        t.valid[i] = 0;
        t.dirty[i] = 0;
        t.locked[i] = true;
        sharers[i] = 0;
    }

    /** A request that cannot take an MSHR (or merge slot): NACKed to an L1 that will retry, else the queue stalls. */
    private boolean refuse(MemRequest r, int reason) {
        if (r.replyTo != null && r.sm >= 0 && r.kind != AccessKind.WRITEBACK) {
            st.nacks++;
            if (reason == BLOCK_MERGE) st.mergeNacks++;
            r.nacked = true;
            ports.respondAt(r, engine.now() + latencyPs);
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
    void releaseSet(int set) {
        if (parked.size() > 0) {
            parked.release(set, replay, engine.now());
            if (!replay.isEmpty()) scheduleProcess();
        }
        if (mp.swapWaiting > 0) mp.resumeSwaps(set);
        if (blocked != NOT_BLOCKED) unblock();
    }

    private boolean block(int reason) {
        blocked = reason;
        blockedSincePs = engine.now();
        switch (reason) {
            case BLOCK_MSHR -> st.mshrFullStalls++;
            case BLOCK_MERGE -> st.mergeFullStalls++;
            default -> st.setLockedStalls++;
        }
        return false;
    }

    void unblockIfBlocked() {
        if (blocked != NOT_BLOCKED) unblock();
    }

    private void unblock() {
        st.mshrStallCycles += (engine.now() - blockedSincePs) / periodPs;
        blocked = NOT_BLOCKED;
        if (qSize > 0 || !replay.isEmpty()) scheduleProcess();
    }

    void freeTx(int m) {
        tx.phase[m] = FREE;
        if (m < mshrs) {
            tx.returnMshr(m);
        } else mp.frc.free(tx.frc[m]);
        tx.frc[m] = -1;
        if (blocked != NOT_BLOCKED) unblock();
    }

    @Override
    public void onResponse(MemRequest d) { fetch.onResponse(d); }

    /** An L1's acknowledgement arrived, with the dirty sectors its copy held: the victim takes them (written back). */
    @Override
    public void invalidationAcked(int m, int dirty) { wb.invalidationAcked(m, dirty); }

    @Override
    public void onSpaceAvailable(MemSink sink) { ports.onSpaceAvailable(); }

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
    public long hits() { return st.hits; }

    @Override
    public long misses() { return st.misses; }

    public long writebacks() { return st.writebacks; }

    /** Read look-ups that did not hit, every attempt counted (see the {@code lookup_misses} statistic). */
    public long lookupMisses() { return st.lookupMisses; }

    /**
     * Every tag look-up: reads and atomics that hit, every read attempt that did not (a NACKed request's re-send and
     * a waiting one's re-run included), and writes; what the slice's energy counts.
     */
    public long accesses() { return st.accesses(); }

    /** Clean victims whose eviction sent a notice and waited for its acknowledgement ({@code l2.evict_notice}). */
    public long evictNotices() { return st.evictNotices; }

    public long mshrMerges() { return st.merges; }

    public long sectorMisses() { return st.sectorMisses; }

    public int mshrsInUse() { return tx.inUse(); }

    /** Read misses whose fetch went into an FRC entry (seed 003 Fig. 5.7). */
    public long frcMisses() { return st.frcMisses; }

    /** FRC tag look-ups (L2 tag misses while an FRC is configured). */
    public long frcLookups() { return st.frcLookups; }

    public long frcSwaps() { return st.swaps; }

    /** Read misses served by the victim cache. */
    public long vcHits() { return st.vcHits; }

    /** FRC entries of this bank (0: conventional miss path). */
    public int frcEntries() { return mp.frc == null ? 0 : mp.frc.entries; }

    public long nacks() { return st.nacks; }

    /** Sum over read misses of the time spent evicting the victim before the fetch could leave, ps. */
    public long evictLatencyPs() { return st.evictLatencyPs; }

    /** Sum over fetches of the time from leaving the bank to the last data arriving, ps. */
    public long fetchLatencyPs() { return st.fetchLatencyPs; }

    public long fetchesTimed() { return st.fetchesTimed; }

    /** Integral of fetches in flight over time, and the time any fetch was in flight (MLP = ratio), ps. */
    public long mlpIntegralPs() { return fetch.mlpIntegralPs(); }

    public long mlpBusyPs() { return fetch.mlpBusyPs(); }

    /** Average time from MSHR allocation to the data reaching its requesters, ps. */
    public double averageMissLatencyPs() { return st.averageMissLatencyPs(); }

    long setLockedStallCycles() { return parked.waitedPs / periodPs; }

    long mshrOccupancyPs() { return tx.occupancyPs(); }

    @Override
    public int inFlight() {
        return qSize + replay.size() + parked.size() + tx.inUse() + (mp.frc == null ? 0 : mp.frc.busy()) + ports.inFlight();
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
        return flush.writeBackAndInvalidateAll();
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
    public long[] dropRange(long base, long bytes) { return flush.dropRange(base, bytes); }

    /**
     * Lines of the physical range [{@code base}, {@code base + bytes}) this slice still holds: in a way (valid
     * or claimed by a fill), in the victim cache, or with a transaction in flight that will install one (a
     * transaction marked to drop its line on completion does not count). For checks, not the hot path.
     */
    public int linesHeld(long base, long bytes) { return flush.linesHeld(base, bytes); }

    @Override
    public void registerStats(Stats s) { st.register(s, this); }
}
