package org.hmsim.platform.gpu.sm;

import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.gpu.GpuConfig;
import org.hmsim.platform.gpu.cache.L1Cache;
import org.hmsim.platform.gpu.cache.L1Client;
import org.hmsim.platform.gpu.tlb.Mmu;
import org.hmsim.platform.gpu.tlb.TlbArray;
import org.hmsim.platform.gpu.tlb.TranslationClient;
import org.hmsim.platform.gpu.xbar.Crossbar;

/**
 * One streaming multiprocessor: resident CTAs and warps up to its limits, a warp scheduler choosing among
 * ready warps, {@code issueWidth} issue pipelines, the coalescer and a load/store unit that sends one line
 * request per cycle through the L1 TLB into the L1.
 *
 * <p>Timing rules. {@code COMPUTE n} occupies the warp and one issue pipeline for n cycles (throughput-bound
 * arithmetic). A memory instruction occupies a pipeline for one cycle; its line requests queue for the
 * load/store unit. Loads are non-blocking: the warp continues until an instruction with
 * {@code waitsForLoads}, which waits until every load the warp issued has returned. Stores are
 * fire-and-forget for the warp but outstanding for the kernel until the L2 acknowledges them.
 * {@code BARRIER} waits for every (non-exited) warp of the CTA. A warp slot is freed when the warp has
 * exited and its loads have returned; a CTA's resources when all its warps are freed.
 *
 * <p>Event-driven: the SM ticks (stepped by the GPU's {@link SmClock}, in SM-index order within a cycle) only
 * while a warp can issue or the load/store unit has work, and otherwise sleeps until a response, a
 * translation or a new CTA wakes it.
 *
 * <p>Throttling (the slot's caps, {@link CoreView}): a closed issue gate issues nothing; a thread-block cap below
 * {@code maxCtas} is what {@link #canTake} checks, so the dispatcher sends no more; a warp cap lets only the oldest warps
 * not waiting at a barrier issue. At the hardware's limits the issue loop pays one comparison.
 *
 * <p>Translation: a line request looks up the L1 TLB ({@code l1LatencyCycles}, also paid on hits). On a miss
 * it is parked (up to {@value #PARK_CAPACITY} requests per SM, misses to one page merged) while the shared
 * L2 TLB and the walkers translate; the load/store unit continues with later requests (hit under miss).
 */
public final class Sm implements CoreView, L1Client, TranslationClient {
    static final int LDST_CAPACITY = 128;
    static final int PARK_CAPACITY = 64;
    private static final int K_READ = 0, K_WRITE = 1, K_ATOMIC = 2;
    private static final AccessKind[] KINDS = {AccessKind.READ, AccessKind.WRITE, AccessKind.ATOMIC};

    private final String name;
    private final int gpu, index;
    private final Engine engine;
    private final long period;
    private final org.hmsim.platform.engine.ClockEdges edges;
    private final int maxCtas, maxWarps;
    private final long sharedBytes;
    private final SmOwner owner;
    private final SmClock smClock;
    private final WarpSchedulerPolicy.State sched;
    private final L1Cache l1;
    private final TlbArray tlb;
    private final Mmu mmu;
    private final long tlbL1Ps;
    private final int pageShift;
    private final long pageMask;
    private final Coalescer coalescer;
    /** Line requests the load/store unit hands the L1 per cycle (the L1's ports). */
    private final int l1Ports;

