package org.hmsim.platform.machine.uvm;

import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.Component;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.CompressionPolicy;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.api.workload.Kernel;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.gpu.tlb.FaultWaiter;
import org.hmsim.platform.memory.os.OsMemoryManager;

/**
 * The unified-memory driver of a discrete GPU (seed 002 §2.1, CUDA 8 demand paging).
 *
 * <p><b>Far faults.</b> A page-table walk that finds its page non-resident parks (its warps wait; other
 * warps go on) and the page enters the fault buffer. Faults on a page already coming merge.
 *
 * <p><b>Batches.</b> One fault handler serves the buffer: it takes up to {@code batchSize} faults, spends
 * the fault latency (20 us, Table 1) on them, then needs a frame for each. If GPU memory is full it first
 * evicts victims of the residency slot (device-to-host copies) and only when they have left starts the
 * host-to-device copies — eviction on the critical path, the baseline of Fig 5a. Pages arriving wake their
 * walks at once; the next batch starts when every copy of this one has arrived. With {@code fault_handlers}
 * N &gt; 1, N batches are in service at once (the paper does not say how many faults are); batches waiting for
 * frames get them in the order their handlers finished, and evictions are asked for what all of them lack.
 *
 * <p><b>Prefetch.</b> The {@link TreePrefetcher} (and the residency slot's {@code prefetch}) add pages to a
 * batch, by default only into free frames: a prefetch never evicts (our choice; the paper does not say). With
 * {@code prefetch_evicts} a batch's prefetches are chosen when its handler is done and it evicts for them as for its
 * faults, up to all of GPU memory (so a batch may evict pages the one before it brought in).
 *
 * <p><b>Capacity and compression.</b> GPU memory holds {@code oversubscription} x the footprint in frames.
 * A page migrated in while the compression slot's capacity factor is f &gt; 1 is stored compressed and
 * occupies 1/f of a frame (LCP-style accounting, seed 002 §4.3); its L2 misses first read the metadata block
 * the slot asks for (a metadata-cache miss: a real 64 B access to GPU memory) and then pay the slot's extra
 * latency ({@link CompressedAccessDelay}). Pages already resident are not recompressed.
 *
 * <p><b>Proactive eviction.</b> {@link #evictAhead} lets a policy evict before the space is needed; those
 * copies share only the device-to-host channel with other evictions, so they overlap fault migrations.
 *
 * <p><b>Copies through GPU memory.</b> With {@code copy_through_memory} (the default) the copy engine writes each
 * page it brings in into its frame, and reads each page it evicts out of it, through GPU memory's controllers, at the
 * link's pace ({@link OsMemoryManager#streamFrame}): a chunk is written once the link has delivered it, read as the
 * link is ready to take it. The writes and reads queue with the kernels' requests (contention both ways) and count
 * in the pool's bytes and energy. A page is resident once its last chunk is written; a frame is free once the link
 * has sent the page and its last chunk is read. A compressed page moves its compressed bytes through GPU memory (the
 * link carries the whole page). The host's side of the copy (host memory) is not modelled: pages outside GPU memory
 * have no host frame, and 16 GB/s is a fifth of the host DDR4's bandwidth. Without it, the link alone is modelled
 * (PCIe at 16 GB/s is ~4 % of GDDR5 bandwidth), as before 2026-11-29.
 *
 * <p>Simplifications: an evicted page's lines are dropped from
 * the L2s and L1s when its eviction starts (dirty ones leave with the copy; fills in flight drop their line
 * when they complete) and once more when its copy is done (requests translated before the shootdown may
 * arrive after the first drop), in no simulated time; the host-to-device copy does not allocate lines in the L2.
 */
public final class UvmDriver implements UnifiedMemory, EventTarget, Component, CompressedFrames {
    private static final int EV_SERVICED = 0, EV_H2D = 1, EV_D2H = 2;
    private static final byte NONRES = 0, FETCHING = 1, RESIDENT = 2, EVICTING = 3;
    /**
     * Chunks the copy engine keeps outstanding in GPU memory (ours): at the link's pace only a few are, about the
     * link's bandwidth times memory latency (16 GB/s x 0.5 us = 62 chunks of 128 B); the limit matters only when GPU
     * memory falls behind the link.
     */
    static final int DMA_CHUNKS_IN_FLIGHT = 64;
    /**
     * Frame accounting in 1/2^20 frames, so compressed pages occupy fractions of a frame without doubles. A page's
     * units ({@link #unitCost}) are rounded down, never up: F frames then hold floor(F x ratio) pages at any ratio. In
     * 1/1024 frames rounded to nearest, 1024/1.5 = 682.67 became 683 and 96 x 683 = 65,568 > 64 x 1024: 64 frames held
     * 95 pages at ratio 1.5, not 96 (found by a tester). Rounded down, a page is less than one unit cheap, so N pages
     * fit in at most N units less than N / ratio frames: one page more than floor(F x ratio) fits only when F x ratio
     * falls within about N x ratio / 2^20 below a whole number (4/3 written 1.3333333 on 3 frames holds 4 pages). Ranges:
     * a page's units fit an int, the pool's (frames x 2^20) a long, and a stored size (page bytes x units) a long.
     */
    static final int UNIT = 1 << 20;

    private final UvmConfig cfg;
    private final Engine engine;
    private final OsMemoryManager os;
    private final int gpuPool;
    private final long pageBytes;
    private final long poolFrames;
    private final Supplier<ResidencyPolicy> residency;
    private final Supplier<CompressionPolicy> compression;
    private final DmaChannel h2d, d2h;
    private final TreePrefetcher prefetcher;
    private List<Gpu> gpus = List.of();
    private long shootdownPs;
    private int smsPerGpu = 1;
    private FaultWaiter[] waiters = new FaultWaiter[1];
    private boolean sharesData;
    /** The CPU side's host pool and its cache flush of a host frame ({@link #attachHost}); -1 and nothing without one. */
    private int hostPool = -1;
    private java.util.function.LongConsumer hostPageLeaves = pa -> {};
    /** What drops the CPU's lines of a GPU frame whose page is evicted ({@link #attachHost}); nothing without a CPU side. */
    private java.util.function.LongConsumer gpuFrameEvicted = pa -> {};

