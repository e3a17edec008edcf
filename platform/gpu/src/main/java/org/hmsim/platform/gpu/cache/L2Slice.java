package org.hmsim.platform.gpu.cache;

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
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.xbar.Crossbar;
import org.hmsim.platform.gpu.util.LongIntMap;

/**
 * One L2 slice: sectored, set-associative, write-back, write-allocate, with MSHRs and the conventional
 * miss path (seed 003 §2: the victim is chosen and locked when the miss is detected; the way stays
 * transient until its fill; a set whose ways are all locked stalls further misses to it).
 *
 * <p>Requests come from the crossbar into a bounded input queue and are served in order, one per cycle.
 * A request that cannot proceed (MSHRs full, merge slots full, every way of its set locked) blocks the
 * head of the queue until a fill frees resources — the structural hazard GPGPU-Sim models too.
 *
 * <ul>
 * <li>Reads fetch only the missing 32 B sectors: the memory request is {@code 32 x popcount(mask)} bytes.
 * A read to a line with a fetch in flight merges into its MSHR (up to {@code mshrMerge} requests) and
 * fetches any further sectors it needs.</li>
 * <li>Writes allocate without a fetch: a store is modelled as writing whole sectors (the coalescer's sector
 * mask), so partial-sector writes are treated as full-sector writes (no byte masks, no fill).</li>
 * <li>Atomics are performed here: they need their sectors present (fetch on a miss) and dirty them.</li>
 * <li>Dirty victims leave as {@code WRITEBACK} requests of their dirty sectors, {@code replyTo == null}.</li>
 * <li>An access the cacheability policy forbids to allocate still uses an MSHR (merging) but no line;
 * such writes are posted to memory as write-backs and acknowledged at once.</li>
 * </ul>
 * Hit latency is {@code latencyCycles}; a miss leaves for memory after the same tag latency plus what the
 * coherence policy adds ({@link CoherencePolicy#onLastLevelMiss}).
 */
public final class L2Slice implements CacheView, MemSink, MemClient, EventTarget {
    private static final int EV_PROCESS = 0, EV_SEND = 1, EV_SEND_FIFO = 2, EV_RESPOND = 3;
    private static final int NOT_BLOCKED = 0, BLOCK_MSHR = 1, BLOCK_MERGE = 2, BLOCK_SET = 3;

    private final String name;
    private final int gpu, index;
    private final CacheConfig cfg;
    private final Engine engine;
    private final long periodPs, latencyPs;
    private final RequestPool pool;
    private final Crossbar xbar;
    private MemSink fabric;
    private final ReplacementPolicy.State repl;
    private final CacheabilityPolicy cacheability;
    private final CoherencePolicy coherence;
    private final SectorTags t;

    // input queue
    private final MemRequest[] queue;
    private int qHead, qSize;
    private MemClient waitingSender;
    private boolean processScheduled;
    private long lastProcessPs = -1;
    private int blocked = NOT_BLOCKED;
    private long blockedSincePs;

    // MSHRs
    private final int mshrs, merge;
    private final long[] mLine;
    private final int[] mWay, mSet, mPending, mOutstanding, mCount;
    private final long[] mAllocPs;
    private final MemRequest[] mWaiters;
    private final int[] freeMshr;
    private int freeMshrs;
    private final LongIntMap mshrByLine;
    private long occIntegral, occLastPs;

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
            setLockedStalls, mshrStallCycles, setLockedStallCycles, writebacks, writebackBytes, fetchBytes,
            missLatencyPs, missesCompleted, fabricRefusals;

    public L2Slice(String name, int gpu, int index, CacheConfig cfg, ClockDomain clock, Engine engine, RequestPool pool,
                   Crossbar xbar, ReplacementPolicy replacement, CacheabilityPolicy cacheability, CoherencePolicy coherence) {
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
        this.t = new SectorTags(name, cfg);
        this.repl = replacement.forCache(name, t.sets, t.ways);
        if (cfg.mshrs() <= 0 || cfg.mshrMerge() <= 0 || cfg.queueDepth() <= 0)
            throw new IllegalArgumentException(name + ": mshrs, mshrMerge and queueDepth must be > 0");
        queue = new MemRequest[cfg.queueDepth()];
        mshrs = cfg.mshrs();
        merge = cfg.mshrMerge();
        mLine = new long[mshrs];
        mWay = new int[mshrs];
        mSet = new int[mshrs];
        mPending = new int[mshrs];
        mOutstanding = new int[mshrs];
        mCount = new int[mshrs];
        mAllocPs = new long[mshrs];
        mWaiters = new MemRequest[mshrs * merge];
        freeMshr = new int[mshrs];
        for (int i = 0; i < mshrs; i++) freeMshr[freeMshrs++] = mshrs - 1 - i;
        mshrByLine = new LongIntMap(mshrs);
        for (int i = 0; i < 64; i++) freeSend[freeSends++] = 63 - i;
    }