    // warps
    private final WarpProgram[] prog;
    private final WarpInstruction[] instr;
    private final int[] warpCta;
    private final long[] busyUntil, hitReadyAt;
    private final int[] pendingLoads;
    /**
     * Per-cycle scan state, kept in primitive arrays and masks: the earliest time each warp's next
     * instruction may issue (busy pipeline, pending L1-hit data), and bit masks of warps at a barrier,
     * waiting for outstanding loads, or whose next instruction is a memory instruction.
     */
    private final long[] readyAt;
    private final boolean[] nextWaits;
    private long barrierMask, waitMask, memMask;
    /** Earliest issue time of a warp unblocked by an L1 hit during the current cycle (after the scan). */
    private long hitWake = Long.MAX_VALUE;
    private long liveMask, drainingMask, freeWarpMask;
    private int residentWarps;
    private long ageCounter;
    /** Each warp's start order, for the warp cap's "oldest first" (the scheduler keeps its own copy). */
    private final long[] warpAge;
    /**
     * The throttling slot's caps (CoreView): blocks this SM may hold and warps that may issue. At the hardware's, the
     * issue loop pays one comparison; {@code issuable} caches the oldest {@code warpLimit} of {@code issuableOf}.
     */
    private int ctaLimit, warpLimit;
    private long issuable, issuableOf;
    private boolean issuableStale = true;

    // CTAs
    private final int[] ctaLive, ctaRunning, ctaArrived;
    private final long[] ctaWarps, ctaShared;
    private final boolean[] ctaUsed;
    private int residentCtas;
    private long sharedUsed;
    /** Time with at least one resident block, closed spells and the open one's start (-1: none open). */
    private long occupiedPs, occupiedSince = -1;

    // issue
    private final long[] pipeFree;
    private boolean issueEnabled = true;
    private long stalledUntil;
    private long tickAt = -1, lastTickPs = Long.MIN_VALUE / 2;
    private int outstandingStores;

    // load/store unit: coalesced requests waiting for translation
    private final long[] qVaddr = new long[LDST_CAPACITY];
    private final int[] qMask = new int[LDST_CAPACITY], qKind = new int[LDST_CAPACITY], qWarp = new int[LDST_CAPACITY];
    private int qHead, qSize;
    // translated requests waiting for the L1 (after a TLB miss or an L1 refusal)
    private final long[] rPaddr = new long[PARK_CAPACITY + 1], rVaddr = new long[PARK_CAPACITY + 1];
    private final int[] rMask = new int[PARK_CAPACITY + 1], rKind = new int[PARK_CAPACITY + 1], rWarp = new int[PARK_CAPACITY + 1];
    private int rHead, rSize;
    // requests parked on an L1 TLB miss
    private final long[] pVpn = new long[PARK_CAPACITY], pVaddr = new long[PARK_CAPACITY];
    private final int[] pMask = new int[PARK_CAPACITY], pKind = new int[PARK_CAPACITY], pWarp = new int[PARK_CAPACITY];
    private int pSize;
    private final long[] missVpn = new long[PARK_CAPACITY];
    private int missCount;
    private boolean l1Blocked, parkFull;
    private long l1BlockedSince, parkFullSince;

    private long threadAccesses, pageAccesses;
    private long issued, computeCycles, memInstructions, lineRequests, l1StallCycles, tlbStallCycles, ctasCompleted,
            issueCycles, barriers;

