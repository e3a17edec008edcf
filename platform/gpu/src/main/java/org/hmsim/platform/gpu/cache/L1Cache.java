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
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.util.LongIntMap;
import org.hmsim.platform.gpu.xbar.Crossbar;

/**
 * The L1 data cache of one SM, Fermi-like: sectored, read-allocate, write-through with no write
 * allocation (a store updates a present line and always goes on to the L2), atomics performed at the L2
 * (a present L1 copy is invalidated).
 *
 * <p>Loads that miss take an MSHR for their 128 B line: {@code mshrs} distinct lines may be outstanding,
 * each merging up to {@code mshrMerge} requests, which are all answered when the line arrives. A merged
 * request that needs sectors the MSHR has not asked for sends a further request for just those sectors
 * (seed 000 §2.11: masks are merged in the MSHR). When MSHRs, merge slots or the crossbar port are full
 * the access is refused; the SM retries after {@link L1Client#onL1Space}. If the cacheability policy
 * forbids allocation the miss still uses the MSHR (merging) but leaves no line (seed 000 §2.9).
 *
 * <p><b>Write-back</b> ({@code gpu.l1.write_policy: write-back}, Multi2Sim's NMOESI GPU L1 as the FRC thesis group ran
 * it): a store to a present line writes its sectors there (dirty) and is acknowledged after the hit latency; a store
 * miss takes an MSHR and fetches the whole line from the L2 (the fork's {@code nc_store} sends a read request and the
 * block ends in state N), its sectors dirty when the line arrives; stores merge into a pending MSHR without a merge
 * slot (the fork's stores take no MSHR of their own). A dirty line that leaves (replaced here, or invalidated by the
 * L2's eviction) sends its dirty sectors to the L2: a write-back packet, or the data of the invalidation's
 * acknowledgement. Simplification: a replaced dirty line's write-back does not delay the miss that replaced it (the
 * fork waits for its acknowledgement before fetching).
 *
 * <p>The SM calls {@link #access} with the time its TLB lookup finished ({@code startPs}); a hit is ready
 * {@code latencyCycles} later and costs no event, a miss leaves for the crossbar at the same moment.
 */
public final class L1Cache implements CacheView, MemClient, EventTarget {
    /** Cycles an L1 waits before re-sending a request the L2 NACKed (seed 003 §M1 retry queue; the thesis gives no figure). */
    public static final int NACK_RETRY_CYCLES = 4;
    public static final int HIT = 0, QUEUED = 1, REFUSED = 2;
    private static final int EV_RETRY = 0, EV_FAULT_DONE = 1, EV_STORE_HIT = 2;

    private final String name;
    private final int gpu, sm;
    private final Engine engine;
    private final long latencyPs;
    private final RequestPool pool;
    private final Crossbar xbar;
    private final ReplacementPolicy.State repl;
    private final CacheabilityPolicy cacheability;
    private final L1Client client;
    private final SectorTags t;
    private final MemRequest query = new MemRequest();

    private final int mshrs, merge;
    private final long[] mLine;
    private final int[] mPending, mOutstanding, mCount;
    private final boolean[] mAllocate;
    /** The L2 evicted MSHR m's line while its fill was on the way: the fill answers its requests but installs nothing. */
    private final boolean[] mDropAtFill;
    /** Whether MSHR m is findable by its line (false: an uncached read that nothing may merge into, seed 000 §6.2.1). */
    private final boolean[] mMapped;
    /** Sectors the requesters of MSHR m asked for (line utilisation of uncached fetches, seed 000 Table 6.2). */
    private final int[] mUsed;
    private final int[] mWaiters;
    /**
     * Sectors each waiter of an uncached MSHR asked for, and the sectors arrived so far: with variable-size
     * transfers one MSHR may be filled by several responses (seed 000 §6.2.2.3, "the bitmasks included in each
     * response facilitate this matching"), and a waiter is answered as soon as its own sectors are in.
     */
    private final int[] mNeed, mArrived;
    private final int[] freeMshr;
    private int freeMshrs;
    /** Write-back L1: whether stores allocate and stay here dirty. */
    private final boolean writeBack;
    /** Write-back L1: sectors the stores merged into MSHR m wrote, and how many stores wait for its fill. */
    private final int[] mStoreSectors, mStores;
    private long writeBacks, writeBackSectors, dirtyInvalidations;
    /** Write-backs waiting in the re-send queue for the crossbar port (no warp waits for them: counted here for drains). */
    private int writeBacksQueued;
    private final LongIntMap mshrByLine;
    private boolean clientWaiting;