    // page state, indexed by vpn - baseVpn (set up at the first fault, when allocations are final)
    private long baseVpn = -1;
    private byte[] state = new byte[0];
    /** Pages whose fault the full buffer dropped, waiting for the replay (each once in {@link #droppedFaults}). */
    private boolean[] dropped = new boolean[0];
    private DroppedFaults droppedFaults = new DroppedFaults(), spareDropped = new DroppedFaults();
    private long replays;
    /** Faults held for pages whose copy out is under way (refault set): each takes a fault-buffer entry. */
    private int refaultsPending;
    /** The allocation (its index in the OS's list) each page belongs to; -1 for a hole (guard gaps between allocations). */
    private int[] allocationOf = new int[0];
    private int[] faultSm = new int[0];
    private long[] gpuWaiting = new long[0];
    private int[] cost = new int[0];
    private long[] stamp = new long[0];
    private long[] faultedAt = new long[0];
    /** A page faulted again while its eviction copy was under way: pushed as a fault when that copy is done. */
    private boolean[] refault = new boolean[0];
    /** A prefetched page no walk has asked for yet: evicted so, it counts in {@code prefetches_unused}. */
    private boolean[] prefetchedUnused = new boolean[0];
    /** Parts of an eviction still under way through GPU memory: the link's copy and the reads out of the frame. */
    private byte[] evictionParts = new byte[0];
    /** Physical base of the frame each page occupies or last occupied (-1: never resident). */
    private long[] frameBase = new long[0];
    private long footprintPages;
    private long capacityUnits, usedUnits, evictingUnits;
    private long capacityFrames;

    // frames of the GPU pool: which page, compressed or not (for the compression delay)
    private long[] frameVpn = new long[256];
    private boolean[] frameCompressed = new boolean[256];

    // fault buffer (a ring of at most cfg.faultBuffer() entries; faults beyond it are dropped and replayed after a batch)
    private long[] buf = new long[256];
    private int bHead, bSize;

    // age order of migrations in (the fallback victim order: the paper's age-based LRU, §2.3)
    private long[] ageVpn = new long[256], ageStamp = new long[256];
    private int aHead, aSize;
    private long stamps;

    // the batches being served, one per fault handler
    private final Batch[] handlers;
    /** Handlers done with their latency that wait for frames, in the order they finished (FIFO). */
    private final java.util.ArrayDeque<Batch> waitingFrames = new java.util.ArrayDeque<>();
    private long waitingUnits;
    /** The handler whose batch brings each page in (index into {@link #handlers}). */
    private short[] pageHandler = new short[0];
    private int evictionsInFlight;
    private final long[] prefetchOut = new long[64];

    private UnifiedMemory.Listener[] listeners = new UnifiedMemory.Listener[0];

    private long refaultsAfterEviction;
    private long faults, faultsMerged, batches, batchedFaults, prefetches, evictions, proactiveEvictions,
            bufferOverflows, maxBuffer, faultWaitPs, resolved, compressedAccesses, policyVictimsRejected,
            l2LinesDropped, l2DirtyDropped, metadataReads, preloaded, prefetchesPolicy, proposalsPolicy, prefetchesUnused,
            h2dMemoryBytes, d2hMemoryBytes, fromHost;

    public UvmDriver(UvmConfig cfg, Engine engine, OsMemoryManager os, int gpuPool, long poolCapacityBytes,
                     Supplier<ResidencyPolicy> residency, Supplier<CompressionPolicy> compression) {
        this.cfg = cfg;
        this.engine = engine;
        this.os = os;
        this.gpuPool = gpuPool;
        this.pageBytes = os.pageBytes();
        this.poolFrames = poolCapacityBytes / pageBytes;
        this.residency = residency;
        this.compression = compression;
        this.h2d = new DmaChannel(cfg.h2dBytesPerSecond(), cfg.dmaLatencyPs());
        this.d2h = new DmaChannel(cfg.d2hBytesPerSecond(), cfg.dmaLatencyPs());
        this.prefetcher = cfg.prefetcher().equals("tree") ? new TreePrefetcher(cfg.prefetchRegionPages()) : null;
        this.handlers = new Batch[cfg.faultHandlers()];
        for (int h = 0; h < handlers.length; h++) handlers[h] = new Batch(h);
    }

    /** One fault handler's batch: the demand faults it took, the prefetches added to them, the copies pending. */
    private static final class Batch {
        final int id;
        boolean busy;
        long[] pages = new long[64];
        int demand, total, pending;
        long units;

        Batch(int id) { this.id = id; }
    }

    /** Wiring once the GPUs exist: shootdowns on eviction, coalescing counters, the walkers to wake. */
    public void attach(List<Gpu> gpus, long shootdownPs) {
        this.gpus = gpus;
        this.shootdownPs = shootdownPs;
        this.smsPerGpu = gpus.isEmpty() ? 1 : gpus.get(0).sms().size();
        this.waiters = new FaultWaiter[gpus.size()];
        for (int g = 0; g < gpus.size(); g++) waiters[g] = gpus.get(g).mmu();
    }

    /** The workload's kernels: any kernel marked as sharing data makes the workload a sharing one. */
    public void setKernels(List<Kernel> kernels) {
        boolean s = false;
        for (Kernel k : kernels) s |= k.sharesData();
        this.sharesData = s;
    }

    /** Kernel {@code index} is about to launch: the listeners (ETC's per-kernel classifier) hear of it. */
    public void kernelLaunching(int index) {
        if (index == 0 && cfg.preload()) preload();
        for (UnifiedMemory.Listener l : listeners) l.onKernelLaunch(index);
    }

    /** A GPU's fabric with the compressed-page access delay in front. */
    public MemSink wrapFabric(MemSink fabric, org.hmsim.api.mem.RequestPool pool) { return new CompressedAccessDelay(this, fabric, engine, pool); }

    // ------------------------------------------------------------------ the walk's question