    public void setFabric(MemSink fabric) { this.fabric = fabric; }

    // ---------------------------------------------------------------- input

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (qSize == queue.length) {
            waitingSender = from;
            return false;
        }
        queue[(qHead + qSize) % queue.length] = r;
        qSize++;
        if (blocked != NOT_BLOCKED) return true;
        long now = engine.now();
        if (qSize == 1 && !processScheduled && now % periodPs == 0 && now >= lastProcessPs + periodPs) {
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
        if (kind == EV_PROCESS) process();
        else if (kind == EV_SEND_FIFO) drainDelayed();
        else if (kind == EV_RESPOND) drainResponses();
        else {
            int s = (int) payload;
            MemRequest d = sendSlot[s];
            sendSlot[s] = null;
            freeSend[freeSends++] = s;
            pendingSends--;
            sendNow(d);
        }
    }

    private void process() {
        processScheduled = false;
        if (blocked != NOT_BLOCKED || qSize == 0) return;
        lastProcessPs = engine.now();
        MemRequest r = queue[qHead];
        if (!serve(r)) return;
        queue[qHead] = null;
        qHead = (qHead + 1) % queue.length;
        qSize--;
        if (waitingSender != null) {
            MemClient c = waitingSender;
            waitingSender = null;
            c.onSpaceAvailable(this);
        }
        if (qSize > 0 && blocked == NOT_BLOCKED) scheduleProcess();
    }

    /** Serves the head request; false if it must wait (the slice is then blocked). */
    private boolean serve(MemRequest r) {
        long line = t.lineOf(r.paddr);
        int set = t.setOf(line);
        int need = r.sectorMask == 0 ? t.fullMask : r.sectorMask & t.fullMask;
        int way = t.find(set, line);
        return switch (r.kind) {
            case READ, ATOMIC -> read(r, line, set, way, need);
            case WRITE, WRITEBACK -> write(r, line, set, way, need);
        };
    }

    private boolean read(MemRequest r, long line, int set, int way, int need) {
        long now = engine.now();
        int i = way < 0 ? -1 : set * t.ways + way;
        if (i >= 0 && (t.valid[i] & need) == need) {
            hits++;
            if (r.kind == AccessKind.ATOMIC) t.dirty[i] |= need;
            repl.onHit(set, way);
            respondAt(r, now + latencyPs);
            return true;
        }
        int present = i >= 0 ? t.valid[i] : 0;
        int m = mshrByLine.get(line);
        if (m >= 0) {
            if (mCount[m] == merge) return block(BLOCK_MERGE);
            mWaiters[m * merge + mCount[m]++] = r;
            merges++;
            int extra = need & ~mPending[m] & ~present;
            if (extra != 0) fetch(m, extra);
            return true;
        }
        if (freeMshrs == 0) return block(BLOCK_MSHR);
        if (i < 0 && cacheability.mayAllocate(2, r)) {
            way = allocateWay(set, line);
            if (way < 0) return block(BLOCK_SET);
            i = set * t.ways + way;
        }
        if (i >= 0) t.locked[i] = true;
        misses++;
        m = allocMshr(line, set, i >= 0 ? way : -1);
        mWaiters[m * merge] = r;
        mCount[m] = 1;
        fetch(m, need & ~present);
        return true;
    }

    private boolean write(MemRequest r, long line, int set, int way, int need) {
        long now = engine.now();
        if (way >= 0) {
            int i = set * t.ways + way;
            t.valid[i] |= need;
            t.dirty[i] |= need;
            writeHits++;
            repl.onHit(set, way);
        } else if (cacheability.mayAllocate(2, r)) {
            way = allocateWay(set, line);
            if (way < 0) return block(BLOCK_SET);
            int i = set * t.ways + way;
            t.valid[i] = need;
            t.dirty[i] = need;
            writeMisses++;
            repl.onFill(set, way);
        } else {
            writeMisses++;
            postWrite(line, need);
        }
        if (r.kind == AccessKind.WRITEBACK || r.replyTo == null) pool.give(r);
        else respondAt(r, now + latencyPs);
        return true;
    }