    // requests the L2 NACKed, re-sent in order after NACK_RETRY_CYCLES (seed 003 §M1: the L1 retry queue)
    private MemRequest[] retryQ = new MemRequest[16];
    private long[] retryT = new long[16];
    private int retryHead, retrySize;
    private boolean retryScheduled;
    private final long retryPs;
    private long nacked, upperInvalidations;
    /**
     * New requests sent while older ones waited in the re-send queue: they do not wait behind them (Multi2Sim retries
     * each NACKed access on its own), so the L2 may serve them first and stores to different lines reach it out of
     * program order (a store NACKed again and again can be overtaken by hundreds of younger ones).
     */
    private long sentPastResends;

    // selective caching (seed 000 Ch. 6): uncached line requests and how many merged; stores held by a
    // permission fault (§6.2.3), at most maxPendingFaultsPerSm before the SM's load/store unit blocks
    private long uncachedRequests, uncachedMerges, uncachedFetchedSectors, uncachedUsedSectors, faultedStores, faultBlocks, faultBlockedPs, faultBlockedSince;
    /** Pages with stores held by a permission fault (the SM's pending faults, seed 000 §6.2.3), and how many each. */
    private int pendingFaults;
    private long[] faultPages = new long[4];
    private int[] faultPageStores = new int[4];
    private long faultPageBytes = 4096;
    private boolean faultBlocked;
    private MemRequest[] faultSlot = new MemRequest[4];
    private int faultSlots;
    /** Discards the GPU's cached copies of the faulted store's page when its fault is handled (set by the GPU). */
    private java.util.function.LongConsumer faultShootdown;

    private long hits, misses, merges, sectorMisses, writeHits, writeMisses, atomics, mshrFullRefusals,
            mergeFullRefusals, portRefusals;
    private long occIntegral, occLastPs;

    public L1Cache(String name, int gpu, int sm, CacheConfig cfg, ClockDomain clock, Engine engine, RequestPool pool,
                   Crossbar xbar, ReplacementPolicy replacement, CacheabilityPolicy cacheability, L1Client client) {
        this.name = name;
        this.gpu = gpu;
        this.sm = sm;
        this.engine = engine;
        this.latencyPs = clock.ps(cfg.latencyCycles());
        this.retryPs = clock.ps(NACK_RETRY_CYCLES);
        this.pool = pool;
        this.xbar = xbar;
        this.cacheability = cacheability;
        this.client = client;
        this.t = new SectorTags(name, cfg);
        // pinned to LRU by the machine (gpu.l1.replacement: lru): not the slot's, and never swapped
        this.repl = cfg.fixedLru() ? new org.hmsim.api.policy.LruState(t.sets, t.ways) : replacement.forCache(name, t.sets, t.ways);
        if (cfg.mshrs() <= 0 || cfg.mshrMerge() <= 0) throw new IllegalArgumentException(name + ": mshrs and mshrMerge must be > 0");
        mshrs = cfg.mshrs();
        merge = cfg.mshrMerge();
        mLine = new long[mshrs];
        mPending = new int[mshrs];
        mOutstanding = new int[mshrs];
        mCount = new int[mshrs];
        mAllocate = new boolean[mshrs];
        mDropAtFill = new boolean[mshrs];
        mMapped = new boolean[mshrs];
        mUsed = new int[mshrs];
        mWaiters = new int[mshrs * merge];
        mNeed = new int[mshrs * merge];
        mArrived = new int[mshrs];
        freeMshr = new int[mshrs];
        for (int i = 0; i < mshrs; i++) freeMshr[freeMshrs++] = mshrs - 1 - i;
        mshrByLine = new LongIntMap(mshrs);
        writeBack = cfg.writeBack();
        mStoreSectors = new int[mshrs];
        mStores = new int[mshrs];
        query.gpu = gpu;
        query.sm = sm;
    }

    public long latencyPs() { return latencyPs; }

    /** The warp scheduler state told of load look-ups and evictions (CCWS), or null: nobody listens, nothing is paid. */
    private org.hmsim.api.policy.WarpSchedulerPolicy.State observer;