    /** Whether {@code vpn} is resident; if not, raises (or joins) its far fault and wakes {@code waiter} later. */
    public boolean resident(int gpu, int sm, long vpn, FaultWaiter waiter) {
        init();
        int i = index(vpn);
        if (i < 0 || allocationOf[i] < 0) return true; // outside every allocation: let translation report the segmentation fault
        byte st = state[i];
        prefetchedUnused[i] = false; // a walk wants the page: a prefetch of it was used (or was late, if it is still coming)
        if (st == RESIDENT) return true;
        if (gpu < waiters.length) waiters[gpu] = waiter;
        gpuWaiting[i] |= 1L << gpu;
        if (st == FETCHING || (st == EVICTING && refault[i])) {
            faultsMerged++;
            return false;
        }
        raise(i, vpn, gpu * smsPerGpu + sm, engine.now());
        if (state[i] == FETCHING) startIdleHandlers(); // it entered the buffer (not held for its copy out, nor dropped)
        return false;
    }

    /** Faults in the buffer, counting those held for a page whose copy out is under way (they take an entry too). */
    private int bufferOccupancy() { return bSize + refaultsPending; }

    /**
     * A far fault on a page not resident nor coming enters the fault buffer; with the buffer full it is dropped, as the
     * GPU's fault buffer drops what it cannot hold, and the access is replayed when the driver next replays (at the end of
     * a batch): it faults again then. Until 2026-11-30 the buffer grew past its size and only counted the overflow (a
     * trial: fault_buffer 4 and 256 gave the same run, with 63 entries in the 4-entry buffer).
     */
    private void raise(int i, long vpn, int sm, long since) {
        // an entry held for a page still being copied out counts too: with several handlers those faults entered the
        // buffer past its size when the copy ended (a prefetching trial saw 23 in a 1-entry buffer)
        if (bufferOccupancy() >= cfg.faultBuffer()) {
            bufferOverflows++;
            if (!dropped[i]) {
                dropped[i] = true;
                droppedFaults.add(vpn, sm, since);
            }
            return;
        }
        faultSm[i] = sm;
        faultedAt[i] = since;
        faults++;
        if (state[i] == EVICTING) { // its copy to the host is still under way: the fault is served once that copy is done
            refault[i] = true;
            refaultsPending++;
            refaultsAfterEviction++;
        } else {
            state[i] = FETCHING;
            push(vpn);
        }
        for (UnifiedMemory.Listener l : listeners) l.onFault(sm, vpn);
    }

    /** The driver's replay after a batch: the dropped faults' accesses run again; those still finding no page fault again. */
    private boolean replayDropped() {
        if (droppedFaults.size == 0) return false;
        replays++;
        DroppedFaults d = droppedFaults;
        droppedFaults = spareDropped;
        spareDropped = d;
        for (int k = 0; k < d.size; k++) {
            int i = index(d.vpn[k]);
            dropped[i] = false;
            // a page that came and left meanwhile woke its walks when it came: nobody waits to fault on it again
            boolean absent = state[i] == NONRES || state[i] == EVICTING && !refault[i];
            if (absent && gpuWaiting[i] != 0) raise(i, d.vpn[k], d.sm[k], d.since[k]);
            else if (state[i] == FETCHING || state[i] == EVICTING) faultsMerged++; // coming meanwhile (a prefetch, another fault): it joins
        }
        d.size = 0;
        return true;
    }

    /** Faults the full buffer dropped, waiting for the replay: page, SM, when first raised. */
    private static final class DroppedFaults {
        long[] vpn = new long[16], since = new long[16];
        int[] sm = new int[16];
        int size;

        void add(long v, int s, long t) {
            if (size == vpn.length) {
                vpn = Arrays.copyOf(vpn, size * 2);
                since = Arrays.copyOf(since, size * 2);
                sm = Arrays.copyOf(sm, size * 2);
            }
            vpn[size] = v;
            sm[size] = s;
            since[size++] = t;
        }
    }

    private void startIdleHandlers() {
        for (Batch b : handlers) {
            if (bSize == 0) return;
            if (!b.busy) startBatch(b);
        }
    }

    // ------------------------------------------------------------------ batches

    private void startBatch(Batch b) {
        if (bSize == 0) return;
        b.busy = true;
        b.demand = 0;
        b.units = 0;
        // a batch never needs more frames than GPU memory has
        while (bSize > 0 && b.demand < cfg.batchSize() && b.units + unitCost(buf[bHead]) <= capacityUnits) {
            long vpn = buf[bHead];
            int unit = unitCost(vpn);
            bHead = (bHead + 1) % buf.length;
            bSize--;
            if (b.demand == b.pages.length) b.pages = Arrays.copyOf(b.pages, b.pages.length * 2);
            b.pages[b.demand++] = vpn;
            b.units += unit;
        }
        b.total = b.demand;
        batches++;
        batchedFaults += b.demand;
        engine.scheduleIn(cfg.faultLatencyPs(), this, EV_SERVICED, b.id);
    }

    @Override
    public void handle(int kind, long payload) {
        switch (kind) {
            case EV_SERVICED -> serviced(handlers[(int) payload]);
            case EV_H2D -> arrived((int) payload);
            case EV_D2H -> {
                if (cfg.copyThroughMemory()) evictionPartDone((int) payload);
                else evicted((int) payload);
            }
            default -> throw new IllegalStateException("unknown UVM event " + kind);
        }
    }

    /** The handler has done its work on the batch: find frames (evicting if full), then copy. */
    private void serviced(Batch b) {
        if (cfg.prefetchEvicts()) addPrefetches(b, capacityUnits); // chosen now: the evictions make room for them too
        waitingFrames.add(b);
        waitingUnits += b.units;
        evictForWaiting();
        tryAllocate();
    }

    /**
     * Evicts what the batches waiting for frames lack beyond the free frames and the evictions under way. With
     * several handlers every frame may hold a page still arriving for another batch (no victim yet): each
     * arrival asks again.
     */
    private void evictForWaiting() {
        repriceWaiting();
        long deficit = waitingUnits - (capacityUnits - usedUnits) - evictingUnits;
        while (deficit > 0) {
            long v = pickVictim();
            if (v < 0) break;
            deficit -= cost[index(v)];
            evict(v, false);
        }
    }

    /**
     * The waiting batches at the compression ratio of now, the one their pages will be stored at: priced when their
     * handlers finished, a ratio changing while they waited (compression switched on by the classifier) left their
     * frames counted at the old price, and with prefetches that evict a run deadlocked (found by a review).
     */
    private void repriceWaiting() {
        waitingUnits = 0;
        for (Batch w : waitingFrames) {
            long units = 0;
            for (int k = 0; k < w.total; k++) units += unitCost(w.pages[k]);
            w.units = units;
            waitingUnits += units;
        }
    }

