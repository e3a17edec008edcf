package org.hmsim.platform.gpu;

import java.util.Arrays;
import java.util.List;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.Component;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.stats.Stats;
import org.hmsim.api.workload.Kernel;
import org.hmsim.platform.gpu.cache.L2Slice;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.gpu.sm.SmClock;
import org.hmsim.platform.gpu.sm.SmOwner;
import org.hmsim.platform.gpu.tlb.Mmu;
import org.hmsim.platform.gpu.xbar.Crossbar;

/**
 * One GPU: SMs with their L1s and L1 TLBs, a crossbar, L2 slices, a shared L2 TLB with page-table
 * walkers, and the CTA dispatcher. L2 misses and write-backs leave through {@code fabric} with
 * {@code req.pool} set from the physical address.
 *
 * <p>Unloaded latency of a load (see {@link #unloadedLoadLatencyPs}): with an L1 TLB hit,
 * <pre>
 *   L1 hit:  tlb.l1LatencyCycles + l1.latencyCycles
 *   L2 hit:  tlb.l1LatencyCycles + l1.latencyCycles
 *            + (xbar.latencyCycles + ceil(8 / xbar.bytesPerCycle))             request header
 *            + l2.latencyCycles
 *            + (xbar.latencyCycles + ceil(32 * sectors / xbar.bytesPerCycle))  data response
 *   L2 miss: the L2-hit time + coherence.onLastLevelMiss + the fabric's round trip (DRAM)
 * </pre>
 * (all in GPU cycles but the last two, which are ps). An L1 TLB miss adds
 * {@code l2LatencyCycles} (L2 TLB hit) or {@code l2LatencyCycles + walkLatencyCycles} (walk).
 * That is the time at which the data reaches the SM; a dependent instruction issues at the first GPU
 * clock edge at or after it, so a chain of dependent loads advances by exactly this sum when the fabric
 * round trip is a whole number of GPU cycles (and by the sum rounded up to a cycle otherwise).
 *
 * <p>Wiring: {@code new Gpu(i, cfg, engine, pool, policies, translator, fabric)}, then
 * {@link #registerStats} with the root registry (names start with {@code gpu<i>.}). The fabric must
 * call {@code onSpaceAvailable} on every client it refused (each L2 slice is a separate client).
 */
public final class Gpu implements Component, SmOwner, EventTarget {
    private static final int EV_DISPATCH = 0, EV_COMPLETE = 1;

    private final String name;
    private final int index;
    private final GpuConfig cfg;
    private final Engine engine;
    private final ClockDomain clock;
    private final GpuPolicies policies;
    private final Crossbar xbar;
    private final L2Slice[] slices;
    private final Mmu mmu;
    private final Sm[] sms;
    private final List<Sm> smList;
    private final boolean[] canTake;

    private Kernel kernel;
    /** kernel.ctas(), kept here: checkDone runs whenever an SM's stores drain. */
    private int kernelCtas;
    private int kernelIndex;
    private Runnable onComplete;
    private int nextCta, ctasDone;
    private boolean dispatchScheduled, running;
    /** Set while this GPU runs part of a multi-GPU grid; the grid's dispatcher places CTAs then. */
    private GridDispatch grid;
    private long kernelsCompleted, ctasLaunched, faultShootdownLines, movedFrameLines, movedFrameDirtyLines;

    public Gpu(int gpuIndex, GpuConfig cfg, Engine engine, RequestPool pool, GpuPolicies policies,
               AddressTranslator translator, MemSink fabric) {
        if (cfg.sms() <= 0 || cfg.l2Slices() <= 0) throw new IllegalArgumentException("gpu" + gpuIndex + ": sms and l2Slices must be > 0");
        this.name = "gpu" + gpuIndex;
        this.index = gpuIndex;
        this.cfg = cfg;
        this.engine = engine;
        this.policies = policies;
        this.clock = ClockDomain.ofMHz(name, cfg.clockMHz());
        this.xbar = new Crossbar(name + ".xbar", cfg.crossbar(), clock, engine, cfg.sms(), cfg.l2Slices());
        this.slices = new L2Slice[cfg.l2Slices()];
        for (int i = 0; i < slices.length; i++) {
            slices[i] = new L2Slice(name + ".l2.slice" + i, gpuIndex, i, cfg.l2(), clock, engine, pool, xbar,
                    policies.replacement(), policies.cacheability(), policies.coherence(), policies.l2MissPath());
            slices[i].setFabric(fabric);
            slices[i].setUpper(this::invalidateL1Copies);
        }
        xbar.setSlices(slices);
        // an invalidation message takes the L1's tag lookup before it is acknowledged
        xbar.setL1Side(this::invalidateL1Copy, clock.ps(cfg.l1().latencyCycles()));
        this.mmu = new Mmu(gpuIndex, cfg.tlb(), clock, engine, translator);
        this.sms = new Sm[cfg.sms()];
        SmClock smClock = new SmClock(engine); // one tick event per busy GPU cycle, SMs in index order
        for (int i = 0; i < sms.length; i++) {
            sms[i] = new Sm(name + ".sm" + i, gpuIndex, i, cfg, clock, engine, pool, xbar, mmu,
                    policies.warpScheduler(), policies.replacement(), policies.cacheability(), this, smClock);
        }
        mmu.setClients(sms);
        // seed 000 §6.2.3: when a GPU permission fault on a read-only page is handled, the shootdown discards the
        // page's cached GPU copies (L2 lines and, through their sharer bits, the L1s'); the page is uncacheable after
        long pageBytes = mmu.pageBytes();
        for (Sm s : sms) s.l1().setFaultShootdown(pageBytes, paddr -> {
            long base = paddr & -pageBytes;
            for (L2Slice sl : slices) faultShootdownLines += sl.dropRange(base, pageBytes)[0];
        });
        this.smList = List.of(sms);
        this.canTake = new boolean[sms.length];
    }