    public Sm(String name, int gpu, int index, GpuConfig cfg, ClockDomain clock, Engine engine, RequestPool pool,
              Crossbar xbar, Mmu mmu, WarpSchedulerPolicy warpScheduler, ReplacementPolicy replacement,
              CacheabilityPolicy cacheability, SmOwner owner, SmClock smClock) {
        this.name = name;
        this.gpu = gpu;
        this.index = index;
        this.engine = engine;
        this.period = clock.periodPs();
        this.edges = new org.hmsim.platform.engine.ClockEdges(period);
        this.maxCtas = cfg.maxCtasPerSm();
        this.maxWarps = cfg.maxWarpsPerSm();
        if (maxWarps <= 0 || maxWarps > 64) throw new IllegalArgumentException(name + ": maxWarpsPerSm must be 1..64 (ready sets are 64-bit masks)");
        if (maxCtas <= 0 || cfg.issueWidth() <= 0) throw new IllegalArgumentException(name + ": maxCtasPerSm and issueWidth must be > 0");
        this.sharedBytes = cfg.sharedBytesPerSm();
        this.owner = owner;
        this.smClock = smClock;
        this.sched = warpScheduler.forSm(gpu, index, maxWarps);
        this.l1 = new L1Cache(name + ".l1", gpu, index, cfg.l1(), clock, engine, pool, xbar, replacement, cacheability, this);
        this.tlb = new TlbArray(cfg.tlb().l1Entries(), cfg.tlb().l1Ways());
        this.mmu = mmu;
        this.tlbL1Ps = clock.ps(cfg.tlb().l1LatencyCycles());
        this.pageShift = Long.numberOfTrailingZeros(mmu.pageBytes());
        this.pageMask = mmu.pageBytes() - 1;
        this.coalescer = new Coalescer(cfg.l1().lineBytes());
        this.l1Ports = cfg.l1().ports();
        prog = new WarpProgram[maxWarps];
        instr = new WarpInstruction[maxWarps];
        for (int w = 0; w < maxWarps; w++) instr[w] = new WarpInstruction();
        warpCta = new int[maxWarps];
        warpAge = new long[maxWarps];
        ctaLimit = maxCtas;
        warpLimit = maxWarps;
        busyUntil = new long[maxWarps];
        hitReadyAt = new long[maxWarps];
        pendingLoads = new int[maxWarps];
        readyAt = new long[maxWarps];
        nextWaits = new boolean[maxWarps];
        freeWarpMask = maxWarps == 64 ? -1L : (1L << maxWarps) - 1;
        ctaLive = new int[maxCtas];
        ctaRunning = new int[maxCtas];
        ctaArrived = new int[maxCtas];
        ctaWarps = new long[maxCtas];
        ctaShared = new long[maxCtas];
        ctaUsed = new boolean[maxCtas];
        pipeFree = new long[cfg.issueWidth()];
        smClock.attach(this);
        schedulerChanged();
    }

    /** The warp scheduler's state was made or swapped: the L1 tells it of accesses and evictions only if it asks to be told. */
    public void schedulerChanged() { l1.observe(sched.observesL1() ? sched : null); }

    // ---------------------------------------------------------------- CTAs

    /** Whether a CTA of {@code k} fits now (CTA slot, warp slots, shared memory). */
    public boolean canTake(Kernel k) {
        return residentCtas < ctaLimit && Long.bitCount(freeWarpMask) >= k.warpsPerCta()
                && sharedUsed + k.sharedBytesPerCta() <= sharedBytes;
    }

    /** Whether a CTA of {@code k} could ever fit on an empty SM. */
    public boolean fitsEver(Kernel k) {
        return k.warpsPerCta() <= maxWarps && k.sharedBytesPerCta() <= sharedBytes;
    }

    /** Places CTA {@code cta} of {@code k} on this SM. */
    public void startCta(Kernel k, int cta) {
        if (!canTake(k)) throw new IllegalStateException(name + ": no room for CTA " + cta);
        int c = 0;
        while (ctaUsed[c]) c++;
        ctaUsed[c] = true;
        if (residentCtas++ == 0) occupiedSince = engine.now();
        sharedUsed += k.sharedBytesPerCta();
        ctaShared[c] = k.sharedBytesPerCta();
        int warps = k.warpsPerCta();
        ctaLive[c] = warps;
        ctaRunning[c] = warps;
        ctaArrived[c] = 0;
        ctaWarps[c] = 0;
        long now = engine.now();
        for (int w = 0; w < warps; w++) {
            int slot = Long.numberOfTrailingZeros(freeWarpMask);
            freeWarpMask &= ~(1L << slot);
            ctaWarps[c] |= 1L << slot;
            residentWarps++;
            warpCta[slot] = c;
            busyUntil[slot] = now;
            hitReadyAt[slot] = now;
            pendingLoads[slot] = 0;
            barrierMask &= ~(1L << slot);
            prog[slot] = k.program(cta, w);
            liveMask |= 1L << slot;
            warpAge[slot] = ageCounter;
            sched.onWarpStart(slot, ageCounter++);
            if (!fetch(slot)) exitWarp(slot);
        }
        wake();
    }