    /** Tells {@code s} of this L1's load look-ups and evictions from now on (null: nobody). */
    public void observe(org.hmsim.api.policy.WarpSchedulerPolicy.State s) { observer = s; }

    /**
     * One coalesced line access of warp slot {@code warp}, its tag lookup starting at {@code startPs}.
     * Returns {@link #HIT} (data ready at {@code startPs + latency}), {@link #QUEUED} (the client is called
     * back) or {@link #REFUSED} (retry after {@link L1Client#onL1Space}).
     */
    public int access(AccessKind kind, long paddr, long vaddr, int sectorMask, int warp, long startPs) {
        long line = t.lineOf(paddr);
        int set = t.setOf(line);
        int need = sectorMask == 0 ? t.fullMask : sectorMask & t.fullMask;
        int way = t.find(set, line);
        int i = way < 0 ? -1 : set * t.ways + way;
        if (faultBlocked) return refusedByFault(); // the 17th pending fault blocks the SM (seed 000 §6.3)
        switch (kind) {
            case READ:
                return load(line, set, way, i, need, vaddr, warp, startPs);
            case ATOMIC:
                if (!xbar.reserveOrWait(sm, xbar.sliceOf(line), this)) return refusedByPort();
                int dirty = i >= 0 ? t.dirty[i] : 0;
                if (i >= 0) t.invalidate(i, repl);
                atomics++;
                send(AccessKind.ATOMIC, line, vaddr, need, warp, -1, startPs + latencyPs);
                // a write-back L1's dirty sectors leave after the atomic (sent first, the write-back could take the
                // port credit the atomic was promised); found by a review: they were dropped with the line
                if (dirty != 0) writeBackNow(line, dirty);
                return QUEUED;
            default:
                query.kind = AccessKind.WRITE;
                query.paddr = line;
                query.vaddr = vaddr;
                query.sectorMask = need;
                query.size = SectorTags.SECTOR_BYTES * Integer.bitCount(need);
                query.pool = PhysicalAddress.pool(line);
                query.warp = warp;
                long fault = cacheability.storeFaultPs(query);
                if (fault > 0) {
                    holdForFault(line, vaddr, need, warp, startPs + latencyPs + fault);
                    return QUEUED;
                }
                if (writeBack) {
                    int r = storeBack(line, vaddr, set, way, i, need, warp, startPs);
                    if (r >= 0) return r;
                }
                if (!xbar.reserveOrWait(sm, xbar.sliceOf(line), this)) return refusedByPort();
                if (i >= 0) {
                    writeHits++;
                    repl.onHit(set, way);
                } else writeMisses++;
                send(AccessKind.WRITE, line, vaddr, need, warp, -1, startPs + latencyPs);
                return QUEUED;
        }
    }

    /**
     * A store in a write-back L1: into a present line (acknowledged after the hit latency), into the line's pending
     * MSHR, or a miss that fetches the whole line. Returns -1 where the store must be written through instead: its
     * line's MSHR installs nothing (an uncached read), or the cacheability policy forbids the allocation.
     */
    private int storeBack(long line, long vaddr, int set, int way, int i, int need, int warp, long startPs) {
        if (i >= 0 && t.valid[i] != 0) {
            writeHits++;
            t.valid[i] |= need;
            t.dirty[i] |= need;
            repl.onHit(set, way);
            engine.schedule(Math.max(engine.now(), startPs + latencyPs), this, EV_STORE_HIT, warp);
            return QUEUED;
        }
        int m = mshrByLine.get(line);
        if (m >= 0) {
            if (!mAllocate[m] || mDropAtFill[m]) return -1;
            writeHits++;
            mStoreSectors[m] |= need;
            mStores[m]++;
            return QUEUED;
        }
        if (!cacheability.mayAllocate(1, query)) return -1;
        if (freeMshrs == 0) return refusedByMshrs();
        if (!xbar.reserveOrWait(sm, xbar.sliceOf(line), this)) return refusedByPort();
        writeMisses++;
        m = allocMshr(line, true);
        mAllocate[m] = true;
        mDropAtFill[m] = false;
        mUsed[m] = need;
        mStoreSectors[m] = need;
        mStores[m] = 1;
        send(AccessKind.READ, line, vaddr, t.fullMask, warp, m, startPs + latencyPs); // the fork fetches the whole block
        return QUEUED;
    }