    /**
     * Batches waiting for frames take them in order while there are enough free. Repriced dearer (a compression ratio
     * lowered while they waited: a live swap to a lower ratio or to none), a batch still waiting has evictions asked for
     * what it now lacks: the evictions under way had been sized at the old price, and with none left to finish nothing
     * asked again (the run deadlocked, found by a researcher's trial). Only then: a run whose prices never rise is as before.
     */
    private void tryAllocate() {
        long priced = waitingUnits;
        repriceWaiting();
        boolean dearer = waitingUnits > priced;
        Batch b;
        while ((b = waitingFrames.peek()) != null && capacityUnits - usedUnits >= b.units) {
            waitingFrames.poll();
            waitingUnits -= b.units;
            allocate(b);
        }
        if (dearer && !waitingFrames.isEmpty() && waitingUnits - (capacityUnits - usedUnits) - evictingUnits > 0) evictForWaiting();
    }

    private void allocate(Batch b) {
        usedUnits += b.units;
        if (!cfg.prefetchEvicts()) addPrefetches(b, capacityUnits - usedUnits);
        for (UnifiedMemory.Listener l : listeners) l.onBatchAllocated(b.demand);
        b.pending = b.total;
        long now = engine.now();
        for (int k = 0; k < b.total; k++) {
            int i = index(b.pages[k]);
            cost[i] = unitCost(b.pages[k]); // as the batch's units were counted (priced just before, or at the prefetch)
            pageHandler[i] = (short) b.id;
            long arrival = h2d.copy(now, pageBytes);
            if (cfg.copyThroughMemory()) writeIn(i, arrival);
            else engine.schedule(arrival, this, EV_H2D, i);
        }
    }

    /**
     * The copy engine writes page {@code i} into a frame as the link delivers it (copy_through_memory): the frame is
     * mapped now (walks ask {@link #resident}, which says no until the page arrives), chunk k written once the link has
     * delivered its share of the page, the page arriving with its last write's acknowledgement.
     */
    private void writeIn(int i, long arrival) {
        long vpn = baseVpn + i;
        mapFrame(vpn);
        long bytes = storedBytes(i);
        h2dMemoryBytes += bytes;
        long occupancy = h2d.occupancyPs(pageBytes);
        os.streamFrame(vpn, os.lookup(vpn * pageBytes), bytes, true, arrival - occupancy, occupancy, DMA_CHUNKS_IN_FLIGHT, () -> arrived(i));
    }

    /** The copy engine reads evicted page {@code i} out of its frame as the link takes it (copy_through_memory). */
    private void readOut(int i, long arrival) {
        long bytes = storedBytes(i);
        d2hMemoryBytes += bytes;
        long occupancy = d2h.occupancyPs(pageBytes);
        evictionParts[i] = 2;
        os.streamFrame(baseVpn + i, frameBase[i], bytes, false, arrival - cfg.dmaLatencyPs() - occupancy, occupancy, DMA_CHUNKS_IN_FLIGHT,
                () -> evictionPartDone(i));
    }

    private void evictionPartDone(int i) {
        if (--evictionParts[i] == 0) evicted(i);
    }

    /** Bytes page {@code i} occupies in GPU memory: a compressed page its compressed size. */
    private long storedBytes(int i) { return Math.max(64, pageBytes * cost[i] / UNIT); }

    private void mapFrame(long vpn) {
        long hostPa = os.lookup(vpn * pageBytes);
        if (hostPa >= 0 && PhysicalAddress.pool(hostPa) != gpuPool) leaveHost(vpn, hostPa);
        int pool = os.map(vpn, gpuPool);
        if (pool != gpuPool) throw new IllegalStateException("unified memory: page 0x" + Long.toHexString(vpn) + " could not be mapped in GPU memory (pool " + pool + ")");
    }

    /**
     * Page {@code vpn}, which the CPU touched first (mapped at {@code hostPa} in host memory), moves into GPU memory: the
     * CPU's lines of its host frame are written back and dropped, and the host frame is freed (the host's side of the
     * copy is not modelled). No GPU has translated it: a walk of a page not resident faults before it translates.
     */
    private void leaveHost(long vpn, long hostPa) {
        hostPageLeaves.accept(hostPa); // the frame's base: looked up at the page's first byte
        os.unmap(vpn);
        fromHost++;
    }

    /**
     * A CPU access's translation on a machine with a {@code cpu:} section. A page in GPU memory (resident, or being
     * written in) is used where it is, over the link; any other page lives in host memory, as CUDA managed memory's
     * first touch on the host places it, and the GPU's first access then faults it over ({@link #mapFrame}). The CPU's
     * first touch goes through the placement slot as on any machine (the local policy's host pool, counted in
     * {@code page_faults}); a page it puts in GPU memory, whose frames are the driver's, moves to {@code hostPool}.
     * Until 2026-11-30 the page was left where the first touch put it and the driver, which did not look, failed every
     * run whose host phase initialised the GPU's data ("could not be mapped in GPU memory").
     */
    public long hostTranslate(long vaddr) {
        long pa = os.lookup(vaddr);
        if (pa >= 0) return pa;
        pa = os.translate(vaddr, -1); // segmentation fault outside every allocation
        if (PhysicalAddress.pool(pa) != gpuPool) return pa;
        long vpn = Math.floorDiv(vaddr, pageBytes);
        os.unmap(vpn); // never touched: no line of it is cached anywhere, no GPU translated it
        // host memory full: the OS spills, and a page in a GPU frame the driver did not give would break its accounting
        if (os.map(vpn, hostPool) == gpuPool) throw new IllegalStateException("unified memory: host memory is full when the CPU "
                + "touches address 0x" + Long.toHexString(vaddr) + " (its page would take a GPU frame outside the driver's)");
        return os.lookup(vaddr);
    }

    /**
     * Wiring on a machine with a CPU side: the pool pages the CPU touches first are mapped in, what drops the CPU's
     * lines of a host frame whose page moves into GPU memory, and what drops them of a GPU frame whose page is evicted.
     */
    public void attachHost(int hostPool, java.util.function.LongConsumer hostPageLeaves, java.util.function.LongConsumer gpuFrameEvicted) {
        this.hostPool = hostPool;
        this.hostPageLeaves = hostPageLeaves;
        this.gpuFrameEvicted = gpuFrameEvicted;
    }