    private void exitWarp(int slot) {
        sched.onWarpExit(slot);
        liveMask &= ~(1L << slot);
        waitMask &= ~(1L << slot);
        memMask &= ~(1L << slot);
        prog[slot] = null;
        int c = warpCta[slot];
        ctaRunning[c]--;
        drainingMask |= 1L << slot;
        if (ctaArrived[c] > 0 && ctaArrived[c] >= ctaRunning[c]) releaseBarrier(c);
    }

    private void retire(int slot) {
        drainingMask &= ~(1L << slot);
        freeWarpMask |= 1L << slot;
        residentWarps--;
        int c = warpCta[slot];
        if (--ctaLive[c] == 0) {
            ctaUsed[c] = false;
            if (--residentCtas == 0) {
                occupiedPs += engine.now() - occupiedSince;
                occupiedSince = -1;
            }
            sharedUsed -= ctaShared[c];
            ctasCompleted++;
            owner.ctaCompleted(this);
        }
    }

    private void retireDrained(long now) {
        long d = drainingMask;
        while (d != 0) {
            int w = Long.numberOfTrailingZeros(d);
            d &= d - 1;
            if (pendingLoads[w] == 0 && busyUntil[w] <= now && hitReadyAt[w] <= now) retire(w);
        }
    }

    private void releaseBarrier(int c) {
        ctaArrived[c] = 0;
        barrierMask &= ~ctaWarps[c];
    }

    // ---------------------------------------------------------------- the cycle

    /** One cycle of this SM at cycle edge {@code now}, stepped by the GPU's {@link SmClock}. */
    void tick(long now) {
        tickAt = -1;
        lastTickPs = now;
        retireDrained(now);
        long warpNext = issue(now);
        ldstStep(now);
        warpNext = Math.min(warpNext, hitWake);
        hitWake = Long.MAX_VALUE;
        scheduleNext(now, warpNext);
    }

    /**
     * Issues up to one instruction per free pipeline from the ready warps, as the scheduler picks; returns
     * the earliest time a warp that is not blocked (barrier, outstanding loads) may issue next.
     */
    private long issue(long now) {
        if (liveMask == 0) return Long.MAX_VALUE;
        long cand = liveMask & ~barrierMask & ~waitMask;
        if (warpLimit < maxWarps) cand &= issuableWarps();
        if (qSize + 2 * WarpInstruction.THREADS > LDST_CAPACITY) cand &= ~memMask;
        long ready = 0, next = Long.MAX_VALUE;
        for (long m = cand; m != 0; m &= m - 1) {
            int w = Long.numberOfTrailingZeros(m);
            long t = readyAt[w];
            if (t <= now) ready |= 1L << w;
            else if (t < next) next = t;
        }
        if (ready == 0 || !issueEnabled || now < stalledUntil) return ready != 0 ? now : next;
        boolean any = false;
        for (int p = 0; p < pipeFree.length && ready != 0; p++) {
            if (pipeFree[p] > now) continue;
            int slot = sched.pick(ready, ready & memMask);
            if (slot == WarpSchedulerPolicy.State.NONE) break; // the scheduler holds the pipelines back this cycle: asked again next
            if (slot < 0 || slot >= 64 || (ready & (1L << slot)) == 0) throw badPick(slot, ready, now);
            ready &= ~(1L << slot);
            issueOne(slot, p, now);
            any = true;
            // A memory instruction adds up to 2 x THREADS line requests: the headroom checked before the
            // loop covers one, so with several pipelines re-check it after each issue (issue_width 4 on a
            // gather overflowed the load/store ring, overwriting requests: a deadlock; SmIssueWidthTest).
            if (qSize + 2 * WarpInstruction.THREADS > LDST_CAPACITY) ready &= ~memMask;
            long bit = 1L << slot;
            if ((liveMask & bit) != 0 && ((barrierMask | waitMask) & bit) == 0 && readyAt[slot] < next) next = readyAt[slot];
        }
        if (any) issueCycles++;
        // Under a warp cap a barrier or an exit this cycle lets other warps in, which the scan above did not see: look
        // again next cycle, or an SM with nothing in flight sleeps for good (a review's deadlock at warps_per_sm 1).
        if (warpLimit < maxWarps && (liveMask & ~barrierMask) != issuableOf) next = Math.min(next, now + period);
        return ready != 0 ? now : next;
    }