    /** Chooses a way for {@code line} (invalid first, else the replacement policy's victim), evicting it. */
    private int allocateWay(int set, long line) {
        int way = t.freeWay(set);
        if (way < 0) {
            long cand = t.candidates(set);
            if (cand == 0) return -1;
            way = repl.victim(set, cand);
            if (way < 0 || way >= t.ways || (cand & (1L << way)) == 0)
                throw new IllegalStateException(name + ": replacement chose way " + way + " outside candidates " + Long.toBinaryString(cand));
            evict(set * t.ways + way);
        }
        int i = set * t.ways + way;
        t.tag[i] = line;
        t.valid[i] = 0;
        t.dirty[i] = 0;
        return way;
    }

    private void evict(int i) {
        if (t.dirty[i] != 0) postWrite(t.tag[i], t.dirty[i]);
        t.invalidate(i);
    }

    /** A write-back of {@code sectors} of {@code line} to memory; nobody waits for it. */
    private void postWrite(long line, int sectors) {
        MemRequest w = pool.take();
        w.kind = AccessKind.WRITEBACK;
        w.paddr = line;
        w.sectorMask = sectors;
        w.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        w.pool = PhysicalAddress.pool(line);
        w.gpu = gpu;
        w.createdPs = engine.now();
        writebacks++;
        writebackBytes += w.size;
        sendNow(w);
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
        long cycles = (engine.now() - blockedSincePs) / periodPs;
        if (blocked == BLOCK_SET) setLockedStallCycles += cycles;
        else mshrStallCycles += cycles;
        blocked = NOT_BLOCKED;
        if (qSize > 0) scheduleProcess();
    }

    // ---------------------------------------------------------------- MSHRs and fills

    private int allocMshr(long line, int set, int way) {
        occupancyTick();
        int m = freeMshr[--freeMshrs];
        mLine[m] = line;
        mSet[m] = set;
        mWay[m] = way;
        mPending[m] = 0;
        mOutstanding[m] = 0;
        mCount[m] = 0;
        mAllocPs[m] = engine.now();
        mshrByLine.put(line, m);
        return m;
    }

    private void fetch(int m, int sectors) {
        MemRequest d = pool.take();
        d.kind = AccessKind.READ;
        d.paddr = mLine[m];
        d.sectorMask = sectors;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        d.pool = PhysicalAddress.pool(d.paddr);
        d.gpu = gpu;
        d.replyTo = this;
        d.tag = m;
        d.createdPs = engine.now();
        mPending[m] |= sectors;
        mOutstanding[m]++;
        sectorMisses += Integer.bitCount(sectors);
        fetchBytes += d.size;
        sendAt(d, engine.now() + latencyPs + coherence.onLastLevelMiss(d));
    }

    @Override
    public void onResponse(MemRequest d) {
        int m = (int) d.tag;
        int sectors = d.sectorMask;
        pool.give(d);
        int way = mWay[m];
        int i = way < 0 ? -1 : mSet[m] * t.ways + way;
        if (i >= 0) t.valid[i] |= sectors;
        if (--mOutstanding[m] == 0) complete(m, i);
    }

    private void complete(int m, int i) {
        long now = engine.now();
        if (i >= 0) {
            t.locked[i] = false;
            repl.onFill(mSet[m], mWay[m]);
        }
        int base = m * merge;
        for (int k = 0; k < mCount[m]; k++) {
            MemRequest r = mWaiters[base + k];
            mWaiters[base + k] = null;
            if (r.kind == AccessKind.ATOMIC) {
                if (i >= 0) t.dirty[i] |= r.sectorMask == 0 ? t.fullMask : r.sectorMask;
                else postWrite(mLine[m], r.sectorMask == 0 ? t.fullMask : r.sectorMask);
            }
            xbar.respond(index, r, now);
        }
        occupancyTick();
        mshrByLine.remove(mLine[m]);
        freeMshr[freeMshrs++] = m;
        missLatencyPs += now - mAllocPs[m];
        missesCompleted++;
        if (blocked != NOT_BLOCKED) unblock();
    }

    private void occupancyTick() {
        long now = engine.now();
        occIntegral += (long) (mshrs - freeMshrs) * (now - occLastPs);
        occLastPs = now;
    }