    /**
     * Prefetch candidates of every demand page, within {@code room} units: the free frames (a prefetch that never
     * evicts), or all of GPU memory less the batch's own pages (prefetch_evicts: the batch's evictions cover them).
     */
    private void addPrefetches(Batch b, long room) {
        ResidencyPolicy rp = residency.get();
        rp.onFaultBatch(b.pages, b.demand);
        // the policy may take the prefetching over from the machine's tree (asked at each batch: a swap changes the policy)
        TreePrefetcher tree = rp.replacesMachinePrefetcher() ? null : prefetcher;
        long[] left = {room};
        for (int k = 0; k < b.demand; k++) {
            long vpn = b.pages[k];
            int allocation = allocationOf[index(vpn)];
            int n = tree == null ? 0 : tree.prefetch(vpn, v -> treeState(v, allocation), prefetchOut);
            addCandidates(b, n, left, false);
            addCandidates(b, policyPrefetches(rp, vpn), left, true);
        }
    }

    /**
     * The residency policy's prefetch candidates for {@code vpn}, in {@link #prefetchOut}. The buffer is cleared first: it
     * held the tree's candidates, which a policy that over-counted was credited with (a trial's count of out.length + 10
     * showed 491 "policy" prefetches its policy never chose). A count outside the buffer or a page number below 0 is the
     * policy's bug, and fails the run naming it.
     */
    private int policyPrefetches(ResidencyPolicy rp, long vpn) {
        Arrays.fill(prefetchOut, -1);
        int n = rp.prefetch(vpn, prefetchOut);
        if (n < 0 || n > prefetchOut.length)
            throw new IllegalStateException("residency policy " + rp.getClass().getName() + ": prefetch(" + vpn + ", out) returned " + n
                    + ", not a count of 0 to out.length (" + prefetchOut.length + ")");
        for (int j = 0; j < n; j++)
            if (prefetchOut[j] < 0)
                throw new IllegalStateException("residency policy " + rp.getClass().getName() + ": prefetch(" + vpn + ", out) returned " + n
                        + " pages but out[" + j + "] is " + prefetchOut[j] + ", not a page number");
        return n;
    }

    private void addCandidates(Batch b, int n, long[] left, boolean byPolicy) {
        if (byPolicy) proposalsPolicy += n;
        for (int j = 0; j < n; j++) {
            int i = index(prefetchOut[j]);
            if (i < 0 || allocationOf[i] < 0 || state[i] != NONRES) continue; // an evicting page's host copy is not complete yet
            int unit = unitCost(prefetchOut[j]);
            if (cfg.prefetchEvicts() ? b.units + unit > left[0] : left[0] < unit) return;
            if (cfg.prefetchEvicts()) b.units += unit;
            else {
                usedUnits += unit;
                left[0] -= unit;
            }
            state[i] = FETCHING;
            faultSm[i] = -1;
            if (b.total == b.pages.length) b.pages = Arrays.copyOf(b.pages, b.pages.length * 2);
            b.pages[b.total++] = prefetchOut[j];
            prefetches++;
            if (byPolicy) prefetchesPolicy++;
            prefetchedUnused[i] = true;
        }
    }

    /**
     * A page as the tree sees it: outside the faulting page's allocation (a hole, another allocation: CUDA's tree works
     * within one VA block, which never spans two allocations), present (resident or coming) or absent. Until
     * 2026-11-30 pages outside every allocation counted as present and other allocations' pages as absent: a 2 MB
     * region spanning two allocations prefetched the neighbour's pages (a trial: one fault in a 64 KB array brought 7
     * pages of another the kernel never touched), and an allocation's edge counted the holes beyond it as valid.
     */
    private int treeState(long vpn, int allocation) {
        int i = index(vpn);
        if (i < 0 || allocationOf[i] != allocation) return TreePrefetcher.Pages.OUTSIDE;
        return state[i] == RESIDENT || state[i] == FETCHING ? TreePrefetcher.Pages.PRESENT : TreePrefetcher.Pages.ABSENT;
    }

    @Override
    public long copiesInFlight() {
        long n = 0;
        for (Batch b : handlers) if (b.busy) n += b.pending;
        return n;
    }

    /** Bytes copied host-to-device and device-to-host so far (whole pages). */
    public long h2dBytes() { return h2d.bytes(); }

    public long d2hBytes() { return d2h.bytes(); }

    /** A page's host-to-device copy has arrived: map it, wake its walks. */
    private void arrived(int i) {
        long vpn = baseVpn + i;
        makeResident(i);
        long mask = gpuWaiting[i];
        gpuWaiting[i] = 0;
        int sm = faultSm[i];
        if (sm >= 0) {
            resolved++;
            faultWaitPs += engine.now() - faultedAt[i];
            faultSm[i] = -1;
            for (UnifiedMemory.Listener l : listeners) l.onFaultResolved(sm, vpn);
        }
        while (mask != 0) {
            int g = Long.numberOfTrailingZeros(mask);
            mask &= mask - 1;
            waiters[g].onPageResident(vpn);
        }
        if (!waitingFrames.isEmpty()) evictForWaiting();
        Batch b = handlers[pageHandler[i]];
        if (--b.pending == 0) {
            b.busy = false;
            boolean replayed = replayDropped();
            startBatch(b);
            if (replayed) startIdleHandlers();
        }
    }

    /**
     * {@code preload}: the pages GPU memory can hold become resident before the first kernel, in address order, in no
     * simulated time and with no copy counted (the host copied them before the timed region). This is the reading of
     * seed 002's "unlimited memory" in which nothing is demand-paged (Fig 8's LCP overhead); pages are stored at the
     * compression slot's factor of now, as pages migrating in would be.
     */
    private void preload() {
        init();
        for (int i = 0; i < state.length; i++) {
            if (allocationOf[i] < 0 || state[i] != NONRES) continue;
            int unit = unitCost(baseVpn + i);
            if (usedUnits + unit > capacityUnits) break;
            usedUnits += unit;
            cost[i] = unit;
            makeResident(i);
            preloaded++;
        }
    }