    /**
     * What a handled permission fault does to the cached copies of its page (seed 000 §6.2.3 shootdown), and
     * the page size: the SM's pending-fault limit counts faulting pages, not the stores waiting on them.
     */
    public void setFaultShootdown(long pageBytes, java.util.function.LongConsumer shootdown) {
        this.faultPageBytes = pageBytes;
        this.faultShootdown = shootdown;
    }

    private int refusedByFault() {
        clientWaiting = true;
        return REFUSED;
    }

    /**
     * A store that took a permission fault (seed 000 §6.2.3) waits until {@code readyPs}, then goes on as a
     * store to the L2 (replayed after the fault handler changed the page's permission). A store to a page whose
     * fault is already pending waits on that fault ("plus warps touching the same address") and adds no fault;
     * a store that faults on another page while the SM's limit of pending faults is reached blocks its
     * load/store unit until one completes (the 17th fault blocks the SM).
     */
    private void holdForFault(long line, long vaddr, int sectors, int warp, long readyPs) {
        MemRequest d = request(AccessKind.WRITE, line, vaddr, sectors, warp, -1);
        if (faultSlots == faultSlot.length) faultSlot = java.util.Arrays.copyOf(faultSlot, faultSlots * 2);
        int k = 0;
        while (faultSlot[k] != null) k++;
        faultSlot[k] = d;
        faultSlots++;
        faultedStores++;
        writeMisses++;
        if (addFaultPage(line / faultPageBytes) && ++pendingFaults > cacheability.maxPendingFaultsPerSm() && !faultBlocked) {
            faultBlocked = true;
            faultBlocks++;
            faultBlockedSince = engine.now();
        }
        engine.schedule(Math.max(readyPs, engine.now()), this, EV_FAULT_DONE, k);
    }

    /** A fault is handled: its store joins the re-send queue; a blocked load/store unit may go on. */
    private void faultDone(int k) {
        MemRequest d = faultSlot[k];
        faultSlot[k] = null;
        faultSlots--;
        if (removeFaultPage(d.paddr / faultPageBytes)) pendingFaults--;
        if (faultShootdown != null) faultShootdown.accept(d.paddr); // before the store is replayed
        enqueueResend(d, engine.now());
        resend();
        if (faultBlocked && pendingFaults <= cacheability.maxPendingFaultsPerSm()) {
            faultBlocked = false;
            faultBlockedPs += engine.now() - faultBlockedSince;
            if (clientWaiting) {
                clientWaiting = false;
                client.onL1Space();
            }
        }
    }

    /** Counts a held store on {@code page}; true if the page had none (a new pending fault of this SM). */
    private boolean addFaultPage(long page) {
        for (int j = 0; j < pendingFaults; j++) {
            if (faultPages[j] == page) {
                faultPageStores[j]++;
                return false;
            }
        }
        if (pendingFaults == faultPages.length) {
            faultPages = java.util.Arrays.copyOf(faultPages, pendingFaults * 2);
            faultPageStores = java.util.Arrays.copyOf(faultPageStores, pendingFaults * 2);
        }
        faultPages[pendingFaults] = page;
        faultPageStores[pendingFaults] = 1;
        return true;
    }

    /** A held store on {@code page} completed; true if it was the page's last (its fault is no longer pending). */
    private boolean removeFaultPage(long page) {
        for (int j = 0; j < pendingFaults; j++) {
            if (faultPages[j] != page) continue;
            if (--faultPageStores[j] > 0) return false;
            faultPages[j] = faultPages[pendingFaults - 1];
            faultPageStores[j] = faultPageStores[pendingFaults - 1];
            return true;
        }
        throw new IllegalStateException(name + ": a held store's page has no pending fault");
    }

    private int load(long line, int set, int way, int i, int need, long vaddr, int warp, long startPs) {
        int r = lookUp(line, set, way, i, need, vaddr, warp, startPs);
        if (observer != null && r != REFUSED) observer.onL1Access(warp, line, r == HIT);
        return r;
    }

