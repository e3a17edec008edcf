package org.hmsim.platform.cpu;

import java.util.List;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * The CPU side of a machine: cores, their caches ({@link CpuCluster}), the LLC's miss registers, the
 * CPU–GPU {@link Directory}, and the coherence slot's page permissions (SAHC, seed 001 §4): every CPU
 * access and every GPU page walk asks {@link CoherencePolicy#checkAccess}; a fault costs the returned
 * CPU cycles, served one at a time by the OS handler, and moves the page away from the other side (the
 * GPUs' TLB entries are shot down when the CPU takes a page; the CPU's lines of the page are written
 * back and invalidated when a GPU takes it). Runtime events ({@link #runtimeEvent}) let the policy
 * flush the CPU or GPU caches (SAHC-T at the first launch, SAHC-A at {@code gpuWorkFinish()}).
 *
 * <p>Wiring: build it with the GPUs' memory sinks, give each GPU {@link #directory()} as its memory
 * sink, call {@link #onGpuWalk} from the GPUs' page-table walks, and run host phases with
 * {@link #runPhase}.
 */
public final class CpuSide implements MemClient, CpuCluster.Evictions {
    /** Translates CPU virtual addresses (maps a page on first touch). */
    public interface AddressSpace {
        long translate(long vaddr);
    }

    static final int REFUSED = 0, OK = 1;

    final Engine engine;
    private final CpuConfig cfg;
    private final ClockDomain clock;
    private final RequestPool pool;
    private final CoherencePolicy coherence;
    private final AddressSpace space;
    private final GpuControl gpus;
    private final int lineBytes;
    private final long pageBytes;
    private final CpuCluster cluster;
    private final Directory directory;
    private final CpuCore[] cores;
    // LLC miss registers: one per line in flight, with the cores waiting on it merged
    private static final int MERGE = 16;
    private final long[] mLine;
    /** Per miss register: the L1 + L2 + LLC look-up time of the miss, paid before its fill completes the access. */
    private final long[] mLookupPs;
    /** Completes a miss register's accesses once its look-up time after the response has passed. */
    private final EventTarget lookedUp = (kind, m) -> filled((int) m);
    private final boolean[] mWrite, mBusy;
    /**
     * Per miss register: its request granted by the directory and its fill in flight ({@link #onResponse} clears it),
     * and the probe that met the fill meanwhile ({@link #PROBED_NONE}, {@link #PROBED_DOWNGRADE}, {@link #PROBED_INVALIDATE}).
     */
    private final boolean[] mGranted;
    private final byte[] mProbed;
    static final byte PROBED_NONE = 0, PROBED_DOWNGRADE = 1, PROBED_INVALIDATE = 2;
    private final int[] mCore, mWaiting;
    private final int[][] mWaiter;
    private final boolean[][] mWaiterWrite;
    private int busyMshrs;
    private Runnable phaseDone;
    private long osFreePs, phaseStartPs;
    /** A live swap holds the cores' issue while the memory system drains ({@link #holdIssue}). */
    boolean issueHeld;
    /** The program's runtime registers as the coherence slot last heard them, handed to a policy swapped in. */
    private int lastLaunch = -1;
    private boolean gpuWorkFinished;
    private long completedAccesses;
    long cpuFaults, gpuFaults, faultPs, cpuFlushes, gpuFlushes, flushWritebacks, llcMshrRefusals, merged, mergedResent, hostPhases,
            hostPhasePs, pageFlushes, evictedFrameLines;

    public CpuSide(CpuConfig cfg, Engine engine, RequestPool pool, CoherencePolicy coherence, AddressSpace space, GpuControl gpus,
                   MemSink[] gpuMemory, MemSink cpuMemory, int lineBytes, long pageBytes) {
        this.cfg = cfg;
        this.engine = engine;
        this.clock = ClockDomain.ofMHz("cpu", cfg.clockMHz());
        this.pool = pool;
        this.coherence = coherence;
        this.space = space;
        this.gpus = gpus;
        this.lineBytes = lineBytes;
        this.pageBytes = pageBytes;
        this.cluster = new CpuCluster(cfg, lineBytes, this);
        this.directory = new Directory(cfg.directory(), clock, engine, pool, coherence, cluster, gpuMemory, cpuMemory, lineBytes, pageBytes);
        directory.setCpuRetry(this::wakeWaitingCores);
        cores = new CpuCore[cfg.cores()];
        for (int c = 0; c < cores.length; c++) cores[c] = new CpuCore(c, this, cfg.mlp(), clock.periodPs());
        int n = cfg.llcMshrs();
        mLine = new long[n];
        mLookupPs = new long[n];
        mWrite = new boolean[n];
        mBusy = new boolean[n];
        mGranted = new boolean[n];
        mProbed = new byte[n];
        directory.setCpuGranted(tag -> mGranted[(int) tag] = true);
        cluster.setPendingFills(new CpuCluster.PendingFills() {
            @Override public int probed(long line, boolean invalidate) { return pendingProbed(line, invalidate, true); }

            @Override public int held(long line) { return pendingProbed(line, false, false); }
        });
        mCore = new int[n];
        mWaiting = new int[n];
        mWaiter = new int[n][MERGE];
        mWaiterWrite = new boolean[n][MERGE];
    }

    public Directory directory() { return directory; }

    public CpuCluster cluster() { return cluster; }

    public ClockDomain clock() { return clock; }

    public CpuConfig config() { return cfg; }

    // ---------------------------------------------------------------- host phases

    /** Runs {@code phase} on the cores (each stream split into contiguous per-core chunks); {@code done} runs when all are idle. */
    public void runPhase(HostPhase phase, Runnable done) {
        hostPhases++;
        phaseStartPs = engine.now();
        for (CpuCore c : cores) c.clear(phase.computeCycles());
        for (HostPhase.Stream s : phase.streams()) {
            long n = s.accesses();
            long per = (n + cores.length - 1) / cores.length;
            for (int c = 0; c < cores.length; c++) {
                long from = s.base() + c * per * s.strideBytes();
                long to = Math.min(s.base() + s.bytes(), from + per * s.strideBytes());
                cores[c].add(from, to, s.strideBytes(), s.write());
            }
        }
        phaseDone = done;
        boolean any = false;
        for (CpuCore c : cores) {
            if (c.idle()) continue;
            any = true;
            c.start();
        }
        if (!any) finishPhase();
    }

    /** Runs the phases in order, then {@code done}. */
    public void runPhases(List<HostPhase> phases, Runnable done) {
        if (phases.isEmpty()) {
            done.run();
            return;
        }
        runPhase(phases.get(0), () -> runPhases(phases.subList(1, phases.size()), done));
    }

    void coreIdle(CpuCore c) {
        if (phaseDone == null) return;
        for (CpuCore k : cores) if (!k.idle()) return;
        finishPhase();
    }

    private void finishPhase() {
        hostPhasePs += engine.now() - phaseStartPs;
        Runnable d = phaseDone;
        phaseDone = null;
        if (d != null) d.run();
    }

    void accessDone(CpuCore c) {
        completedAccesses++;
        if (c.idle()) coreIdle(c);
        else c.wake();
    }

    // ---------------------------------------------------------------- permissions and faults

    /** The coherence-permission check of a CPU access; returns the stall (ps) of a fault, 0 if allowed. */
    long permission(long vaddr, boolean write) {
        long paddr = space.translate(vaddr);
        long cycles = coherence.checkAccess(CoherencePolicy.AGENT_CPU, paddr / pageBytes, write);
        if (cycles <= 0) return 0;
        cpuFaults++;
        gpus.shootdown(Math.floorDiv(vaddr, pageBytes)); // the GPUs lose the page: their TLBs must walk (and check) again
        return osHandler(cycles);
    }

    /**
     * A GPU page walk found {@code vaddr} at {@code paddr}: the GPU side of the permission check. Returns how
     * long the walk waits for the fault handler (ps), or 0: allowed, or {@code gpu_fault_stall: gpu}, where the
     * fault stops every SM of the GPU instead.
     */
    public long onGpuWalk(int gpu, long vaddr, long paddr) {
        long page = paddr / pageBytes;
        long cycles = coherence.checkAccess(gpu, page, false);
        if (cycles <= 0) return 0;
        gpuFaults++;
        pageFlushes++;
        flushWritebacks += cluster.flushRange(page * pageBytes, pageBytes); // the CPU loses the page
        long stallPs = osHandler(cycles);
        if (cfg.gpuFaultStall() == CpuConfig.GpuFaultStall.WALK) return stallPs;
        gpus.stall(gpu, stallPs);
        return 0;
    }

    /**
     * Unified memory moves the page at {@code frameBase} (a host frame) into GPU memory: the CPU loses it, as at a GPU's
     * permission fault: its lines of the frame are written back (dirty ones) and invalidated, through the directory, so
     * none is hit at an address the page no longer has. No fault time: the driver's fault handling covers it.
     */
    public void pageLeavesHost(long frameBase) {
        pageFlushes++;
        flushWritebacks += cluster.flushRange(frameBase, pageBytes);
    }

    /**
     * Unified memory evicts the page in GPU frame {@code frameBase}, which the CPU may have read or written over the link:
     * its lines of the frame are written back and invalidated, through the directory, as the GPU's L2 lines are, so the
     * frame's next page cannot hit them. Before 2026-11-30 they stayed: a trial's CPU read 8,192 lines of a page the frame
     * now held as hits on the evicted page's lines, and the oversubscribed run came out 36 % faster. Counted in
     * {@code evicted_frame_lines}.
     */
    public void gpuFrameEvicted(long frameBase) {
        int[] held = {0};
        flushWritebacks += cluster.flushRange(frameBase, pageBytes, held);
        evictedFrameLines += held[0];
    }

    /** One OS fault handler: faults are served in arrival order; returns the faulting agent's stall. */
    private long osHandler(long cycles) {
        long now = engine.now();
        long cost = clock.ps(cycles);
        osFreePs = Math.max(osFreePs, now) + cost;
        faultPs += cost;
        return osFreePs - now;
    }

    /** A runtime event for the coherence slot (see {@link CoherencePolicy#onRuntimeEvent}); performs the flushes it asks for. */
    public void runtimeEvent(int event, int argument) {
        if (event == CoherencePolicy.EVENT_KERNEL_LAUNCH) lastLaunch = argument;
        else if (event == CoherencePolicy.EVENT_GPU_WORK_FINISH) gpuWorkFinished = true;
        else if (event == CoherencePolicy.EVENT_PROGRAM_END) {
            lastLaunch = -1;
            gpuWorkFinished = false;
        }
        int flush = coherence.onRuntimeEvent(event, argument);
        if ((flush & CoherencePolicy.FLUSH_CPU_CACHES) != 0) {
            cpuFlushes++;
            flushWritebacks += cluster.flushAll() + flushPendingFills();
        }
        if ((flush & CoherencePolicy.FLUSH_GPU_CACHES) != 0) {
            gpuFlushes++;
            directory.gpuFlushed();
        }
    }

    // ---------------------------------------------------------------- accesses

    /** One access of core {@code c}; {@link #REFUSED} when no miss register is free (the core waits). */
    int access(CpuCore c, long vaddr, boolean write) {
        long paddr = space.translate(vaddr);
        long line = paddr & ~((long) lineBytes - 1);
        int r = cluster.access(c.index, line, write);
        if (r == CpuCluster.HIT) {
            c.completeIn(clock.ps(cluster.lastLatencyCycles));
            return OK;
        }
        long latency = clock.ps(cluster.lastLatencyCycles);
        for (int m = 0; m < mLine.length; m++) {
            if (!mBusy[m] || mLine[m] != line) continue;
            if (mWaiting[m] == MERGE) break;
            mWaiter[m][mWaiting[m]] = c.index;
            mWaiterWrite[m][mWaiting[m]++] = write;
            merged++;
            return OK;
        }
        int m = freeMshr();
        if (m < 0) {
            llcMshrRefusals++;
            return REFUSED;
        }
        MemRequest q = pool.take();
        q.kind = write ? AccessKind.WRITE : AccessKind.READ;
        q.paddr = line;
        q.size = r == CpuCluster.UPGRADE ? 0 : lineBytes;
        q.pool = PhysicalAddress.pool(line);
        q.createdPs = engine.now();
        q.replyTo = this;
        q.tag = m;
        mGranted[m] = false; // before the request: off the timed path the directory grants it inside cpuRequest
        mProbed[m] = PROBED_NONE;
        int d = directory.cpuRequest(q);
        if (d == Directory.REFUSED) {
            pool.give(q);
            return REFUSED;
        }
        cluster.countSent(r);
        if (d == Directory.GRANTED_NOW) {
            pool.give(q);
            cluster.complete(c.index, line, true, true);
            c.completeIn(latency);
            return OK;
        }
        mBusy[m] = true;
        busyMshrs++;
        mLine[m] = line;
        mLookupPs[m] = latency;
        mWrite[m] = write;
        mCore[m] = c.index;
        mWaiting[m] = 0;
        return OK;
    }

    private int freeMshr() {
        for (int m = 0; m < mLine.length; m++) if (!mBusy[m]) return m;
        return -1;
    }

    /**
     * The directory answered miss register {@code m}. The access also took its look-up in L1, L2 and the LLC
     * (found missing there before it went out), so it completes that much later: the request left at once and
     * the look-up is paid at the end, which gives a lone miss its full latency (a review measured a miss at the
     * DRAM time alone, 15 ns instead of ~38) while the register stays held throughout.
     */
    @Override
    public void onResponse(MemRequest q) {
        int m = (int) q.tag;
        pool.give(q);
        mGranted[m] = false;
        // the caches take the line now, as the directory recorded the grant: a GPU probe in the look-up's shadow finds it.
        // A probe that met the fill in flight (pendingProbed) already had its answer: an invalidation leaves the line
        // invalid (the fill only completes the waiting accesses), a downgrade leaves it shared.
        if (mProbed[m] != PROBED_INVALIDATE) {
            cluster.complete(mCore[m], mLine[m], mWrite[m], mWrite[m] || directory.cpuExclusive(mLine[m]));
            if (mProbed[m] == PROBED_DOWNGRADE) cluster.downgradeFilled(mLine[m]);
        }
        if (mLookupPs[m] > 0) engine.scheduleIn(mLookupPs[m], lookedUp, 0, m);
        else filled(m);
    }

    /** The access of miss register {@code m} and those merged into it complete; the register is free again. */
    private void filled(int m) {
        long line = mLine[m];
        boolean invalid = mProbed[m] == PROBED_INVALIDATE;
        finishCore(cores[mCore[m]]);
        for (int k = 0; k < mWaiting[m]; k++) {
            CpuCore w = cores[mWaiter[m][k]];
            // A merged access completes with the fill if it now hits; else (a store behind a load) it
            // goes to the LLC again as a fresh access: the slot stays held until it completes. A fill an
            // invalidation met in flight completes the merged accesses its grant covers (loads; stores behind a
            // store) with its data, used once, as it completed its own.
            if (invalid && (!mWaiterWrite[m][k] || mWrite[m])) finishCore(w);
            else if (cluster.access(w.index, line, mWaiterWrite[m][k], false) == CpuCluster.HIT) finishCore(w);
            else retryLater(w, line, mWaiterWrite[m][k]);
        }
        mBusy[m] = false; // freed last, so a re-issued store above cannot take this register mid-loop
        busyMshrs--;
        wakeWaitingCores();
    }

    private void finishCore(CpuCore c) {
        c.outstanding--;
        accessDone(c);
    }

    /**
     * A merged access that did not hit when its miss completed: a store that found only read permission (re-issued as an
     * upgrade), or a load whose line a GPU probe took in the look-up's shadow (re-issued as a read), through a miss register.
     */
    private void retryLater(CpuCore c, long line, boolean write) {
        int m = freeMshr();
        MemRequest q = pool.take();
        q.kind = write ? AccessKind.WRITE : AccessKind.READ; // a load whose line a GPU probe took in the look-up's shadow
        q.paddr = line;
        q.size = write && cluster.state(line) != Moesi.I ? 0 : lineBytes;
        q.pool = PhysicalAddress.pool(line);
        q.createdPs = engine.now();
        q.replyTo = this;
        if (m >= 0) {
            q.tag = m;
            mGranted[m] = false;
            mProbed[m] = PROBED_NONE;
        }
        int d = m < 0 ? Directory.REFUSED : directory.cpuRequest(q);
        if (d != Directory.REFUSED) { // it went to the directory: a miss or upgrade as well as a merge
            cluster.countSent(q.size == 0 ? CpuCluster.UPGRADE : CpuCluster.MISS);
            mergedResent++;
        }
        if (d != Directory.ACCEPTED) {
            // granted at once, or no register: complete the store now (its permission is the cluster's to
            // resolve at the next access; a rare case that only costs accuracy, not progress)
            pool.give(q);
            if (d == Directory.GRANTED_NOW) cluster.complete(c.index, line, true, true);
            finishCore(c);
            return;
        }
        mBusy[m] = true;
        busyMshrs++;
        mLine[m] = line;
        mLookupPs[m] = 0; // its look-up was paid by the miss it had merged into
        mWrite[m] = write;
        mCore[m] = c.index;
        mWaiting[m] = 0;
    }

    /**
     * {@link CpuCluster.PendingFills}: a probe of {@code line} meets the miss registers whose request the directory has
     * granted and whose fill is in flight. The probe is ordered after the grant, so the fill must not install the line
     * as if it came first: it is remembered (an invalidation wins over a downgrade) and answered now with the state the
     * fill brings, whose dirty data (a store's) the prober writes back or forwards; the fill then leaves the line invalid
     * or shared ({@link #onResponse}). Chosen over holding the recall until the fill arrives (or not evicting entries with
     * a transaction in flight): it is what the GPU L2 already does with a recall that meets its fill (L2Flush.dropRange
     * marks the transaction to drop its line), it keeps the seed's directory timing (its MSHRs and banks do not wait on a
     * sharer's fill, so no run without the race moves), and ideal coherence and page flushes, which cannot wait, meet the
     * same race. A register not granted yet is left alone: its lookup comes after the probe and sees the probe's result.
     */
    private int pendingProbed(long line, boolean invalidate, boolean remember) {
        if (busyMshrs == 0) return Moesi.I;
        int state = Moesi.I;
        for (int m = 0; m < mLine.length; m++) {
            if (!mBusy[m] || !mGranted[m] || mLine[m] != line) continue;
            byte p = invalidate ? PROBED_INVALIDATE : PROBED_DOWNGRADE;
            if (remember && p > mProbed[m]) mProbed[m] = p;
            if (mWrite[m]) state = Moesi.M;
            else if (state == Moesi.I) state = Moesi.S;
        }
        return state;
    }

    /** A flush of every CPU line also reaches the fills in flight (as {@link #pendingProbed}); returns the dirty ones. */
    private int flushPendingFills() {
        int dirty = 0;
        for (int m = 0; m < mLine.length; m++) {
            if (!mBusy[m] || !mGranted[m] || mProbed[m] == PROBED_INVALIDATE) continue;
            mProbed[m] = PROBED_INVALIDATE;
            dropped(mLine[m]);
            if (mWrite[m]) {
                writeback(mLine[m]);
                dirty++;
            }
        }
        return dirty;
    }

    private void wakeWaitingCores() {
        for (CpuCore c : cores) {
            if (!c.waitingForRetry) continue;
            c.waitingForRetry = false;
            c.wake();
        }
    }

    // ---------------------------------------------------------------- evictions from the cluster

    @Override
    public void writeback(long line) { directory.cpuWriteback(line, PhysicalAddress.pool(line)); }

    @Override
    public void dropped(long line) { directory.cpuDropped(line); }

    // ---------------------------------------------------------------- live swap of the coherence slot

    /**
     * Stops (true) or resumes (false) the cores' issue; accesses already issued complete. The swap protocol
     * holds the CPU, like the SMs, while the memory system drains for a coherence or interleave swap.
     */
    public void holdIssue(boolean hold) {
        if (hold == issueHeld) return;
        issueHeld = hold;
        if (!hold) wakeWaitingCores();
    }

    /**
     * What a change of coherence protocol requires of the CPU side, at a drained safe point: every CPU line
     * is invalidated and the dirty ones written back (through the directory's memory port; the caller waits
     * until they reached memory). Returns {dirty lines written back, lines invalidated}.
     */
    public long[] flushForSwap() {
        long lines = cluster.validLines();
        long dirty = cluster.flushAll() + flushPendingFills();
        flushWritebacks += dirty;
        return new long[] {dirty, lines};
    }

    /**
     * Tells a coherence policy swapped in mid-run where the program is (the first-kernel-launched and
     * gpu_work_finish registers of seed 001 §4.3-4.4), as the events it missed. The flushes it asks for are
     * ignored: the swap has just flushed every cache.
     */
    public void handOverRuntimeState(CoherencePolicy next) {
        if (lastLaunch >= 0) next.onRuntimeEvent(CoherencePolicy.EVENT_KERNEL_LAUNCH, lastLaunch);
        if (gpuWorkFinished) next.onRuntimeEvent(CoherencePolicy.EVENT_GPU_WORK_FINISH, lastLaunch + 1);
    }

    public int inFlight() {
        int n = busyMshrs + directory.inFlight();
        for (CpuCore c : cores) n += c.outstanding;
        return n;
    }

    public long faults() { return cpuFaults + gpuFaults; }

    /** CPU memory operations completed so far (a progress signal for the simulation's watchdog). */
    public long completedAccesses() { return completedAccesses; }

    public void registerStats(Stats root) {
        Stats s = root.scope("cpu");
        s.counter("accesses", "memory operations issued by the CPU cores", () -> {
            long n = 0;
            for (CpuCore c : cores) n += c.accesses;
            return n;
        });
        s.gauge("in_flight", "CPU accesses outstanding, LLC miss registers busy and directory requests in flight (0 at the end of a run)", this::inFlight);
        s.counter("completed", "memory operations of the CPU cores completed (hits, fills, granted upgrades)", () -> completedAccesses);
        s.counter("l1.hits", "CPU L1 hits (all cores)", () -> cluster.l1Hits);
        s.counter("l2.hits", "CPU private L2 hits", () -> cluster.l2Hits);
        s.counter("llc.hits", "CPU LLC hits", () -> cluster.llcHits);
        s.counter("llc.misses", "CPU LLC misses (sent to the directory or memory)", () -> cluster.llcMisses);
        s.counter("llc.upgrades", "stores to lines the CPU held shared (write permission asked of the directory)", () -> cluster.upgrades);
        s.counter("llc.snoops", "intra-CPU snoops (another core held the line)", () -> cluster.snoops);
        s.counter("llc.writebacks", "dirty LLC victims written back", () -> cluster.llcWritebacks);
        s.counter("llc.merged", "misses merged into a miss register already in flight", () -> merged);
        s.counter("llc.merged_resent", "merged accesses that missed again at their fill and went to the directory themselves (counted in misses or upgrades too)", () -> mergedResent);
        s.counter("llc.mshr_refusals", "accesses that found every LLC miss register busy (the core waited)", () -> llcMshrRefusals);
        s.counter("probes_received", "directory probes that reached the CPU caches", () -> cluster.probesIn);
        s.counter("host_phases", "host phases run", () -> hostPhases);
        s.counter("host_phase_ps", "simulated time spent in host phases", () -> hostPhasePs);
        s.counter("fault_stall_ps", "time CPU cores stood still for permission faults", () -> {
            long n = 0;
            for (CpuCore c : cores) n += c.faultStallPs;
            return n;
        });
        Stats co = root.scope("coherence");
        co.counter("ownership_faults", "page coherence-permission faults (CPU and GPU)", () -> cpuFaults + gpuFaults);
        co.counter("cpu_faults", "permission faults taken by the CPU", () -> cpuFaults);
        co.counter("gpu_faults", "permission faults taken by a GPU (at its page walk)", () -> gpuFaults);
        co.counter("fault_handler_ps", "OS fault-handler time (faults are served one at a time)", () -> faultPs);
        co.counter("cpu_flushes", "CPU cache flushes asked by the coherence policy", () -> cpuFlushes);
        co.counter("gpu_flushes", "GPU cache flushes asked by the coherence policy", () -> gpuFlushes);
        co.counter("page_flushes", "pages flushed from the CPU caches when a GPU took them", () -> pageFlushes);
        co.counter("flush_writebacks", "dirty lines written back by flushes", () -> flushWritebacks);
        co.counter("evicted_frame_lines", "CPU cache lines of GPU frames unified memory evicted, written back if dirty and dropped with the page", () -> evictedFrameLines);
        directory.registerStats(root.scope("directory"));
    }
}