    /** A pick outside the ready set: the policy's fault, said with what it was offered (a trial read "not in ready set 1" as slot 1). */
    private IllegalStateException badPick(int slot, long ready, long now) {
        StringBuilder slots = new StringBuilder();
        for (long m = ready; m != 0; m &= m - 1) slots.append(slots.length() == 0 ? "" : ", ").append(Long.numberOfTrailingZeros(m));
        return new IllegalStateException(name + " at " + now / 1000.0 + " ns: the warp scheduler (" + sched
                + ") picked slot " + slot + ", which is not ready (ready slots: " + slots + "); pick must return a slot of its"
                + " ready bitmask (bit i = slot i) or WarpSchedulerPolicy.State.NONE");
    }

    /**
     * The warps the cap lets issue: the {@code warpLimit} oldest of those not waiting at a barrier (a warp at a barrier
     * would hold a slot its block's later warps need to reach it). Recomputed only when that set changed.
     */
    private long issuableWarps() {
        long of = liveMask & ~barrierMask;
        if (of == issuableOf && !issuableStale) return issuable;
        issuableOf = of;
        issuableStale = false;
        if (Long.bitCount(of) <= warpLimit) return issuable = of;
        long picked = 0;
        for (int k = 0; k < warpLimit; k++) {
            int oldest = -1;
            for (long m = of & ~picked; m != 0; m &= m - 1) {
                int w = Long.numberOfTrailingZeros(m);
                if (oldest < 0 || warpAge[w] < warpAge[oldest]) oldest = w;
            }
            picked |= 1L << oldest;
        }
        return issuable = picked;
    }

    private void issueOne(int w, int pipe, long now) {
        WarpInstruction in = instr[w];
        issued++;
        switch (in.kind) {
            case COMPUTE -> {
                int n = Math.max(1, in.cycles);
                computeCycles += n;
                busyUntil[w] = now + n * period;
                pipeFree[pipe] = now + n * period;
            }
            case LOAD -> memory(w, K_READ, in, now, pipe);
            case STORE -> memory(w, K_WRITE, in, now, pipe);
            case ATOMIC -> memory(w, K_ATOMIC, in, now, pipe);
            case BARRIER -> {
                barriers++;
                busyUntil[w] = now + period;
                pipeFree[pipe] = now + period;
                int c = warpCta[w];
                barrierMask |= 1L << w;
                if (++ctaArrived[c] >= ctaRunning[c]) releaseBarrier(c);
            }
        }
        if (!fetch(w)) exitWarp(w);
    }

    private boolean fetch(int w) {
        WarpInstruction in = instr[w];
        if (!prog[w].next(in)) return false;
        long bit = 1L << w;
        boolean waits = in.waitsForLoads;
        nextWaits[w] = waits;
        readyAt[w] = waits ? Math.max(busyUntil[w], hitReadyAt[w]) : busyUntil[w];
        if (waits && pendingLoads[w] > 0) waitMask |= bit;
        else waitMask &= ~bit;
        WarpInstruction.Kind k = in.kind;
        if (k == WarpInstruction.Kind.LOAD || k == WarpInstruction.Kind.STORE || k == WarpInstruction.Kind.ATOMIC) memMask |= bit;
        else memMask &= ~bit;
        return true;
    }

    private void memory(int w, int kind, WarpInstruction in, long now, int pipe) {
        busyUntil[w] = now + period;
        pipeFree[pipe] = now + period;
        memInstructions++;
        threadAccesses += Integer.bitCount(in.activeMask);
        int n = coalescer.coalesce(in);
        lineRequests += n;
        pageAccesses += coalescer.pages(pageShift);
        if (kind == K_WRITE) outstandingStores += n;
        else pendingLoads[w] += n;
        for (int i = 0; i < n; i++) {
            int q = (qHead + qSize) % LDST_CAPACITY;
            qVaddr[q] = coalescer.lines[i];
            qMask[q] = coalescer.sectors[i];
            qKind[q] = kind;
            qWarp[q] = w;
            qSize++;
        }
    }