    private int lookUp(long line, int set, int way, int i, int need, long vaddr, int warp, long startPs) {
        int present = i >= 0 ? t.valid[i] : 0;
        if ((present & need) == need) {
            hits++;
            repl.onHit(set, way);
            return HIT;
        }
        int m = mshrByLine.get(line);
        if (m >= 0) {
            if (mCount[m] == merge) {
                mergeFullRefusals++;
                clientWaiting = true;
                return REFUSED;
            }
            if (!mAllocate[m] && (need & ~mArrived[m]) == 0) { // its sectors are already in the MSHR's data latch
                merges++;
                uncachedRequests++;
                uncachedMerges++;
                mUsed[m] |= need;
                return HIT;
            }
            int extra = need & ~mPending[m] & ~present;
            if (extra != 0 && !xbar.reserveOrWait(sm, xbar.sliceOf(line), this)) return refusedByPort();
            mNeed[m * merge + mCount[m]] = need;
            mWaiters[m * merge + mCount[m]++] = warp;
            merges++;
            if (!mAllocate[m]) {
                uncachedRequests++;
                uncachedMerges++;
                mUsed[m] |= need;
            }
            if (extra != 0) send(AccessKind.READ, line, vaddr, extra, warp, m, startPs + latencyPs);
            return QUEUED;
        }
        if (freeMshrs == 0) return refusedByMshrs();
        if (!xbar.reserveOrWait(sm, xbar.sliceOf(line), this)) return refusedByPort();
        misses++;
        query.kind = AccessKind.READ;
        query.paddr = line;
        query.vaddr = vaddr;
        query.sectorMask = need;
        query.size = SectorTags.SECTOR_BYTES * Integer.bitCount(need);
        query.pool = PhysicalAddress.pool(line);
        query.warp = warp;
        boolean allocate = cacheability.mayAllocate(1, query);
        int ask = need & ~present;
        boolean mapped = true;
        if (!allocate) { // selective caching (seed 000 §6.2.2): coalesce or not, line-sized or 32 B transfers
            uncachedRequests++;
            mapped = cacheability.mayCoalesce(1, query);
            if (!cacheability.subBlockTransfers(query)) ask = t.fullMask & ~present;
        }
        m = allocMshr(line, mapped);
        mAllocate[m] = allocate;
        mDropAtFill[m] = false;
        mUsed[m] = need;
        mNeed[m * merge] = need;
        mWaiters[m * merge] = warp;
        mCount[m] = 1;
        send(AccessKind.READ, line, vaddr, ask, warp, m, startPs + latencyPs);
        return QUEUED;
    }

    private int refusedByMshrs() {
        mshrFullRefusals++;
        clientWaiting = true;
        return REFUSED;
    }

    private int refusedByPort() {
        portRefusals++;
        return REFUSED;
    }

    private int allocMshr(long line, boolean mapped) {
        occupancyTick();
        int m = freeMshr[--freeMshrs];
        mLine[m] = line;
        mPending[m] = 0;
        mOutstanding[m] = 0;
        mCount[m] = 0;
        mArrived[m] = 0;
        mMapped[m] = mapped;
        if (mapped) mshrByLine.put(line, m);
        return m;
    }

    /** A request of this L1 to the L2 for {@code sectors} of {@code line}, answered to this cache. */
    private MemRequest request(AccessKind kind, long line, long vaddr, int sectors, int warp, long tag) {
        MemRequest d = pool.take();
        d.kind = kind;
        d.paddr = line;
        d.vaddr = vaddr;
        d.sectorMask = sectors;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        d.pool = PhysicalAddress.pool(line);
        d.gpu = gpu;
        d.sm = sm;
        d.warp = warp;
        d.replyTo = this;
        d.tag = tag;
        d.createdPs = engine.now();
        return d;
    }

    private void send(AccessKind kind, long line, long vaddr, int sectors, int warp, int mshr, long readyPs) {
        MemRequest d = request(kind, line, vaddr, sectors, warp, mshr);
        if (retrySize > 0) sentPastResends++;
        if (mshr >= 0) {
            mPending[mshr] |= sectors;
            mOutstanding[mshr]++;
            sectorMisses += Integer.bitCount(sectors);
        }
        if (!xbar.tryAcceptAt(d, this, Math.max(readyPs, engine.now())))
            throw new IllegalStateException(name + ": crossbar refused after reserving room");
    }