    /** Page {@code i} (its frame units already counted in {@code cost}) is mapped in GPU memory and enters the age order. */
    private void makeResident(int i) {
        long vpn = baseVpn + i;
        state[i] = RESIDENT;
        long pa = os.lookup(vpn * pageBytes);
        // preloaded, or copied over the link alone (not mapped, or mapped in host memory by the CPU's touch meanwhile)
        if (pa < 0 || PhysicalAddress.pool(pa) != gpuPool) mapFrame(vpn);
        recordFrame(vpn, cost[i] < UNIT);
        stamp[i] = ++stamps;
        pushAge(vpn, stamp[i]);
        residency.get().onPageResident(vpn, gpuPool);
    }

    // ------------------------------------------------------------------ eviction

    @Override
    public int evictAhead(int pages) {
        init();
        int n = 0;
        while (n < pages) {
            long v = pickVictim();
            if (v < 0) break;
            evict(v, true);
            n++;
        }
        return n;
    }

    private void evict(long vpn, boolean proactive) {
        int i = index(vpn);
        state[i] = EVICTING;
        dropCachedLines(os.lookup(vpn * pageBytes));
        long mask = os.unmapKeepingFrame(vpn); // the frame is free once the copy has left (evicted)
        if (mask > 0) {
            for (Gpu g : gpus) {
                if ((mask & (1L << g.index())) == 0) continue;
                g.invalidateTranslation(vpn);
                g.stall(shootdownPs);
            }
        }
        evictions++;
        if (proactive) proactiveEvictions++;
        if (prefetchedUnused[i]) {
            prefetchedUnused[i] = false;
            prefetchesUnused++;
        }
        evictingUnits += cost[i];
        evictionsInFlight++;
        long arrival = d2h.copy(engine.now(), pageBytes);
        engine.schedule(arrival, this, EV_D2H, i);
        if (cfg.copyThroughMemory()) readOut(i, arrival);
        for (UnifiedMemory.Listener l : listeners) l.onEviction(vpn, proactive);
    }

    /**
     * The evicted page's lines leave every GPU's L2 (and, through the L2's sharer bits, the L1s) and the CPU's caches: the
     * frame gets another page next, which must not hit them. Dirty lines go out with the page's copy (the copy engine
     * reads through the L2). The walk over the L2 tags takes no simulated time (it overlaps the shootdown).
     */
    private void dropCachedLines(long frameBase) {
        if (frameBase < 0) return;
        gpuFrameEvicted.accept(frameBase); // the CPU's lines of it too: it may have read or written the page over the link
        for (Gpu g : gpus) {
            for (org.hmsim.platform.gpu.cache.L2Slice sl : g.l2Slices()) {
                long[] d = sl.dropRange(frameBase, pageBytes);
                l2LinesDropped += d[0];
                l2DirtyDropped += d[1];
            }
        }
    }

    private void evicted(int i) {
        // again once the copy is done, before the frame can take another page: requests translated before the
        // shootdown may have reached the L2 and allocated lines of the frame after the first drop
        dropCachedLines(frameBase[i]);
        os.releaseFrame(frameBase[i]);
        frameBase[i] = -1;
        usedUnits -= cost[i];
        evictingUnits -= cost[i];
        evictionsInFlight--;
        state[i] = NONRES;
        if (refault[i]) { // faulted again during its copy out: fetched like any fault now that the host holds it
            refault[i] = false;
            refaultsPending--;
            state[i] = FETCHING;
            push(baseVpn + i);
            startIdleHandlers();
        }
        tryAllocate();
    }

    /** The residency slot's victim if it names a resident page, else the oldest page migrated in. */
    private long pickVictim() {
        ResidencyPolicy rp = residency.get();
        for (int tries = 0; tries < 4; tries++) {
            long v = rp.chooseVictim(gpuPool);
            if (v < 0) break;
            int i = index(v);
            if (i >= 0 && state[i] == RESIDENT) return v;
            policyVictimsRejected++;
        }
        while (aSize > 0) {
            long v = ageVpn[aHead], s = ageStamp[aHead];
            aHead = (aHead + 1) % ageVpn.length;
            aSize--;
            int i = index(v);
            if (state[i] == RESIDENT && stamp[i] == s) return v;
        }
        return -1;
    }

    // ------------------------------------------------------------------ compression delay

    /** Whether {@code paddr} lies in a GPU frame that holds a compressed page. */
    @Override
    public boolean compressedFrame(long paddr) {
        if (PhysicalAddress.pool(paddr) != gpuPool) return false;
        long f = PhysicalAddress.offset(paddr) / pageBytes;
        return f < frameCompressed.length && frameCompressed[(int) f];
    }

    /**
     * The metadata block an access to {@code paddr} (in a compressed frame) must read first, as a physical
     * address in the same frame, or -1 (the compression slot's metadata cache has it).
     *
     * <p>The slot gives the block's offset from the start of the page's compressed data (LCP: the metadata region
     * follows it). LCP packs compressed pages back to back, where hmsim keeps each in a whole frame, so the block goes
     * where it would fall in the packed layout, modulo the frame: {@code frame x compressed size + offset}. Its channel
     * is then the packed layout's (frames are a whole number of channel-interleave rounds). At the same offset in every
     * frame, every page's metadata fell on the same three of eight GDDR5 channels and made them the bottleneck (SRAD,
     * data resident: CC +110 % of which most was those channels' queues; found by a review).
     */
    @Override
    public long metadataReadPa(long paddr, boolean write) {
        long off = PhysicalAddress.offset(paddr);
        long frame = off / pageBytes;
        long vpn = frameVpn[(int) frame];
        long m = compression.get().metadataRead(vpn, off - frame * pageBytes, write);
        if (m < 0) return -1;
        metadataReads++;
        long compressedBytes = pageBytes * cost[index(vpn)] / UNIT;
        long packed = Math.floorMod(frame * compressedBytes + Math.min(Math.max(0, m), pageBytes - 64), pageBytes) & ~63L;
        return PhysicalAddress.make(gpuPool, frame * pageBytes + packed);
    }

    /** Extra latency of an L2 miss to {@code paddr} in a compressed frame (codec latency of the slot). */
    @Override
    public long compressedAccessPs(long paddr) {
        compressedAccesses++;
        long f = PhysicalAddress.offset(paddr) / pageBytes;
        return compression.get().extraLatencyPs(frameVpn[(int) f]);
    }

