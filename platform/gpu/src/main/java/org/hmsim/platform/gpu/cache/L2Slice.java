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

import static org.hmsim.platform.gpu.cache.L2Transactions.EVICT;
import static org.hmsim.platform.gpu.cache.L2Transactions.FETCH;
import static org.hmsim.platform.gpu.cache.L2Transactions.FREE;
import static org.hmsim.platform.gpu.cache.L2Transactions.FRC_EVICT;
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
    /** Set in a write-back's tag: it is the acknowledged write-back of transaction (tag & mask). */
    private static final long WB_ACK = 1L << 40;

    private final String name;
    private final int gpu, index;
    private final CacheConfig cfg;
    private final Engine engine;
    private final long periodPs, latencyPs;
    private final RequestPool pool;
    private final Crossbar xbar;
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

    private final int mshrs;
    private final L2Stats st = new L2Stats();
    private final L2Transactions tx;
    private final L2Ports ports;

    /** The victims FRC entries are evicting (FRC_EVICT), by line: a request for one waits as for a locked way. */
    private LongIntMap evictingByLine;
    private FetchReplacementCache frc;
    private VictimCache vc;
    private long swapPs, frcLookupPs, vcPs;
    private int swapWaiting;
    // memory-level parallelism: fetches in flight, integrated over time, and the time any was in flight
    private int fetchesInFlight;
    private long mlpIntegral, mlpBusyPs, mlpLastPs;

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
        int merge = cfg.mshrMerge();
        // a no-line transaction keeps one target per L1 (mergeFull)
        tx = new L2Transactions(mshrs, merge, merge * Integer.bitCount(t.fullMask), engine);
        ports = new L2Ports(this, engine, xbar, index, st, tx);
        configureMissPath();
    }

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
        tx.grow(mshrs + n);
        tx.reindex(mshrs + n);
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
        if (qSize == 1 && replay.isEmpty() && !processScheduled && now >= lastProcessPs + periodPs && now % periodPs == 0) {
            // An idle slice serves a request arriving on a clock edge at once: the same cycle the
            // scheduled tick would use, one event fewer per request.
            process();
        } else scheduleProcess();
        return true;
    }

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
            case EV_SEND_FIFO -> ports.drainDelayed();
            case EV_RESPOND -> ports.drainResponses();
            case EV_EVICT -> evictVictim((int) payload);
            case EV_INV_DONE -> writeBackVictim((int) payload);
            case EV_SWAP_DONE -> swapDone((int) payload);
            case EV_VC_FILL -> vcFilled((int) payload);
            case EV_VC_IN -> victimWritten((int) payload);
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
        if (i < 0 && evictedFromFrc(line)) return park(r, set);
        configureMissPath();
        boolean allocate = i < 0 && cacheability.mayAllocate(2, r);
        if (i < 0 && frc != null) st.frcLookups++;
        if (allocate && frc != null && (!frc.takesMshr || tx.freeMshrs > 0)) {
            int e = frc.allocate(frcLine(line));
            if (e >= 0) {
                frcFetch(r, line, set, e, need);
                return true;
            }
            st.frcFallbacks++;
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
        tx.pendingVc = i < 0 && vc != null ? vc.take(line) : 0; // the VC gives the line back instead of memory
        if (tx.pendingVc != 0) st.vcHits++;
        else st.misses++;
        if (i >= 0 || !allocate) { // a sector miss on a present line, or an access that leaves no line
            if (i >= 0) t.locked[i] = true;
            m = tx.alloc(line, set, i >= 0 ? way : -1);
            tx.addWaiter(m, r);
            int ask = need & ~(i >= 0 ? t.valid[i] : 0);
            if (i < 0) { // selective caching (seed 000 §6.2.2): coalesce here or not; 32 B or line-sized transfer
                st.uncachedRequests++;
                if (r.sm >= 0) tx.sms[m] = 1L << (r.sm & 63);
                if (!cacheability.mayCoalesce(2, r)) tx.byLine.remove(line);
                if (!cacheability.subBlockTransfers(r)) ask = t.fullMask;
            }
            startFetch(m, ask, latencyPs);
            return true;
        }
        if (way >= 0) { // an invalid way: nothing to evict
            claim(set * t.ways + way, line);
            m = tx.alloc(line, set, way);
            tx.addWaiter(m, r);
            startFetch(m, need, latencyPs);
            return true;
        }
        way = victimWay(set, cand);
        m = tx.alloc(line, set, way);
        tx.addWaiter(m, r);
        if (postsNow()) {
            evictPosted(set * t.ways + way);
            claim(set * t.ways + way, line);
            startFetch(m, need, latencyPs);
            return true;
        }
        tx.want[m] = need;
        tx.phase[m] = EVICT;
        lockVictim(m, set * t.ways + way);
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
            if (extra != 0 && !widenUnsent(m, extra)) fetch(m, extra, latencyPs);
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
        } else if (i >= 0 && t.locked[i]) {
            return park(r, set); // its line is being evicted
        } else if (i >= 0) {
            t.valid[i] |= need;
            t.dirty[i] |= need;
            st.writeHits++;
            repl.onHit(set, way, line, r.kind, r.sm);
        } else if (evictedFromFrc(line)) {
            return park(r, set);
        } else {
            if (vc != null) vc.drop(line); // its clean copy there is stale now
            if (frc != null) st.frcLookups++;
            if (cacheability.mayAllocate(2, r)) {
                if (!allocateForStore(r, line, set, need)) return parkedOrRefused;
            } else {
                st.writeMisses++;
                postWrite(line, need);
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
        configureMissPath();
        int way = t.freeWay(set);
        if (way >= 0) {
            storeInto(set, way, line, need);
            return true;
        }
        if (frc != null) {
            int e = frc.allocate(frcLine(line));
            if (e >= 0) {
                int m = tx.init(mshrs + e, line, set, -1, e);
                tx.store[m] = true;
                tx.write[m] = need;
                st.writeMisses++;
                st.frcStoreAllocs++;
                beginSwap(m);
                return true;
            }
            st.frcFallbacks++;
        }
        long cand = t.candidates(set);
        if (cand == 0) {
            st.setLockedStalls++;
            parkedOrRefused = park(r, set);
            return false;
        }
        if (postsNow()) { // the victim leaves at once and the store takes its way: no transaction
            way = victimWay(set, cand);
            evictPosted(set * t.ways + way);
            storeInto(set, way, line, need);
            return true;
        }
        if (tx.freeMshrs == 0) {
            parkedOrRefused = refuse(r, BLOCK_MSHR);
            return false;
        }
        way = victimWay(set, cand);
        int m = tx.alloc(line, set, way);
        tx.store[m] = true;
        tx.write[m] = need;
        tx.phase[m] = EVICT;
        st.writeMisses++;
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
        st.evictions++;
        int dirty = t.dirty[i];
        if (sharers[i] != 0) {
            dirty |= upper.invalidate(t.tag[i], sharers[i]);
            st.invalidations++;
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
        st.writeMisses++;
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
        tx.victim[m] = t.tag[i];
        tx.victimDirty[m] = t.dirty[i];
        tx.victimSharers[m] = sharers[i];
        t.locked[i] = true;
        st.evictions++;
    }

    /** A write-back of {@code sectors} of {@code line} to memory; nobody waits for it. */
    private void postWrite(long line, int sectors) {
        MemRequest w = writeBack(line, sectors);
        ports.sendNow(w);
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
        if (sectors == 0) st.evictNotices++;
        else {
            st.writebacks++;
            st.writebackBytes += w.size;
        }
        return w;
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
    private void releaseSet(int set) {
        if (parked.size() > 0) {
            parked.release(set, replay, engine.now());
            if (!replay.isEmpty()) scheduleProcess();
        }
        if (swapWaiting > 0) {
            int n = mshrs + (frc == null ? 0 : frc.entries);
            for (int m = mshrs; m < n && swapWaiting > 0; m++) {
                if (tx.phase[m] != SWAP_WAIT || tx.set[m] != set) continue;
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
            case BLOCK_MSHR -> st.mshrFullStalls++;
            case BLOCK_MERGE -> st.mergeFullStalls++;
            default -> st.setLockedStalls++;
        }
        return false;
    }

    private void unblock() {
        st.mshrStallCycles += (engine.now() - blockedSincePs) / periodPs;
        blocked = NOT_BLOCKED;
        if (qSize > 0 || !replay.isEmpty()) scheduleProcess();
    }

    private void freeTx(int m) {
        tx.phase[m] = FREE;
        if (m < mshrs) {
            tx.returnMshr(m);
        } else frc.free(tx.frc[m]);
        tx.frc[m] = -1;
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
        int m = tx.init(mshrs + e, line, set, -1, e);
        if (frc.takesMshr) { // §8 q1, the other reading: the entry's fetch also holds an MSHR until it arrives
            tx.heldMshr[m] = tx.takeMshr();
        }
        st.misses++;
        st.frcMisses++;
        tx.addWaiter(m, r);
        startFetch(m, need, latencyPs + frcLookupPs);
    }

    private void startFetch(int m, int sectors, long delayPs) {
        tx.phase[m] = FETCH;
        int have = tx.vc[m];
        if (have != 0) { // from the victim cache (its access after the tag look-ups), the rest from memory
            tx.pending[m] |= have;
            tx.outstanding[m]++;
            engine.schedule(engine.now() + delayPs + vcPs, this, EV_VC_FILL, m);
            sectors &= ~have;
            if (sectors == 0) return;
        }
        tx.fetchPs[m] = engine.now() + delayPs;
        mlpTick();
        fetchesInFlight++;
        fetch(m, sectors, delayPs);
    }

    private void fetch(int m, int sectors, long delayPs) {
        MemRequest d = pool.take();
        d.kind = AccessKind.READ;
        d.paddr = tx.line[m];
        d.sectorMask = sectors;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        d.pool = PhysicalAddress.pool(d.paddr);
        d.gpu = gpu;
        d.replyTo = this;
        d.tag = m;
        d.createdPs = engine.now();
        tx.pending[m] |= sectors;
        tx.outstanding[m]++;
        st.sectorMisses += Integer.bitCount(sectors);
        st.fetchBytes += d.size;
        if (tx.way[m] < 0 && tx.frc[m] < 0) tx.unsent[m] = d;
        ports.sendAt(d, engine.now() + delayPs + coherence.onLastLevelMiss(d));
    }

    /** Adds {@code extra} sectors to transaction {@code m}'s fetch if it is still in this slice; false if it left. */
    private boolean widenUnsent(int m, int extra) {
        MemRequest d = tx.unsent[m];
        if (d == null) return false;
        d.sectorMask |= extra;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(d.sectorMask);
        tx.pending[m] |= extra;
        st.sectorMisses += Integer.bitCount(extra);
        st.fetchBytes += SectorTags.SECTOR_BYTES * Integer.bitCount(extra);
        st.widenedFetches++;
        return true;
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
        int way = tx.way[m];
        if (tx.frc[m] < 0 && way >= 0) t.valid[tx.set[m] * t.ways + way] |= sectors;
        if (--tx.outstanding[m] > 0) {
            if (tx.frc[m] < 0 && way < 0 && tx.phase[m] == FETCH) answerArrived(m, sectors);
            return;
        }
        fetched(m);
    }

    /** Every part of transaction {@code m}'s data has arrived. */
    private void fetched(int m) {
        if (tx.fetchPs[m] >= 0) { // a memory fetch (not only the victim cache's sectors)
            mlpTick();
            fetchesInFlight--;
            st.fetchLatencyPs += engine.now() - tx.fetchPs[m];
            st.fetchesTimed++;
        }
        if (tx.frc[m] >= 0) frcArrived(m);
        else complete(m);
    }

    /** The victim cache's sectors of {@code m}'s line are back in its way. */
    private void vcFilled(int m) {
        int have = tx.vc[m];
        tx.vc[m] = 0;
        if (tx.way[m] >= 0) t.valid[tx.set[m] * t.ways + tx.way[m]] |= have;
        if (--tx.outstanding[m] > 0) return;
        fetched(m);
    }

    /** The conventional fill (or a store's install after its eviction): the way is released. */
    private void complete(int m) {
        long now = engine.now();
        int set = tx.set[m], way = tx.way[m];
        int i = way < 0 ? -1 : set * t.ways + way;
        if (i >= 0) {
            t.valid[i] |= tx.write[m];
            t.dirty[i] |= tx.write[m];
            t.locked[i] = false;
            repl.onFill(set, way, tx.line[m], tx.store[m] ? AccessKind.WRITE : AccessKind.READ);
        } else if (tx.write[m] != 0) postWrite(tx.line[m], tx.write[m]);
        answer(m, 0, i, now);
        if (tx.drop[m] && i >= 0) dropWay(i, tx.line[m]); // its frame was evicted meanwhile (dropRange)
        if (!tx.store[m]) {
            st.missLatencyPs += now - tx.allocPs[m];
            st.missesCompleted++;
        }
        if (tx.byLine.get(tx.line[m]) == m) tx.byLine.remove(tx.line[m]); // an uncoalesced one is not in the map
        freeTx(m);
        if (i >= 0) releaseSet(set);
    }

    /**
     * Part of a no-line transaction's sectors arrived (§6.2.2.3): its reads whose sectors are all in are answered
     * now and leave their merge slots free (such a transaction can live through several sub-block fetches).
     */
    private void answerArrived(int m, int sectors) {
        int have = tx.arrived[m] |= sectors, base = tx.waiterBase(m), kept = 0, n = tx.count[m];
        long now = engine.now();
        for (int k = 0; k < n; k++) {
            MemRequest r = tx.waiters[base + k];
            tx.waiters[base + k] = null;
            if (r == null) continue;
            int need = r.sectorMask == 0 ? t.fullMask : r.sectorMask & t.fullMask;
            if (r.kind == AccessKind.READ && (need & ~have) == 0) xbar.respond(index, r, now);
            else tx.waiters[base + kept++] = r;
        }
        tx.count[m] = kept;
        if (kept < n && blocked != NOT_BLOCKED) unblock();
    }

    /** Answers waiters {@code from..} of {@code m}; {@code i} is the line's way (-1: data only in the FRC entry). */
    private void answer(int m, int from, int i, long now) {
        int base = tx.waiterBase(m);
        for (int k = from; k < tx.count[m]; k++) {
            MemRequest r = tx.waiters[base + k];
            if (r == null) continue; // answered when its sectors arrived
            tx.waiters[base + k] = null;
            if (r.kind == AccessKind.ATOMIC) {
                int mask = r.sectorMask == 0 ? t.fullMask : r.sectorMask;
                if (i >= 0) t.dirty[i] |= mask;
                else if (tx.frc[m] >= 0) tx.write[m] |= mask;
                else postWrite(tx.line[m], mask);
            } else if (r.sm >= 0 && i >= 0) sharers[i] |= 1L << (r.sm & 63); // FRC: recorded at the swap
            xbar.respond(index, r, now);
        }
        tx.served[m] = tx.count[m];
    }

    // ---------------------------------------------------------------- eviction (§M6 steps 3-4; §M7 after the swap)

    /** The victim's L1 copies are invalidated first (a crossbar round trip), if any SM read it. */
    private void evictVictim(int m) {
        long sh = tx.victimSharers[m];
        if (sh == 0) {
            writeBackVictim(m);
            return;
        }
        st.invalidations++;
        if (cfg.invalidationMessages()) {
            tx.invPending[m] = xbar.invalidate(index, tx.victim[m], sh, this, m);
            if (tx.invPending[m] == 0) writeBackVictim(m); // no SM port behind the bits (defensive: sharers come from SMs)
            return;
        }
        tx.victimDirty[m] |= upper.invalidate(tx.victim[m], sh);
        engine.schedule(engine.now() + invalidatePs, this, EV_INV_DONE, m);
    }

    /** An L1's acknowledgement arrived, with the dirty sectors its copy held: the victim takes them (written back). */
    @Override
    public void invalidationAcked(int m, int dirty) {
        tx.victimDirty[m] |= dirty;
        if (--tx.invPending[m] == 0) writeBackVictim(m);
    }

    /** Then a dirty victim is written back, and the eviction waits for the write's acknowledgement. */
    private void writeBackVictim(int m) {
        if (vc != null && tx.phase[m] != FRC_EVICT) {
            // into the victim cache (1 cycle); a dirty victim's write-back leaves as it enters, posted
            vc.insert(tx.victim[m], t.valid[tx.set[m] * t.ways + tx.way[m]]);
            st.vcInserts++;
            if (tx.victimDirty[m] != 0) postWrite(tx.victim[m], tx.victimDirty[m]);
            engine.schedule(engine.now() + vcPs, this, EV_VC_IN, m);
            return;
        }
        if (tx.victimDirty[m] == 0 && !cfg.evictNotice()) {
            victimWritten(m);
            return;
        }
        MemRequest w = writeBack(tx.victim[m], tx.victimDirty[m]);
        w.replyTo = this;
        w.tag = WB_ACK | m;
        ports.sendNow(w);
    }

    /** The victim has left: an FRC entry is free again; a conventional way takes its new line. */
    private void victimWritten(int m) {
        if (tx.phase[m] == FRC_EVICT) {
            evictingByLine.remove(tx.victim[m]);
            freeTx(m);
            releaseSet(tx.set[m]); // requests for the victim waited for it to leave
            return;
        }
        long now = engine.now();
        int set = tx.set[m];
        int i = set * t.ways + tx.way[m];
        claim(i, tx.line[m]);
        if (tx.store[m]) {
            complete(m);
            return;
        }
        st.evictLatencyPs += now - tx.allocPs[m] - latencyPs;
        startFetch(m, tx.want[m], 0);
        releaseSet(set); // requests waiting for the victim's own line may now miss on it
    }

    // ---------------------------------------------------------------- FRC arrival and swap (§M7 step 4)

    /** The block is in the FRC entry: its requests are answered from there, then the swap starts. */
    private void frcArrived(int m) {
        long now = engine.now();
        if (tx.heldMshr[m] >= 0) {
            tx.returnMshr(tx.heldMshr[m]);
            tx.heldMshr[m] = -1;
            if (blocked != NOT_BLOCKED) unblock();
        }
        long sh = 0;
        int base = tx.waiterBase(m);
        for (int k = 0; k < tx.count[m]; k++) {
            MemRequest r = tx.waiters[base + k];
            if (r.kind != AccessKind.ATOMIC && r.sm >= 0) sh |= 1L << (r.sm & 63);
        }
        answer(m, 0, -1, now);
        st.missLatencyPs += now - tx.allocPs[m];
        st.missesCompleted++;
        tx.sharers[m] = sh; // the incoming line's L1 sharers, given to its way at the swap
        beginSwap(m);
    }

    /**
     * Chooses the victim now (LRU at swap time: the victim lived on while the fetch was in flight) and swaps
     * it with the entry in {@code swapCycles}. If every way of the set is transient the entry waits.
     */
    private boolean beginSwap(int m) {
        int set = tx.set[m];
        int way = t.freeWay(set);
        if (way < 0) {
            long cand = t.candidates(set);
            if (cand == 0) {
                tx.phase[m] = SWAP_WAIT;
                swapWaiting++;
                return false;
            }
            way = victimWay(set, cand);
            lockVictim(m, set * t.ways + way);
        } else t.locked[set * t.ways + way] = true;
        tx.way[m] = way;
        tx.phase[m] = SWAP;
        st.swaps++;
        engine.schedule(engine.now() + swapPs, this, EV_SWAP_DONE, m);
        return true;
    }

    /** The incoming block is in the L2 way, the victim in the entry: requests merged meanwhile are answered. */
    private void swapDone(int m) {
        long now = engine.now();
        int set = tx.set[m], way = tx.way[m];
        int i = set * t.ways + way;
        t.setTag(i, tx.line[m]);
        t.valid[i] = tx.pending[m] | tx.write[m];
        t.dirty[i] = tx.write[m];
        sharers[i] = tx.sharers[m];
        t.locked[i] = false;
        repl.onFill(set, way, tx.line[m], tx.store[m] ? AccessKind.WRITE : AccessKind.READ);
        answer(m, tx.served[m], i, now);
        if (tx.drop[m]) dropWay(i, tx.line[m]); // its frame was evicted meanwhile (dropRange)
        tx.byLine.remove(tx.line[m]);
        releaseSet(set);
        if (tx.victim[m] == -1) {
            freeTx(m);
            return;
        }
        tx.phase[m] = FRC_EVICT;
        evictingByLine.put(tx.victim[m], m);
        evictVictim(m);
    }

    private void mlpTick() {
        long now = engine.now();
        if (fetchesInFlight > 0) {
            mlpIntegral += fetchesInFlight * (now - mlpLastPs);
            mlpBusyPs += now - mlpLastPs;
        }
        mlpLastPs = now;
    }

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
    public int frcEntries() { return frc == null ? 0 : frc.entries; }

    public long nacks() { return st.nacks; }

    /** Sum over read misses of the time spent evicting the victim before the fetch could leave, ps. */
    public long evictLatencyPs() { return st.evictLatencyPs; }

    /** Sum over fetches of the time from leaving the bank to the last data arriving, ps. */
    public long fetchLatencyPs() { return st.fetchLatencyPs; }

    public long fetchesTimed() { return st.fetchesTimed; }

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
    public double averageMissLatencyPs() { return st.averageMissLatencyPs(); }

    long setLockedStallCycles() { return parked.waitedPs / periodPs; }

    long mshrOccupancyPs() { return tx.occupancyPs(); }

    @Override
    public int inFlight() {
        return qSize + replay.size() + parked.size() + tx.inUse() + (frc == null ? 0 : frc.busy()) + ports.inFlight();
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
            int m = tx.byLine.get(line);
            if (m >= 0) tx.drop[m] = true;
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
            int m = tx.byLine.get(line);
            if (t.find(t.setOf(line), line) >= 0 && (m < 0 || !tx.drop[m])) n++;
            else if (m >= 0 && !tx.drop[m] && (tx.way[m] >= 0 || tx.frc[m] >= 0)) n++;
            else if (vc != null && vc.contains(line)) n++;
        }
        return n;
    }

    @Override
    public void registerStats(Stats s) { st.register(s, this); }
}