    /**
     * Runs every CTA of {@code kernel}; {@code onComplete} runs (from an event at the completion time)
     * once every warp has exited and no load, store or atomic of the kernel is outstanding.
     */
    public void launch(Kernel kernel, int kernelIndex, Runnable onComplete) {
        if (running) throw new IllegalStateException(name + ": kernel " + this.kernel.name() + " is still running");
        if (!sms[0].fitsEver(kernel))
            throw new IllegalArgumentException(name + ": a CTA of kernel " + kernel.name() + " (" + kernel.warpsPerCta() + " warps, "
                    + kernel.sharedBytesPerCta() + " B shared) never fits an SM (" + cfg.maxWarpsPerSm() + " warps, " + cfg.sharedBytesPerSm() + " B)");
        this.kernel = kernel;
        this.kernelCtas = kernel.ctas();
        this.kernelIndex = kernelIndex;
        this.onComplete = onComplete;
        this.nextCta = 0;
        this.ctasDone = 0;
        this.running = true;
        policies.ctaScheduler().onKernelLaunch(kernelIndex, kernelCtas, kernel.warpsPerCta()); // the api's promise, as the grid launcher keeps it
        dispatch();
        checkDone();
    }

    /** Why the cta-scheduler's {@code pick} for block {@code cta} cannot be taken ({@code who}: the GPU or the grid launcher). */
    public static String badPick(String who, int pick, int sms, int cta, int kernelIndex, String kernel) {
        return who + ": the cta-scheduler policy picked SM " + pick + " for block " + cta + " of kernel launch " + kernelIndex + " (" + kernel
                + ", counted from 0), which " + (pick >= sms ? "does not exist (SMs 0.." + (sms - 1) + ")"
                : "has no room for it: pickSm must return an SM whose canTake entry is true, or -1 to wait");
    }

    /** Blocks of the running kernel this GPU has not placed on an SM yet (its own grid, not a multi-GPU launcher's). */
    public int blocksNotDispatched() { return running && grid == null ? kernel.ctas() - nextCta : 0; }

    /** A new cta-scheduler took over (live swap): it is told the kernel running now, as at a launch. */
    public boolean ctaPolicySwapped() {
        if (!running || grid != null) return false;
        int placed = nextCta; // blocks are placed in grid order on one GPU
        policies.ctaScheduler().onSwappedInMidKernel(kernelIndex, kernelCtas, kernel.warpsPerCta(), c -> c >= 0 && c < placed);
        return true;
    }

    /** Places CTAs on SMs with room, as the CTA-scheduler policy chooses. */
    private void dispatch() {
        int ctas = kernel.ctas();
        while (nextCta < ctas) {
            boolean any = false;
            for (int i = 0; i < sms.length; i++) any |= canTake[i] = sms[i].canTake(kernel);
            if (!any) return;
            int pick = policies.ctaScheduler().pickSm(kernelIndex, nextCta, smList, canTake);
            if (pick < 0) return;
            if (pick >= sms.length || !canTake[pick])
                throw new IllegalStateException(badPick(name, pick, sms.length, nextCta, kernelIndex, kernel.name()));
            sms[pick].startCta(kernel, nextCta++);
            ctasLaunched++;
        }
    }

    @Override
    public void ctaCompleted(Sm sm) {
        if (grid != null) {
            ctasDone++;
            grid.ctaCompleted(this);
            return;
        }
        ctasDone++;
        scheduleDispatch();
    }