    private void recordFrame(long vpn, boolean compressed) {
        long pa = os.lookup(vpn * pageBytes);
        frameBase[index(vpn)] = pa;
        int f = (int) (PhysicalAddress.offset(pa) / pageBytes);
        if (f >= frameVpn.length) {
            int n = Math.max(f + 1, frameVpn.length * 2);
            frameVpn = Arrays.copyOf(frameVpn, n);
            frameCompressed = Arrays.copyOf(frameCompressed, n);
        }
        frameVpn[f] = vpn;
        frameCompressed[f] = compressed;
    }

    /**
     * Frame units page {@code vpn} occupies if it migrates in now: 1/f of a frame under its compression factor f,
     * rounded down (see {@link #UNIT}: rounded up, the pages' units overshot the frames' and memory held a page less).
     */
    private int unitCost(long vpn) {
        double f = compression.get().capacityFactor(gpuPool, vpn);
        if (!(f > 1.0)) return UNIT;
        return (int) Math.max(1, Math.floor(UNIT / f));
    }

    /** Frame units of the whole footprint if every page migrated in now. */
    private long footprintUnits() {
        long units = 0;
        for (int i = 0; i < state.length; i++) if (allocationOf[i] >= 0) units += unitCost(baseVpn + i);
        return units;
    }

    // ------------------------------------------------------------------ set-up and bookkeeping

    /** At the first fault the allocations are final: size the page arrays, the footprint and capacity. */
    private void init() {
        if (baseVpn >= 0) return;
        List<Allocation> allocs = os.allocations();
        if (allocs.isEmpty()) throw new IllegalStateException("unified memory: no allocations before the first fault");
        long lo = Long.MAX_VALUE, hi = 0, pages = 0;
        for (Allocation a : allocs) {
            long first = Math.floorDiv(a.baseVa(), pageBytes), end = Math.floorDiv(a.endVa() + pageBytes - 1, pageBytes);
            lo = Math.min(lo, first);
            hi = Math.max(hi, end);
            pages += end - first;
        }
        baseVpn = lo;
        int n = (int) (hi - lo);
        state = new byte[n];
        dropped = new boolean[n];
        // guard gaps between allocations (-1) are no pages of the footprint: never fetched, never faulted
        allocationOf = new int[n];
        Arrays.fill(allocationOf, -1);
        for (int k = 0; k < allocs.size(); k++) {
            Allocation a = allocs.get(k);
            long first = Math.floorDiv(a.baseVa(), pageBytes), end = Math.floorDiv(a.endVa() + pageBytes - 1, pageBytes);
            for (long v = first; v < end; v++) allocationOf[(int) (v - lo)] = k;
        }
        faultSm = new int[n];
        pageHandler = new short[n];
        Arrays.fill(faultSm, -1);
        gpuWaiting = new long[n];
        cost = new int[n];
        stamp = new long[n];
        faultedAt = new long[n];
        refault = new boolean[n];
        prefetchedUnused = new boolean[n];
        evictionParts = new byte[n];
        frameBase = new long[n];
        Arrays.fill(frameBase, -1);
        footprintPages = pages;
        capacityFrames = Math.max(1, Math.min(poolFrames, (long) Math.floor(cfg.oversubscription() * pages)));
        capacityUnits = capacityFrames * UNIT;
    }

    private int index(long vpn) {
        long i = vpn - baseVpn;
        return i < 0 || i >= state.length ? -1 : (int) i;
    }

    private void push(long vpn) {
        if (bSize == buf.length) {
            long[] b = new long[buf.length * 2];
            for (int k = 0; k < bSize; k++) b[k] = buf[(bHead + k) % buf.length];
            buf = b;
            bHead = 0;
        }
        buf[(bHead + bSize++) % buf.length] = vpn;
        maxBuffer = Math.max(maxBuffer, bSize);
    }

    private void pushAge(long vpn, long s) {
        if (aSize == ageVpn.length) {
            long[] v = new long[ageVpn.length * 2], st = new long[ageVpn.length * 2];
            for (int k = 0; k < aSize; k++) {
                v[k] = ageVpn[(aHead + k) % ageVpn.length];
                st[k] = ageStamp[(aHead + k) % ageVpn.length];
            }
            ageVpn = v;
            ageStamp = st;
            aHead = 0;
        }
        int t = (aHead + aSize++) % ageVpn.length;
        ageVpn[t] = vpn;
        ageStamp[t] = s;
    }

    // ------------------------------------------------------------------ UnifiedMemory

    @Override public long pageBytes() { return pageBytes; }

    @Override public long footprintPages() { init(); return footprintPages; }

    @Override public long capacityFrames() { init(); return capacityFrames; }

    @Override public long residentPages() {
        long n = 0;
        for (byte b : state) if (b == RESIDENT) n++;
        return n;
    }

    /** Frames times the compression factor pages migrated in now would be stored at (seed 002 §4.3). */
    /** Frames times the footprint's mean compression factor of now (each page at its own, when ratios differ by allocation). */
    @Override public double effectiveCapacityPages() {
        init();
        long units = footprintUnits();
        return units == 0 ? capacityFrames : capacityUnits * (double) footprintPages / units;
    }

    @Override public double freePages() { init(); return (capacityUnits - usedUnits) / (double) UNIT; }

    @Override public boolean isResident(long vpn) {
        int i = index(vpn);
        return i >= 0 && state[i] == RESIDENT;
    }

    @Override public int evictionsInFlight() { return evictionsInFlight; }

    /** Every raised fault (fetched or waiting for its own eviction copy) is resolved once, when its page arrives. */
    @Override public long faultsInService() { return faults - resolved; }

    @Override public double evictingPages() { return evictingUnits / (double) UNIT; }

    /** The waiting batches at the compression ratio of now (as {@link #tryAllocate} prices them). */
    @Override public double awaitedPages() {
        repriceWaiting();
        return waitingUnits / (double) UNIT;
    }

    /** Physical address of the frame {@code vpn} occupies, or occupied last if it was evicted; -1 if never resident. */
    public long frameBase(long vpn) {
        int i = index(vpn);
        return i < 0 ? -1 : frameBase[i];
    }

    /** Whether {@code vpn}'s copy out of GPU memory (an eviction) is still under way. */
    public boolean evicting(long vpn) {
        int i = index(vpn);
        return i >= 0 && state[i] == EVICTING;
    }