    @Override
    public void onResponse(MemRequest d) {
        if (d.nacked) {
            retryLater(d);
            return;
        }
        AccessKind kind = d.kind;
        int warp = d.warp;
        int m = (int) d.tag;
        int sectors = d.sectorMask;
        pool.give(d);
        switch (kind) {
            case WRITE -> client.onStoreAck(warp);
            case ATOMIC -> client.onLoadData(warp);
            default -> {
                mArrived[m] |= sectors;
                if (--mOutstanding[m] == 0) fill(m);
                else if (sectors == 0) throw new IllegalStateException(name + ": empty fill");
                else if (!mAllocate[m]) answerArrived(m);
            }
        }
    }

    private void fill(int m) {
        long line = mLine[m];
        int stored = mStoreSectors[m], stores = mStores[m];
        mStoreSectors[m] = 0;
        mStores[m] = 0;
        if (mAllocate[m] && !mDropAtFill[m]) install(line, mPending[m] | stored, stored);
        else if (stored != 0) writeBackNow(line, stored); // the L2 evicted the line meanwhile: the stores' data goes on to it
        else {
            uncachedFetchedSectors += Integer.bitCount(mPending[m]);
            uncachedUsedSectors += Integer.bitCount(mPending[m] & mUsed[m]);
        }
        int base = m * merge;
        int n = mCount[m];
        occupancyTick();
        if (mMapped[m]) mshrByLine.remove(line);
        freeMshr[freeMshrs++] = m;
        for (int k = 0; k < n; k++) if (mWaiters[base + k] >= 0) client.onLoadData(mWaiters[base + k]);
        for (int k = 0; k < stores; k++) client.onStoreAck(-1);
        if (clientWaiting) {
            clientWaiting = false;
            client.onL1Space();
        }
    }

    /**
     * Part of an uncached MSHR's sectors arrived: the waiters whose sectors are all in are answered now, and their
     * merge slots are free again (an uncached line's MSHR can live through several sub-block fetches, seed 000
     * §6.2.2.3; a slot held by an answered warp would refuse later requests that the MSHR could still take).
     */
    private void answerArrived(int m) {
        int base = m * merge, have = mArrived[m], kept = 0, n = mCount[m];
        for (int k = 0; k < n; k++) {
            int w = mWaiters[base + k];
            if (w >= 0 && (mNeed[base + k] & ~have) == 0) {
                client.onLoadData(w);
                continue;
            }
            mWaiters[base + kept] = w;
            mNeed[base + kept++] = mNeed[base + k];
        }
        mCount[m] = kept;
        if (kept < n && clientWaiting) {
            clientWaiting = false;
            client.onL1Space();
        }
    }

    private void install(long line, int sectors, int dirty) {
        int set = t.setOf(line);
        int way = t.find(set, line);
        boolean present = way >= 0; // more sectors of a line it holds: a re-reference to the replacement policy, not a fill
        if (way < 0) {
            way = t.freeWay(set);
            if (way < 0) {
                long cand = t.candidates(set);
                way = VictimChoice.checked(name, set, repl.victim(set, cand), t.ways, cand);
            }
            int i = set * t.ways + way;
            // the L2 keeps which SMs hold its lines, to invalidate them when it evicts one (seed 003 M6): it is told,
            // unless a miss for more of the line is in flight: its answer re-installs the line (and set the bit already)
            if (t.tag[i] != -1 && t.valid[i] != 0 && mshrByLine.get(t.tag[i]) < 0) xbar.l1Dropped(t.tag[i], t.lineBytes, sm);
            if (observer != null && t.tag[i] != -1 && t.valid[i] != 0) observer.onL1Eviction(t.tag[i]);
            if (t.dirty[i] != 0) writeBackNow(t.tag[i], t.dirty[i]);
            t.invalidate(i);
            t.tag[i] = line;
        }
        t.valid[set * t.ways + way] |= sectors;
        t.dirty[set * t.ways + way] |= dirty;
        if (present) repl.onHit(set, way);
        else repl.onFill(set, way);
    }

    /** Dirty sectors leave for the L2 as a write-back packet, in order with the NACKed requests waiting to be re-sent. */
    private void writeBackNow(long line, int sectors) {
        writeBacks++;
        writeBackSectors += Integer.bitCount(sectors);
        writeBacksQueued++;
        enqueueResend(request(AccessKind.WRITEBACK, line, -1, sectors, -1, -1), engine.now());
        resend();
    }