    /** The load/store unit: up to one line request per L1 port and cycle into the L1 (replays first, then new requests). */
    private void ldstStep(long now) {
        for (int p = 0; p < l1Ports && ldstOne(now); p++) { }
    }

    /** Moves one line request towards the L1 (sent, replayed or parked for its translation); false if none moved. */
    private boolean ldstOne(long now) {
        if (l1Blocked) return false;
        if (rSize > 0) {
            int r = rHead;
            if (!sendToL1(rKind[r], rPaddr[r], rVaddr[r], rMask[r], rWarp[r], now)) return false;
            if (++rHead == rPaddr.length) rHead = 0;
            rSize--;
            return true;
        }
        if (qSize == 0 || parkFull) return false;
        int q = qHead;
        long vaddr = qVaddr[q];
        long vpn = vaddr >>> pageShift;
        long base = tlb.lookup(vpn);
        if (base != -1) {
            long paddr = base + (vaddr & pageMask);
            if (!sendToL1(qKind[q], paddr, vaddr, qMask[q], qWarp[q], now + tlbL1Ps)) pushReplay(qKind[q], paddr, vaddr, qMask[q], qWarp[q]);
        } else {
            if (pSize == PARK_CAPACITY) {
                // the request stays at the queue's head and is looked up again once the buffer has room: its miss
                // counts then, once (counted here too, each wait added an L1 TLB miss: found by a statistics review)
                tlb.retractMiss();
                parkFull = true;
                parkFullSince = now;
                return false;
            }
            park(vpn, q, now);
        }
        if (pageReferences != null) pageReferences.accept(vpn);
        qHead = (qHead + 1) % LDST_CAPACITY;
        qSize--;
        return true;
    }

    private boolean sendToL1(int kind, long paddr, long vaddr, int mask, int w, long startPs) {
        int res = l1.access(KINDS[kind], paddr, vaddr, mask, w, startPs);
        if (res == L1Cache.REFUSED) {
            l1Blocked = true;
            l1BlockedSince = engine.now();
            return false;
        }
        if (res == L1Cache.HIT) {
            long ready = startPs + l1.latencyPs();
            if (ready > hitReadyAt[w]) hitReadyAt[w] = ready;
            if (nextWaits[w] && ready > readyAt[w]) readyAt[w] = ready;
            if (--pendingLoads[w] == 0 && (waitMask & (1L << w)) != 0) {
                waitMask &= ~(1L << w);
                if (readyAt[w] < hitWake) hitWake = readyAt[w];
            }
        }
        return true;
    }

    private void pushReplay(int kind, long paddr, long vaddr, int mask, int w) {
        int r = rHead + rSize;
        if (r >= rPaddr.length) r -= rPaddr.length;
        rKind[r] = kind;
        rPaddr[r] = paddr;
        rVaddr[r] = vaddr;
        rMask[r] = mask;
        rWarp[r] = w;
        rSize++;
    }

    private void park(long vpn, int q, long now) {
        pVpn[pSize] = vpn;
        pVaddr[pSize] = qVaddr[q];
        pMask[pSize] = qMask[q];
        pKind[pSize] = qKind[q];
        pWarp[pSize] = qWarp[q];
        pSize++;
        for (int i = 0; i < missCount; i++) if (missVpn[i] == vpn) return;
        missVpn[missCount++] = vpn;
        mmu.request(index, vpn, tlbL1Ps);
    }