    /** Deferred to an event: a completing CTA must not start another inside the SM's own cycle. */
    private void scheduleDispatch() {
        if (!dispatchScheduled) {
            dispatchScheduled = true;
            engine.schedule(engine.now(), this, EV_DISPATCH, 0);
        }
    }

    @Override
    public void roomOpened(Sm sm) {
        if (grid != null) grid.roomOpened(this);
        else scheduleDispatch();
    }

    @Override
    public void storesDrained(Sm sm) {
        if (grid != null) grid.storesDrained(this);
        else checkDone();
    }

    // ---- multi-GPU grids (seed 004): a machine-level dispatcher chooses the SM of every CTA

    /** Joins a kernel whose CTAs {@code d} places on the SMs of several GPUs ({@link #startCta}). */
    public void joinGrid(Kernel kernel, int kernelIndex, GridDispatch d) {
        if (running) throw new IllegalStateException(name + ": kernel " + this.kernel.name() + " is still running");
        if (!sms[0].fitsEver(kernel))
            throw new IllegalArgumentException(name + ": a CTA of kernel " + kernel.name() + " (" + kernel.warpsPerCta() + " warps, "
                    + kernel.sharedBytesPerCta() + " B shared) never fits an SM (" + cfg.maxWarpsPerSm() + " warps, " + cfg.sharedBytesPerSm() + " B)");
        this.kernel = kernel;
        this.kernelIndex = kernelIndex;
        this.kernelCtas = 0;
        this.ctasDone = 0;
        this.onComplete = null;
        this.grid = d;
        this.running = true;
    }

    /** Starts CTA {@code cta} of the grid's kernel on SM {@code sm} of this GPU (which must have room). */
    public void startCta(int sm, int cta) {
        sms[sm].startCta(kernel, cta);
        ctasLaunched++;
    }

    /** Leaves the grid once the dispatcher has seen every CTA retire and every store drain. */
    public void leaveGrid() {
        grid = null;
        running = false;
        kernelsCompleted++;
    }

    /** Stores not yet acknowledged, all SMs. */
    public int outstandingStores() {
        int n = 0;
        for (Sm sm : sms) n += sm.outstandingStores();
        return n;
    }

    /** CTAs of the current kernel retired on this GPU. */
    public int ctasDone() { return ctasDone; }

    @Override
    public void handle(int kind, long payload) {
        if (kind == EV_DISPATCH) {
            dispatchScheduled = false;
            if (running) {
                dispatch();
                checkDone();
            }
        } else {
            Runnable r = onComplete;
            onComplete = null;
            kernelsCompleted++;
            if (r != null) r.run();
        }
    }

    private void checkDone() {
        if (!running || ctasDone < kernelCtas) return;
        for (Sm sm : sms) if (sm.outstandingStores() > 0) return;
        running = false;
        engine.schedule(engine.now(), this, EV_COMPLETE, 0);
    }

    /** An L2 victim leaves: the L1s of the SMs in {@code sharers} (bit sm & 63) drop their copies. */
    private int invalidateL1Copy(int sm, long line) { return sms[sm].l1().invalidateLine(line); }

    private int invalidateL1Copies(long line, long sharers) {
        int dirty = 0;
        for (int i = 0; i < sms.length; i++) if ((sharers & (1L << (i & 63))) != 0) dirty |= sms[i].l1().invalidateLine(line);
        return dirty;
    }

    /** Whether a kernel is running. */
    public boolean busy() { return running; }

    public List<Sm> sms() { return smList; }

    public List<L2Slice> l2Slices() { return List.of(slices); }

    public Crossbar crossbar() { return xbar; }

    public Mmu mmu() { return mmu; }

    public ClockDomain clock() { return clock; }

    public int index() { return index; }

    /** Stops instruction issue on every SM for {@code ps} (a GPU-wide TLB shootdown). */
    public void stall(long ps) {
        for (Sm sm : sms) sm.stall(ps);
    }

    /**
     * A page moved out of the frame at {@code frameBase} (a migration's remap): the frame is free for another page,
     * which must not hit the old page's lines, and a dirty line written back later would land in that page. So the
     * frame's lines leave this GPU's L2 slices (and, by their sharer bits, the L1s) at the remap. Dirty lines are not
     * written back: the page's copy stands for a copy engine that reads through the L2, as in a unified-memory
     * eviction (its timing reads every chunk from DRAM, so their bytes are counted once, as a read of the old frame).
     * An approximation: stores that reach the L2 during the copy, after their chunk was read, are not carried to the new
     * frame (a review counted 672 such dirty lines, under 1 % of the remote bytes, on migrate-on-touch).
     * The walk over the tags takes no simulated time (it overlaps the shootdown).
     */
    public void dropMovedFrame(long frameBase) {
        long pageBytes = mmu.pageBytes();
        for (L2Slice sl : slices) {
            long[] d = sl.dropRange(frameBase, pageBytes);
            movedFrameLines += d[0];
            movedFrameDirtyLines += d[1];
        }
    }