    // ---------------------------------------------------------------- to the fabric

    private void sendAt(MemRequest d, long timePs) {
        if (timePs <= engine.now()) {
            sendNow(d);
            return;
        }
        if (dqSize == 0 || timePs >= delayT[(dqHead + dqSize - 1) % delayT.length]) {
            if (dqSize == delayQ.length) growDelayed();
            int k = (dqHead + dqSize) % delayQ.length;
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
        int k = (rqHead + rqSize) % respQ.length;
        respQ[k] = r;
        respT[k] = t;
        if (rqSize++ == 0) engine.schedule(t, this, EV_RESPOND, 0);
    }

    private void drainResponses() {
        long now = engine.now();
        while (rqSize > 0 && respT[rqHead] <= now) {
            MemRequest r = respQ[rqHead];
            respQ[rqHead] = null;
            rqHead = (rqHead + 1) % respQ.length;
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
            dqHead = (dqHead + 1) % delayQ.length;
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
        if (fqSize == 0 && fabric.tryAccept(d, this)) return;
        fabricRefusals++;
        if (fqSize == fabricQ.length) {
            MemRequest[] q = new MemRequest[fqSize * 2];
            for (int k = 0; k < fqSize; k++) q[k] = fabricQ[(fqHead + k) % fabricQ.length];
            fabricQ = q;
            fqHead = 0;
        }
        fabricQ[(fqHead + fqSize) % fabricQ.length] = d;
        fqSize++;
    }

    @Override
    public void onSpaceAvailable(MemSink sink) {
        while (fqSize > 0 && fabric.tryAccept(fabricQ[fqHead], this)) {
            fabricQ[fqHead] = null;
            fqHead = (fqHead + 1) % fabricQ.length;
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

    public long mshrMerges() { return merges; }

    public long sectorMisses() { return sectorMisses; }

    public int mshrsInUse() { return mshrs - freeMshrs; }

    /** Average time from MSHR allocation to the last fill, ps. */
    public double averageMissLatencyPs() { return missesCompleted == 0 ? 0 : (double) missLatencyPs / missesCompleted; }

    @Override
    public int inFlight() { return qSize + (mshrs - freeMshrs) + pendingSends + dqSize + fqSize + rqSize; }

    @Override
    public void registerStats(Stats s) {
        s.counter("hits", "read/atomic requests whose sectors were all present", () -> hits);
        s.counter("misses", "read/atomic requests that allocated an MSHR", () -> misses);
        s.counter("sector_misses", "32 B sectors fetched from memory", () -> sectorMisses);
        s.counter("write_hits", "writes to a present line", () -> writeHits);
        s.counter("write_misses", "writes that allocated a line without fetching (or were posted)", () -> writeMisses);
        s.counter("mshr_merges", "requests merged into an MSHR already pending for the line", () -> merges);
        s.counter("mshr_full_stalls", "times the input queue stalled because every MSHR was busy", () -> mshrFullStalls);
        s.counter("mshr_merge_full_stalls", "times the input queue stalled because an MSHR's merge slots were full", () -> mergeFullStalls);
        s.counter("mshr_stall_cycles", "cycles the input queue stalled on MSHRs (full or merge-full)", () -> mshrStallCycles);
        s.counter("set_locked_stalls", "misses that waited because every way of their set was locked (conventional miss path)", () -> setLockedStalls);
        s.counter("set_locked_stall_cycles", "cycles stalled on fully locked sets", () -> setLockedStallCycles);
        s.counter("writebacks", "dirty victims (and posted writes) sent to memory", () -> writebacks);
        s.counter("writeback_bytes", "bytes of dirty sectors written back", () -> writebackBytes);
        s.counter("fetch_bytes", "bytes fetched from memory (32 B x sectors)", () -> fetchBytes);
        s.counter("fabric_refusals", "sends refused by the fabric (held and retried)", () -> fabricRefusals);
        s.counter("mshr_occupancy_ps", "integral of MSHRs in use over time (entries x ps); / sim time = mean occupancy", () -> {
            occupancyTick();
            return occIntegral;
        });
        s.gauge("avg_miss_latency_ps", "mean time from MSHR allocation to fill", this::averageMissLatencyPs);
        s.gauge("hit_rate", "hits / (hits + misses) of reads", () -> hits + misses == 0 ? 0 : (double) hits / (hits + misses));
    }
}