    private void scheduleNext(long now, long warpNext) {
        long soonest = now + period;
        long next = Long.MAX_VALUE;
        if (!l1Blocked && (rSize > 0 || (qSize > 0 && !parkFull))) next = soonest;
        for (long d = drainingMask; d != 0; d &= d - 1) {
            int w = Long.numberOfTrailingZeros(d);
            if (pendingLoads[w] == 0) next = Math.min(next, Math.max(soonest, Math.max(busyUntil[w], hitReadyAt[w])));
        }
        if (issueEnabled && warpNext != Long.MAX_VALUE && next > soonest) {
            long pipe = Long.MAX_VALUE;
            for (long f : pipeFree) pipe = Math.min(pipe, f);
            next = Math.min(next, Math.max(Math.max(warpNext, pipe), Math.max(stalledUntil, soonest)));
        }
        // ticks run on cycle edges, so the next cycle (the common case) needs no alignment (a long division)
        if (next != Long.MAX_VALUE) scheduleAt(next == soonest ? soonest : alignUp(next));
    }

    private long alignUp(long t) { return edges.alignUp(t); }

    private void scheduleAt(long t) {
        if (tickAt != -1 && tickAt <= t) return;
        tickAt = t;
        smClock.request(index, t);
    }

    /** Something changed (a response, a translation, a new CTA): tick at the next cycle this SM can use. */
    private void wake() {
        long edge = lastTickPs + period, t = Math.max(engine.now(), edge);
        if (tickAt != -1 && tickAt <= t) return; // already due no later (alignUp(t) >= t)
        scheduleAt(t == edge ? t : alignUp(t));
    }

    // ---------------------------------------------------------------- callbacks

    @Override
    public void onLoadData(int warp) {
        if (--pendingLoads[warp] == 0) {
            waitMask &= ~(1L << warp);
            wake();
        }
    }

    @Override
    public void onStoreAck(int warp) {
        if (--outstandingStores == 0) owner.storesDrained(this);
    }

    @Override
    public void onL1Space() {
        if (!l1Blocked) return;
        l1Blocked = false;
        l1StallCycles += (engine.now() - l1BlockedSince) / period;
        wake();
    }

    @Override
    public void onTranslation(long vpn, long pageBase) {
        tlb.insert(vpn, pageBase);
        for (int i = 0; i < missCount; i++) {
            if (missVpn[i] == vpn) {
                missVpn[i] = missVpn[--missCount];
                break;
            }
        }
        int k = 0;
        for (int i = 0; i < pSize; i++) {
            if (pVpn[i] == vpn) pushReplay(pKind[i], pageBase + (pVaddr[i] & pageMask), pVaddr[i], pMask[i], pWarp[i]);
            else {
                pVpn[k] = pVpn[i];
                pVaddr[k] = pVaddr[i];
                pMask[k] = pMask[i];
                pKind[k] = pKind[i];
                pWarp[k] = pWarp[i];
                k++;
            }
        }
        pSize = k;
        if (parkFull && pSize < PARK_CAPACITY) {
            parkFull = false;
            tlbStallCycles += (engine.now() - parkFullSince) / period;
        }
        wake();
    }

    /** Shootdown: drops {@code vpn} from this SM's L1 TLB. */
    public void invalidateTlb(long vpn) { tlb.invalidate(vpn); }

    /** Drops every L1 TLB entry; returns how many were held. */
    public int invalidateAllTlb() { return tlb.invalidateAll(); }

    /** Stops issuing for {@code ps} (a GPU-wide TLB shootdown); requests in flight continue. */
    public void stall(long ps) {
        stalledUntil = Math.max(stalledUntil, engine.now() + ps);
    }

    // ---------------------------------------------------------------- views

    @Override
    public L1Cache l1() { return l1; }

    /** Told the page of every line request as it passes the L1 TLB (the residency slot's references); null: nobody. */
    private java.util.function.LongConsumer pageReferences;

    /** Sets (null: removes) the observer of every line request's page at its L1 TLB lookup, on the simulation thread. */
    public void setPageReferences(java.util.function.LongConsumer observer) { this.pageReferences = observer; }

    public TlbArray tlb() { return tlb; }

    public int outstandingStores() { return outstandingStores; }

    @Override
    public long issued() { return issued; }

    @Override
    public long issueCycles() { return issueCycles; }

    @Override
    public long occupiedCycles() { return (occupiedPs + (occupiedSince < 0 ? 0 : engine.now() - occupiedSince)) / period; }

    public long lineRequests() { return lineRequests; }