    /**
     * Drops every translation of every TLB of this GPU; returns how many entries were held. A change of coherence
     * protocol needs it: the GPU asks for a page's permission when it walks, so a translation the old protocol allowed
     * would never be checked by the new one (a researcher's page-ownership policy swapped in never saw the GPU).
     */
    public long invalidateAllTranslations() {
        long held = mmu.invalidateAll();
        for (Sm sm : sms) held += sm.invalidateAllTlb();
        return held;
    }

    /** Shootdown of one page: drops it from every TLB of this GPU. */
    public void invalidateTranslation(long vpn) {
        mmu.invalidate(vpn);
        for (Sm sm : sms) sm.invalidateTlb(vpn);
    }

    /**
     * The unloaded latency of a load of {@code sectors} 32 B sectors that hits the L1 TLB: an L1 hit
     * ({@code level} 1), an L2 hit (2) or an L2 miss (3) whose fabric round trip takes {@code fabricPs}
     * and to which the coherence policy adds {@code coherencePs}. Matches the simulated time of one
     * warp's dependent loads on an idle GPU (GpuLatencyTest).
     */
    public long unloadedLoadLatencyPs(int level, int sectors, long coherencePs, long fabricPs) {
        long t = clock.ps(cfg.tlb().l1LatencyCycles()) + clock.ps(cfg.l1().latencyCycles());
        if (level <= 1) return t;
        t += xbar.unloadedPs(Crossbar.HEADER_BYTES) + clock.ps(cfg.l2().latencyCycles())
                + xbar.unloadedPs(Math.max(Crossbar.HEADER_BYTES, 32 * sectors));
        if (level >= 3) t += coherencePs + fabricPs;
        return t;
    }

    @Override
    public String name() { return name; }

    @Override
    public int inFlight() {
        int n = xbar.inFlight() + mmu.walksInFlight();
        for (Sm sm : sms) n += sm.inFlight();
        for (L2Slice s : slices) n += s.inFlight();
        return n;
    }

    /** Registers under {@code gpu<i>.}: {@code gpu0.sm3.l1.hits}, {@code gpu0.l2.slice1.misses}, {@code gpu0.tlb.walks}. */
    @Override
    public void registerStats(Stats root) {
        Stats s = root.scope(name);
        s.counter("kernels_completed", "kernels this GPU finished", () -> kernelsCompleted);
        s.counter("ctas_launched", "thread blocks dispatched to SMs", () -> ctasLaunched);
        s.counter("fault_shootdown_lines", "L2 lines (with their L1 copies) discarded when a permission fault on their page was handled (seed 000 §6.2.3)", () -> faultShootdownLines);
        s.counter("moved_frame_lines", "L2 lines (with their L1 copies) of frames a page migration left, dropped at its remap and again when the frame is taken", () -> movedFrameLines);
        s.counter("moved_frame_dirty_lines", "of those, dirty lines (dropped without a write-back: the page's copy stands for them)", () -> movedFrameDirtyLines);
        s.gauge("in_flight", "requests held by the SMs, crossbar, L2 slices and page walks (0 once drained)", this::inFlight);
        for (Sm sm : sms) sm.registerStats(s.scope("sm" + sm.index()));
        for (int i = 0; i < slices.length; i++) slices[i].registerStats(s.scope("l2.slice" + i));
        s.counter("l2.hits", "L2 read hits, all slices", () -> Arrays.stream(slices).mapToLong(L2Slice::hits).sum());
        s.counter("l2.misses", "L2 read misses, all slices", () -> Arrays.stream(slices).mapToLong(L2Slice::misses).sum());
        s.counter("l1.hits", "L1 load hits, all SMs", () -> Arrays.stream(sms).mapToLong(x -> x.l1().hits()).sum());
        s.counter("l1.misses", "L1 load misses, all SMs", () -> Arrays.stream(sms).mapToLong(x -> x.l1().misses()).sum());
        s.counter("line_requests", "coalesced line requests, all SMs", () -> Arrays.stream(sms).mapToLong(Sm::lineRequests).sum());
        xbar.registerStats(s.scope("xbar"));
        mmu.registerStats(s.scope("tlb"));
    }
}