    /** The crossbar has room again for this SM's port: NACKed requests go first. */
    @Override
    public void onSpaceAvailable(MemSink sink) {
        if (retrySize > 0) resend();
        client.onL1Space();
    }

    private void retryLater(MemRequest d) {
        nacked++;
        d.nacked = false;
        enqueueResend(d, engine.now() + retryPs);
    }

    /** Queues {@code d} to be re-sent from {@code atPs} on, in order. */
    private void enqueueResend(MemRequest d, long atPs) {
        if (retrySize == retryQ.length) {
            int n = retryQ.length;
            MemRequest[] q = new MemRequest[n * 2];
            long[] tt = new long[n * 2];
            for (int k = 0; k < retrySize; k++) {
                q[k] = retryQ[(retryHead + k) % n];
                tt[k] = retryT[(retryHead + k) % n];
            }
            retryQ = q;
            retryT = tt;
            retryHead = 0;
        }
        int k = L2Ports.wrap(retryHead + retrySize, retryQ.length);
        retryQ[k] = d;
        retryT[k] = Math.max(atPs, retrySize == 0 ? atPs : retryT[L2Ports.wrap(retryHead + retrySize - 1, retryQ.length)]);
        if (retrySize++ == 0 && !retryScheduled) {
            retryScheduled = true;
            engine.schedule(retryT[k], this, EV_RETRY, 0);
        }
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == EV_FAULT_DONE) {
            faultDone((int) payload);
            return;
        }
        if (kind == EV_STORE_HIT) {
            client.onStoreAck((int) payload);
            return;
        }
        retryScheduled = false;
        resend();
    }

    /** Re-sends due NACKed requests while the crossbar port has room (else waits for onSpaceAvailable). */
    private void resend() {
        long now = engine.now();
        while (retrySize > 0 && retryT[retryHead] <= now) {
            MemRequest d = retryQ[retryHead];
            if (!xbar.reserveOrWait(sm, xbar.sliceOf(d.paddr), this)) return;
            if (!xbar.tryAcceptAt(d, this, now)) throw new IllegalStateException(name + ": crossbar refused after reserving room");
            if (d.kind == AccessKind.WRITEBACK) writeBacksQueued--;
            retryQ[retryHead] = null;
            retryHead = L2Ports.wrap(retryHead + 1, retryQ.length);
            retrySize--;
        }
        if (retrySize > 0 && !retryScheduled) {
            retryScheduled = true;
            engine.schedule(retryT[retryHead], this, EV_RETRY, 0);
        }
    }

    /**
     * The L2 evicts {@code paddr}'s line: a present copy here is dropped, and a fill on the way installs nothing (it left
     * the L2 before the eviction: installed, the L1 would hold a copy the L2 no longer knows of, which a later drop of the
     * frame could not reach; found by a review). Returns the dirty sectors the copy held (a write-back L1's), which the
     * L2 takes over.
     */
    public int invalidateLine(long paddr) {
        long line = t.lineOf(paddr);
        int m = mshrByLine.get(line);
        if (m >= 0) mDropAtFill[m] = true;
        int set = t.setOf(line);
        int way = t.find(set, line);
        if (way < 0) return 0;
        int i = set * t.ways + way, dirty = t.dirty[i];
        t.invalidate(i, repl);
        upperInvalidations++;
        if (dirty != 0) dirtyInvalidations++;
        return dirty;
    }

    private void occupancyTick() {
        long now = engine.now();
        occIntegral += (long) (mshrs - freeMshrs) * (now - occLastPs);
        occLastPs = now;
    }

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

    /** Write-back packets a write-back L1 sent (see the {@code write_backs} statistic). */
    public long writeBacks() { return writeBacks; }

    public long mshrMerges() { return merges; }

    /** Every line request the L1 served or passed on: loads (hits, misses, merges), stores and atomics; what its energy counts. */
    public long accesses() { return hits + misses + merges + writeHits + writeMisses + atomics; }

    /** Requests the L2 answered with a NACK (each re-sent). */
    public long nacksReceived() { return nacked; }

    public int mshrsInUse() { return mshrs - freeMshrs; }

    /**
     * Invalidates every line, as a change of coherence protocol requires (DESIGN §6, live swap). Only with no MSHR in
     * use. A write-back L1's dirty sectors go to their L2 slices, which have flushed already and post them to memory
     * (in flight afterwards, as the slices' own write-backs are). Returns the number of lines invalidated.
     */
    public int invalidateAll() {
        if (inFlight() != 0) throw new IllegalStateException(name + ": invalidate with " + inFlight() + " misses in flight");
        int n = 0;
        for (int i = 0; i < t.tag.length; i++) {
            if (t.valid[i] == 0) continue;
            if (t.dirty[i] != 0) xbar.l1Flushed(t.tag[i], t.dirty[i]);
            t.invalidate(i, repl);
            n++;
        }
        return n;
    }

    @Override
    public int inFlight() { return mshrs - freeMshrs + retrySize + faultSlots; }

    /** Dirty lines' write-backs not yet on the crossbar (a write-back L1's; nothing else waits for them). */
    public int writeBacksQueued() { return writeBacksQueued; }

    @Override
    public void registerStats(Stats s) {
        s.counter("hits", "load line requests whose sectors were all present", () -> hits);
        s.counter("misses", "load line requests that allocated an MSHR", () -> misses);
        s.counter("mshr_merges", "load line requests merged into a pending MSHR", () -> merges);
        s.counter("sector_misses", "32 B sectors requested from the L2 by loads", () -> sectorMisses);
        s.counter("write_hits", "stores to a present line (updated; written through, or dirty in a write-back L1) or, write-back, merged into its pending fetch", () -> writeHits);
        s.counter("write_misses", "stores to an absent line (written through without allocation, or in a write-back L1 a fetch of the whole line)", () -> writeMisses);
        s.counter("write_backs", "dirty data a write-back L1 sent to the L2 as a write-back packet: a replaced dirty line, a dirty line an atomic "
                + "invalidated, or stores merged into a fill whose line the L2 evicted meanwhile", () -> writeBacks);
        s.counter("write_back_sectors", "32 B sectors those write-backs carried", () -> writeBackSectors);
        s.counter("dirty_invalidations", "dirty lines the L2 invalidated (their data went back in the acknowledgement)", () -> dirtyInvalidations);
        s.counter("atomics", "atomics sent to the L2", () -> atomics);
        s.counter("mshr_full_refusals", "accesses refused because every MSHR was busy", () -> mshrFullRefusals);
        s.counter("merge_full_refusals", "accesses refused because the line's MSHR had no merge slot", () -> mergeFullRefusals);
        s.counter("nacks_received", "requests the L2 NACKed (re-sent after " + NACK_RETRY_CYCLES + " cycles)", () -> nacked);
        s.counter("sent_past_resends", "load, store and atomic requests sent while older requests waited in the re-send queue (NACKed, or "
                + "waiting for the port): the L2 may serve them first, so its order (its LRU, its write hits) need not be program order", () -> sentPastResends);
        s.counter("invalidations", "lines dropped because the L2 evicted them", () -> upperInvalidations);
        s.counter("uncached_requests", "load line requests to lines the cacheability policy forbids to allocate (seed 000 Ch. 6)", () -> uncachedRequests);
        s.counter("uncached_merges", "of those, requests merged into a pending MSHR (cacheless L1 coalescing, seed 000 §6.2.2.1)", () -> uncachedMerges);
        s.counter("uncached_fetched_sectors", "32 B sectors fetched for uncached MSHRs", () -> uncachedFetchedSectors);
        s.counter("uncached_used_sectors", "of those, sectors a merged request wanted (line utilisation, seed 000 Table 6.2)", () -> uncachedUsedSectors);
        s.counter("faulted_stores", "stores held by a permission fault (read-only caching, seed 000 §6.2.3)", () -> faultedStores);
        s.counter("fault_blocks", "times the SM's pending faults reached the limit and blocked its load/store unit", () -> faultBlocks);
        s.counter("fault_blocked_ps", "time the load/store unit was blocked by the pending-fault limit, ps", () -> faultBlockedPs + (faultBlocked ? engine.now() - faultBlockedSince : 0));
        s.counter("port_refusals", "accesses refused because the crossbar port had no credit", () -> portRefusals);
        s.counter("mshr_occupancy_ps", "integral of MSHRs in use over time (entries x ps)", () -> {
            occupancyTick();
            return occIntegral;
        });
        s.gauge("hit_rate", "hits / (hits + misses + merges) of loads", () -> {
            long a = hits + misses + merges;
            return a == 0 ? 0 : (double) hits / a;
        });
    }
}