    /** Distinct pages summed over memory instructions (each instruction's pages counted once). */
    public long pageAccesses() { return pageAccesses; }

    public long memInstructions() { return memInstructions; }

    /** Active threads of the memory instructions issued (seed 002 §4.4's coalescing measure: per line request). */
    public long threadAccesses() { return threadAccesses; }

    public long l1StallCycles() { return l1StallCycles; }

    @Override
    public String name() { return name; }

    @Override
    public int gpu() { return gpu; }

    @Override
    public int index() { return index; }

    @Override
    public int residentCtas() { return residentCtas; }

    @Override
    public int residentWarps() { return residentWarps; }

    @Override
    public int maxCtas() { return maxCtas; }

    @Override
    public int maxWarps() { return maxWarps; }

    @Override
    public boolean issueEnabled() { return issueEnabled; }

    @Override
    public void setIssueEnabled(boolean enabled) {
        if (enabled == issueEnabled) return;
        issueEnabled = enabled;
        if (enabled) wake();
    }

    @Override
    public int ctaLimit() { return ctaLimit; }

    @Override
    public void setCtaLimit(int ctas) {
        if (ctas < 0 || ctas > maxCtas) throw new IllegalArgumentException(name + ": a thread-block cap is 0.." + maxCtas + ", got " + ctas);
        boolean raised = ctas > ctaLimit;
        ctaLimit = ctas;
        if (raised) owner.roomOpened(this);
    }

    @Override
    public int warpLimit() { return warpLimit; }

    @Override
    public void setWarpLimit(int warps) {
        if (warps < 1 || warps > maxWarps) throw new IllegalArgumentException(name + ": a warp cap is 1.." + maxWarps + ", got " + warps);
        boolean raised = warps > warpLimit;
        warpLimit = warps;
        issuableStale = true;
        if (raised) wake();
    }

    @Override
    public int inFlight() {
        int loads = 0;
        for (int p : pendingLoads) loads += p;
        return loads + outstandingStores + l1.writeBacksQueued();
    }

    @Override
    public void registerStats(Stats s) {
        s.counter("issued", "warp instructions issued", () -> issued);
        s.counter("issue_cycles", "cycles in which at least one instruction issued", () -> issueCycles);
        // CoreView had it; stats.json had no busy time per SM or GPU (a multi-GPU trial)
        s.counter("occupied_cycles", "cycles in which the SM held at least one thread block (its busy time; minus issue_cycles: stalled with work)",
                this::occupiedCycles);
        s.counter("compute_cycles", "issue-pipeline cycles occupied by COMPUTE instructions", () -> computeCycles);
        s.counter("mem_instructions", "load/store/atomic warp instructions", () -> memInstructions);
        s.counter("line_requests", "line requests (of the L1's line size) out of the coalescer", () -> lineRequests);
        s.gauge("requests_per_mem_instruction", "line requests per memory instruction (coalescing efficiency)",
                () -> memInstructions == 0 ? 0 : (double) lineRequests / memInstructions);
        s.counter("page_accesses", "distinct pages per memory instruction, summed (seed 002 Fig 17)", () -> pageAccesses);
        s.gauge("pages_per_mem_instruction", "distinct pages per memory instruction (page-level coalescing, seed 002 Fig 17)",
                () -> memInstructions == 0 ? 0 : (double) pageAccesses / memInstructions);
        s.counter("barriers", "barrier instructions issued", () -> barriers);
        s.counter("ctas_completed", "thread blocks retired", () -> ctasCompleted);
        s.counter("mshr_stall_cycles", "cycles the load/store unit waited because the L1 refused (MSHRs, merge slots or crossbar port full)", () -> l1StallCycles);
        s.counter("tlb_stall_cycles", "cycles the load/store unit waited because its TLB-miss buffer was full", () -> tlbStallCycles);
        s.counter("tlb.hits", "L1 TLB hits", tlb::hits);
        s.counter("tlb.misses", "L1 TLB misses", tlb::misses);
        l1.registerStats(s.scope("l1"));
    }
}