    @Override public boolean workloadSharesData() { return sharesData; }

    @Override public long memInstructions() {
        long n = 0;
        for (Gpu g : gpus) for (Sm s : g.sms()) n += s.memInstructions();
        return n;
    }

    @Override public long threadAccesses() {
        long n = 0;
        for (Gpu g : gpus) for (Sm s : g.sms()) n += s.threadAccesses();
        return n;
    }

    @Override public long lineRequests() {
        long n = 0;
        for (Gpu g : gpus) for (Sm s : g.sms()) n += s.lineRequests();
        return n;
    }

    @Override public void addListener(UnifiedMemory.Listener l) {
        listeners = Arrays.copyOf(listeners, listeners.length + 1);
        listeners[listeners.length - 1] = l;
    }

    @Override public void removeListener(UnifiedMemory.Listener l) {
        for (int k = 0; k < listeners.length; k++) {
            if (listeners[k] != l) continue;
            UnifiedMemory.Listener[] n = new UnifiedMemory.Listener[listeners.length - 1];
            System.arraycopy(listeners, 0, n, 0, k);
            System.arraycopy(listeners, k + 1, n, k, listeners.length - k - 1);
            listeners = n;
            return;
        }
    }

    // ------------------------------------------------------------------ Component

    @Override public String name() { return "uvm"; }

    @Override public int inFlight() { return bSize + busyHandlers() + evictionsInFlight; }

    private int busyHandlers() {
        int n = 0;
        for (Batch b : handlers) if (b.busy) n++;
        return n;
    }

    private int throttledSms() {
        int n = 0;
        for (Gpu g : gpus) for (Sm s : g.sms()) if (!s.issueEnabled()) n++;
        return n;
    }

    @Override
    public void registerStats(Stats root) {
        Stats s = root.scope(name());
        s.counter("faults", "far faults raised (first fault of a non-resident page)", () -> faults);
        s.counter("faults_merged", "faults on a page already being faulted in (merged)", () -> faultsMerged);
        s.counter("faults_during_eviction", "far faults on a page whose eviction copy was still under way (served once it was done)", () -> refaultsAfterEviction);
        s.counter("fault_batches", "batches the fault handler served", () -> batches);
        s.gauge("faults_per_batch", "demand faults per batch", () -> batches == 0 ? 0 : (double) batchedFaults / batches);
        s.counter("fault_buffer_overflows", "faults the full fault buffer dropped (their accesses replayed after a batch, faulting again if the page has not come)", () -> bufferOverflows);
        s.counter("fault_replays", "replays that re-ran dropped faults' accesses (one at the end of each batch that had any waiting)", () -> replays);
        s.gauge("fault_buffer_max", "largest fault-buffer occupancy", () -> maxBuffer);
        s.gauge("fault_latency_ns", "mean time from a far fault to its page's arrival, ns", () -> resolved == 0 ? 0 : faultWaitPs / 1000.0 / resolved);
        s.counter("prefetches", "pages migrated in by the prefetchers", () -> prefetches);
        s.counter("prefetches_policy", "of those, pages the residency slot's prefetch proposed (the rest: the machine's uvm.prefetcher)", () -> prefetchesPolicy);
        s.counter("prefetch_proposals_policy", "pages the residency slot's prefetch proposed, taken or not (not: resident, coming or leaving already, "
                + "or no room: free frames only unless prefetch_evicts)", () -> proposalsPolicy);
        s.counter("prefetches_unused", "prefetched pages evicted before any page walk asked for them (wasted prefetches)", () -> prefetchesUnused);
        s.counter("from_host", "pages the CPU had touched first (mapped in host memory) that moved into GPU memory", () -> fromHost);
        s.counter("preloaded", "pages made resident before the first kernel (uvm.preload)", () -> preloaded);
        s.counter("evictions", "pages evicted to host memory", () -> evictions);
        s.counter("evictions_proactive", "evictions started ahead of need (evictAhead)", () -> proactiveEvictions);
        s.counter("victims_rejected", "victims the residency slot named that were not resident", () -> policyVictimsRejected);
        s.counter("h2d.bytes", "bytes copied host-to-device", h2d::bytes);
        s.counter("d2h.bytes", "bytes copied device-to-host", d2h::bytes);
        s.counter("h2d.memory_bytes", "bytes the copy engine wrote into GPU memory for pages brought in (their stored size; 0 without copy_through_memory)", () -> h2dMemoryBytes);
        s.counter("d2h.memory_bytes", "bytes the copy engine read out of GPU memory for pages evicted (their stored size; 0 without copy_through_memory)", () -> d2hMemoryBytes);
        s.counter("h2d.busy_ps", "time the host-to-device channel was copying, ps", h2d::busyPs);
        s.counter("d2h.busy_ps", "time the device-to-host channel was copying, ps", d2h::busyPs);
        s.counter("h2d.queue_ps", "total time copies waited for the host-to-device channel, ps", h2d::queuedPs);
        s.counter("d2h.queue_ps", "total time copies waited for the device-to-host channel, ps", d2h::queuedPs);
        s.counter("l2_lines_dropped", "L2 lines of evicted pages dropped (with their L1 copies) so the frame's next page cannot hit them", () -> l2LinesDropped);
        s.counter("l2_dirty_lines_dropped", "of those, dirty lines (their data leaves with the page's device-to-host copy)", () -> l2DirtyDropped);
        s.counter("compressed_accesses", "L2 misses to compressed pages (paying the compression latency)", () -> compressedAccesses);
        s.counter("metadata_reads", "64 B compression-metadata reads sent to GPU memory before a compressed page's access (metadata-cache misses)", () -> metadataReads);
        s.gauge("footprint_pages", "pages of all allocations", () -> footprintPages);
        s.gauge("capacity_frames", "GPU frames available to unified memory", () -> capacityFrames);
        s.gauge("resident_pages", "pages resident in GPU memory", this::residentPages);
        s.gauge("throttled_sms", "SMs whose issue is disabled (throttled)", this::throttledSms);
        root.sampleEachEpoch("uvm.faults");
        root.sampleEachEpoch("uvm.evictions");
        root.sampleEachEpoch("uvm.throttled_sms");
        root.sampleEachEpoch("uvm.resident_pages");
    }
}
