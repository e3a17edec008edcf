package org.hmsim.platform.memory.os;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.machine.Component;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * The OS memory manager: a virtual address space of named allocations, a flat page table per
 * allocation, physical frames per pool, first-touch mapping through the placement slot, and page
 * migration with copy traffic and shootdown notification.
 *
 * <p><b>Address space.</b> Allocations are placed in allocation order from {@link #FIRST_VA} upwards,
 * each page-aligned and followed by an unmapped guard gap of {@code guardPages} pages, so an access
 * that runs off the end of one allocation faults instead of silently touching the next.
 *
 * <p><b>First touch.</b> {@link #translate} maps an unmapped page in the pool the placement policy
 * chooses. If that pool has no free frame the page spills to another pool with free frames, trying the
 * other pools by descending peak bandwidth (ties: lower index first) — the OS "has no choice"
 * (seed 000 §2.2). Every translation by a GPU sets that GPU's sharer bit on the page (seed 000 §2.5).
 *
 * <p><b>Migration.</b> {@link #migrate} copies the page through {@link PhysicalMemory} (128-byte
 * reads of the old frame, each followed by a write to the new one, no priority over demand traffic),
 * and when the copy is complete updates the page table, frees the old frame, clears the sharer bits and
 * tells the {@link ShootdownListener} which GPUs had translated the page, then runs {@code done}.
 * Accesses during the copy still go to the old frame.
 */
public final class OsMemoryManager implements MemoryManager, Component {
    /** Base of the first allocation: 4 GiB, so that small integers are never valid addresses. */
    public static final long FIRST_VA = 1L << 32;

    private final List<PoolInfo> pools;
    private final long pageBytes;
    private final Engine engine;
    private final RequestPool requests;
    private final PhysicalMemory memory;
    private final FrameAllocator[] frames;
    /** Per pool, frames a migration left: requests translated before its shootdown may still cache their lines, so
     * the caches drop them again when the frame is taken (as a unified-memory eviction drops twice). */
    private final java.util.BitSet[] movedOut;
    private final long[] mapped;
    private final int[] spillOrder;
    private final int guardPages;

    private PlacementPolicy placement;
    /** Multi-GPU frame choice (seed 004 page groups); null: every page takes a frame of its pool. */
    private FrameMapper frameMapper;
    /** Per allocation id: the program's per-CTA stride hint (api.os 1.2.0), -1 unknown. */
    private long[] ctaStride = new long[0];
    /** Per allocation id: the GPU its program runs on in a multiprogrammed run (-1 or absent: every GPU). */
    private int[] programGpu = new int[0];
    private ShootdownListener shootdown = (vpn, mask, oldFrame) -> {};
    private int copyRequestsInFlight = 16;

    private final List<Allocation> allocations = new ArrayList<>();
    private AllocationPages[] tables = new AllocationPages[8];
    private int nTables;
    private long nextVa = FIRST_VA;
    private boolean demandPaged;
    private AllocationPages lastHit;

    private PageMigration[] idleMigrations = new PageMigration[8];
    private int nIdle;
    /** Chunks of page copies read and not yet written, over every copy (what a memory drain must see finish). */
    private int chunksInFlight;
    /** Copies start no new chunk (a live swap drains the memory system); those that wanted to wait in {@link #parked}. */
    private boolean copiesHeld;
    private final java.util.ArrayList<PageMigration> parked = new java.util.ArrayList<>();

    private long firstTouchFaults, spills, migrations, migrationsStarted, copyBytes, hostMaps, unmaps;
    private String migrationRefusal;
    private long migrationsRefused;
    /** Sum and maximum of the migrations' start-to-remap times, and the most copies ever under way at once. */
    private long migrationPs, migrationMaxPs, migrationsPeak;

    /**
     * @param pools the machine's pools in index order (capacity gives the frame count, peak bandwidth
     *              the spill order)
     * @param pageBytes page size, a power of two (4 KB default elsewhere; 64 KB, 2 MB allowed)
     * @param memory where page-copy requests go (the machine's fabric)
     */
    public OsMemoryManager(List<PoolInfo> pools, long pageBytes, int guardPages, Engine engine, RequestPool requests, PhysicalMemory memory) {
        if (pageBytes < 128 || Long.bitCount(pageBytes) != 1)
            throw new IllegalArgumentException("page size " + pageBytes + " B must be a power of two >= 128 B");
        if (pools.isEmpty()) throw new IllegalArgumentException("a machine needs at least one memory pool");
        if (guardPages < 0) throw new IllegalArgumentException("guard gap must be >= 0 pages");
        this.pools = List.copyOf(pools);
        this.pageBytes = pageBytes;
        this.guardPages = guardPages;
        this.engine = engine;
        this.requests = requests;
        this.memory = memory;
        frames = new FrameAllocator[pools.size()];
        mapped = new long[pools.size()];
        for (int p = 0; p < frames.length; p++) frames[p] = new FrameAllocator(pools.get(p).capacityBytes() / pageBytes);
        movedOut = new java.util.BitSet[frames.length];
        for (int p = 0; p < frames.length; p++) movedOut[p] = new java.util.BitSet();
        spillOrder = java.util.stream.IntStream.range(0, pools.size()).boxed()
                .sorted((a, b) -> {
                    int c = Double.compare(pools.get(b).peakBytesPerSecond(), pools.get(a).peakBytesPerSecond());
                    return c != 0 ? c : Integer.compare(a, b);
                })
                .mapToInt(Integer::intValue).toArray();
    }

    /** Same, with a one-page guard gap between allocations. */
    public OsMemoryManager(List<PoolInfo> pools, long pageBytes, Engine engine, RequestPool requests, PhysicalMemory memory) {
        this(pools, pageBytes, 1, engine, requests, memory);
    }

    // ---- wiring

    public void setPlacement(PlacementPolicy p) { this.placement = p; }

    /**
     * Pages live outside the machine's pools too (a demand-paging driver evicts them to host memory), so
     * allocations may exceed the pools' capacity. Without it they may not: see {@link #allocate}.
     */
    public void setDemandPaged(boolean on) { this.demandPaged = on; }

    public PlacementPolicy placement() { return placement; }

    /** Lets {@code m} choose the frames of pages (multi-GPU machines); null restores the default. */
    public void setFrameMapper(FrameMapper m) { this.frameMapper = m; }

    /** Records that a multiprogrammed run's program bound to {@code gpu} made {@code a} (see {@link #programGpu}). */
    public void setProgramGpu(Allocation a, int gpu) {
        if (a.id() >= programGpu.length) {
            int old = programGpu.length;
            programGpu = java.util.Arrays.copyOf(programGpu, Math.max(a.id() + 1, old * 2));
            java.util.Arrays.fill(programGpu, old, programGpu.length, -1);
        }
        programGpu[a.id()] = gpu;
    }

    @Override
    public int programGpu(Allocation a) { return a.id() < programGpu.length ? programGpu[a.id()] : -1; }

    private double[] compressionRatio = new double[0];

    /** Records how well an allocation's data compress, as its workload declared it (see {@link #compressionRatio}). */
    public void setCompressionRatio(Allocation a, double ratio) {
        if (a.id() >= compressionRatio.length) compressionRatio = java.util.Arrays.copyOf(compressionRatio, Math.max(a.id() + 1, compressionRatio.length * 2));
        compressionRatio[a.id()] = ratio;
    }

    @Override
    public double compressionRatio(Allocation a) { return a.id() < compressionRatio.length ? compressionRatio[a.id()] : 0; }

    /** Records the program's per-CTA stride hint of an allocation (see {@link #ctaStrideBytes}). */
    public void setCtaStrideBytes(Allocation a, long bytes) {
        if (a.id() >= ctaStride.length) {
            int old = ctaStride.length;
            ctaStride = java.util.Arrays.copyOf(ctaStride, Math.max(a.id() + 1, old * 2));
            java.util.Arrays.fill(ctaStride, old, ctaStride.length, -1L);
        }
        ctaStride[a.id()] = bytes;
    }

    @Override
    public long ctaStrideBytes(Allocation a) { return a.id() < ctaStride.length ? ctaStride[a.id()] : -1; }

    private java.util.function.Function<Allocation, org.hmsim.api.os.CtaStrideProfile> strideProfiler;
    private final java.util.Map<Integer, org.hmsim.api.os.CtaStrideProfile> strideProfiles = new java.util.HashMap<>();

    /** Sets what measures an allocation's per-block stride (the workload runner's sampler); null: none. */
    public void setCtaStrideProfiler(java.util.function.Function<Allocation, org.hmsim.api.os.CtaStrideProfile> p) {
        this.strideProfiler = p;
        strideProfiles.clear();
    }

    private java.util.function.ToIntFunction<Allocation> firstKernelWarps;
    private final java.util.Map<Integer, Integer> kernelWarps = new java.util.HashMap<>();

    /** Sets what finds the warps per block of the first kernel touching an allocation (the workload runner's); null: none. */
    public void setFirstKernelWarps(java.util.function.ToIntFunction<Allocation> f) {
        this.firstKernelWarps = f;
        kernelWarps.clear();
    }

    @Override
    public int firstKernelWarpsPerCta(Allocation a) {
        if (firstKernelWarps == null) return 0;
        return kernelWarps.computeIfAbsent(a.id(), id -> firstKernelWarps.applyAsInt(a));
    }

    /** Profiles each allocation once, at the first request (deterministic: no timing involved). */
    @Override
    public org.hmsim.api.os.CtaStrideProfile profileCtaStride(Allocation a) {
        if (strideProfiler == null) return null;
        return strideProfiles.computeIfAbsent(a.id(), id -> strideProfiler.apply(a));
    }

    public void setShootdownListener(ShootdownListener l) { this.shootdown = l == null ? (vpn, mask, oldFrame) -> {} : l; }

    /** Copy requests (reads + writes) one migration may have outstanding; default 16. */
    public void setCopyRequestsInFlight(int n) {
        if (n < 1) throw new IllegalArgumentException("copy requests in flight must be >= 1");
        this.copyRequestsInFlight = n;
    }

    // ---- address space

    /** Reserves a named region; bases are handed out in allocation order. */
    public Allocation allocate(String name, long bytes, AllocationHint hint, boolean readOnly) {
        if (bytes <= 0) throw new IllegalArgumentException("allocation '" + name + "' must have a positive size, got " + bytes);
        long base = nextVa;
        long span = (bytes + pageBytes - 1) / pageBytes * pageBytes;
        Allocation a = new Allocation(allocations.size(), name, base, bytes, hint == null ? AllocationHint.NONE : hint, readOnly);
        AllocationPages pages = new AllocationPages(a, pageBytes);
        // every page would have to be mapped somewhere: found at once rather than when the last pool fills
        long footprint = pages.frame.length, frames = 0;
        for (int i = 0; i < nTables; i++) footprint += tables[i].frame.length;
        for (FrameAllocator f : this.frames) frames += f.total();
        if (!demandPaged && footprint > frames)
            throw new IllegalArgumentException("allocation '" + name + "' of " + bytes + " bytes takes the allocations to "
                    + footprint + " pages of " + pageBytes + " bytes, more than the machine's pools hold ("
                    + frames + " frames in all); a smaller input or larger pools");
        nextVa = base + span + guardPages * pageBytes;
        allocations.add(a);
        if (nTables == tables.length) tables = java.util.Arrays.copyOf(tables, nTables * 2);
        tables[nTables++] = pages;
        return a;
    }

    @Override
    public long pageBytes() { return pageBytes; }

    @Override
    public List<Allocation> allocations() { return Collections.unmodifiableList(allocations); }

    @Override
    public Allocation allocationOf(long va) {
        AllocationPages t = tableOfVpn(Math.floorDiv(va, pageBytes));
        return t != null && t.allocation.contains(va) ? t.allocation : null;
    }

    /** The allocation pages holding {@code vpn}; allocations are sorted by base, so a binary search. */
    private AllocationPages tableOfVpn(long vpn) {
        AllocationPages h = lastHit;
        if (h != null && h.holdsVpn(vpn)) return h;
        int lo = 0, hi = nTables - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            AllocationPages t = tables[mid];
            if (vpn < t.baseVpn) hi = mid - 1;
            else if (vpn >= t.baseVpn + t.frame.length) lo = mid + 1;
            else return lastHit = t;
        }
        return null;
    }

    // ---- translation

    /**
     * The physical address of {@code vaddr}, mapping its page on first touch. {@code gpu} is the GPU
     * whose TLB missed (its sharer bit is set), or -1 for a CPU access. An address in no allocation
     * is a segmentation fault: {@link IllegalArgumentException} naming the address.
     */
    public long translate(long vaddr, int gpu) {
        long vpn = Math.floorDiv(vaddr, pageBytes);
        AllocationPages t = tableOfVpn(vpn);
        if (t == null || !t.allocation.contains(vaddr))
            throw new IllegalArgumentException("segmentation fault: address 0x" + Long.toHexString(vaddr)
                    + (gpu >= 0 ? " (GPU " + gpu + ")" : " (CPU)") + " lies in no allocation");
        if (gpu >= 64) throw new IllegalArgumentException("GPU " + gpu + ": sharer masks hold GPUs 0..63");
        int i = (int) (vpn - t.baseVpn);
        long f = t.frame[i];
        if (f < 0) f = firstTouch(t, i, vpn, gpu);
        if (gpu >= 0) t.sharers[i] |= 1L << gpu;
        return f + (vaddr & (pageBytes - 1));
    }

    /** The physical address of {@code vaddr} if its page is mapped, else -1; maps nothing, sets no bit. */
    public long lookup(long vaddr) {
        long vpn = Math.floorDiv(vaddr, pageBytes);
        AllocationPages t = tableOfVpn(vpn);
        if (t == null || !t.allocation.contains(vaddr)) return -1;
        long f = t.frame[(int) (vpn - t.baseVpn)];
        return f < 0 ? -1 : f + (vaddr & (pageBytes - 1));
    }

    private long firstTouch(AllocationPages t, int i, long vpn, int gpu) {
        if (placement == null) throw new IllegalStateException("no placement policy set in the memory manager");
        int want = placement.choosePool(vpn, t.allocation, gpu);
        if (want < 0 || want >= frames.length)
            throw new IllegalStateException("placement policy chose pool " + want + " for page 0x" + Long.toHexString(vpn) + "; pools are 0.." + (frames.length - 1));
        if (frameMapper != null) {
            long pa = frameMapper.map(vpn, t.allocation, want, gpu);
            if (pa >= 0) checkMapped(vpn);
            if (pa >= 0) {
                firstTouchFaults++;
                countMapped(pa);
                t.frame[i] = pa;
                return pa;
            }
        }
        int pool = want;
        long frame = allocateFrame(pool);
        if (frame < 0) {
            for (int p : spillOrder) {
                if (p == want) continue;
                frame = allocateFrame(p);
                if (frame >= 0) {
                    pool = p;
                    break;
                }
            }
            if (frame < 0) throw new IllegalStateException("out of memory: every pool is full when mapping page 0x" + Long.toHexString(vpn) + " of '" + t.allocation.name() + "'");
            spills++;
        }
        firstTouchFaults++;
        mapped[pool]++;
        long pa = PhysicalAddress.make(pool, frame * pageBytes);
        t.frame[i] = pa;
        return pa;
    }

    /** A free frame of {@code pool} (-1 if none); one a migration left is first dropped from the caches again. */
    private long allocateFrame(int pool) {
        long frame = frames[pool].allocate(ceiling(pool));
        if (frame >= 0) reclaim(pool, frame);
        return frame;
    }

    /** Whether {@code frame} of {@code pool}, just taken, is one a migration left; if so the caches drop it again. */
    private boolean reclaim(int pool, long frame) {
        if (!movedOut[pool].get((int) frame)) return false;
        movedOut[pool].clear((int) frame);
        shootdown.onFrameReused(PhysicalAddress.make(pool, frame * pageBytes));
        return true;
    }

    /** Counts a frame-mapper frame in its pool, or a spread page (its pseudo-pool is no pool). */
    private void countMapped(long pa) {
        int p = PhysicalAddress.pool(pa);
        if (p < mapped.length) mapped[p]++;
        else spreadMapped++;
    }

    /** Pages mapped spread over every GPU memory (multi-GPU fine-grained pages), which no pool's count has. */
    public long spreadPages() { return spreadMapped; }

    /**
     * Host mapping (api.os 1.1.0): maps an unmapped page in {@code pool} without the placement slot, as
     * the CPU's initialisation of its data does (seed 000 §2.5: pages start in CPU memory), spilling as
     * first touch does; no sharer bit is set. Returns the pool used, or -1 if already mapped or outside
     * every allocation.
     */
    @Override
    public int map(long vpn, int pool) {
        AllocationPages t = tableOfVpn(vpn);
        if (t == null || pool < 0 || pool >= frames.length) return -1;
        int i = (int) (vpn - t.baseVpn);
        if (t.frame[i] >= 0) return -1;
        if (frameMapper != null) {
            long pa = frameMapper.map(vpn, t.allocation, pool, -1);
            if (pa >= 0) checkMapped(vpn);
            if (pa >= 0) {
                hostMaps++;
                countMapped(pa);
                t.frame[i] = pa;
                return PhysicalAddress.pool(pa);
            }
        }
        int p = pool;
        long frame = allocateFrame(p);
        for (int k = 0; frame < 0 && k < spillOrder.length; k++) {
            p = spillOrder[k];
            frame = allocateFrame(p);
        }
        if (frame < 0) throw new IllegalStateException("out of memory: every pool is full when host-mapping page 0x" + Long.toHexString(vpn) + " of '" + t.allocation.name() + "'");
        if (p != pool) spills++; // a host-mapped page spills as a first-touched one does (they were not counted: a placement trial read 77 for 888)
        hostMaps++;
        mapped[p]++;
        t.frame[i] = PhysicalAddress.make(p, frame * pageBytes);
        return p;
    }

    /**
     * Unmaps a mapped page and frees its frame, as a demand-paging driver's eviction does (seed 002 §2.1);
     * the caller copies the data out and shoots the translation down. Returns the GPUs that had translated
     * the page (bit g = GPU g), or -1 if the page was not mapped or is being migrated.
     */
    public long unmap(long vpn) { return unmap(vpn, true); }

    /**
     * Unmaps as {@link #unmap(long)} but keeps the frame taken until {@link #releaseFrame}: a page being copied out (a
     * unified-memory eviction) still occupies its frame, which must take no other page before its copy has left (a
     * review found the next page mapped into it while the copy ran, and the copy's end dropping that page's lines).
     */
    public long unmapKeepingFrame(long vpn) { return unmap(vpn, false); }

    /** Frees the frame at {@code pa} that {@link #unmapKeepingFrame} kept. */
    public void releaseFrame(long pa) { frames[PhysicalAddress.pool(pa)].release(PhysicalAddress.offset(pa) / pageBytes); }

    private long unmap(long vpn, boolean release) {
        AllocationPages t = tableOfVpn(vpn);
        if (t == null) return -1;
        int i = (int) (vpn - t.baseVpn);
        long f = t.frame[i];
        if (f < 0 || t.migrating[i]) return -1;
        int pool = PhysicalAddress.pool(f);
        if (release) frames[pool].release(PhysicalAddress.offset(f) / pageBytes);
        mapped[pool]--;
        t.frame[i] = -1;
        long mask = t.sharers[i];
        t.sharers[i] = 0;
        unmaps++;
        return mask;
    }

    @Override
    public int poolOf(long vpn) {
        AllocationPages t = tableOfVpn(vpn);
        if (t == null) return -1;
        long f = t.frame[(int) (vpn - t.baseVpn)];
        return f < 0 ? -1 : PhysicalAddress.pool(f);
    }

    /** GPUs that translated the page since it was mapped or last moved (bit g = GPU g); 0 if unmapped. */
    public long sharers(long vpn) {
        AllocationPages t = tableOfVpn(vpn);
        return t == null ? 0 : t.sharers[(int) (vpn - t.baseVpn)];
    }

    @Override
    public boolean translatedByGpu(long vpn) { return sharers(vpn) != 0; }

    public boolean isMigrating(long vpn) {
        AllocationPages t = tableOfVpn(vpn);
        return t != null && t.migrating[(int) (vpn - t.baseVpn)];
    }

    @Override
    public long freeFrames(int pool) { return frames[pool].free(ceiling(pool)); }

    /** Frames of {@code pool} from this one up belong to the frame mapper (multi-GPU page groups). */
    private long ceiling(int pool) { return frameMapper == null ? Long.MAX_VALUE : frameMapper.framesAvailableBelow(pool); }

    /**
     * A frame the mapper chose must not be one this manager handed out (a page migrated into the pool): the two
     * regions grow towards each other (a review found them colliding, two pages in one frame, once memory was small).
     */
    private void checkMapped(long vpn) {
        for (int pool = 0; pool < frames.length; pool++) // every pool: a spread page's group takes a frame in each memory
            if (frames[pool].bump() > ceiling(pool))
                throw new IllegalStateException("out of memory in pool " + pool + ": the page groups reached the frames page migrations took, mapping page 0x" + Long.toHexString(vpn));
    }

    @Override
    public long totalFrames(int pool) { return frames[pool].total(); }

    @Override
    public long mappedPages(int pool) { return mapped[pool]; }

    private long spreadMapped;

    // ---- migration

    @Override
    public boolean migrate(long vpn, int toPool, Runnable done) {
        if (migrationRefusal != null) {
            migrationsRefused++;
            return false;
        }
        if (toPool < 0 || toPool >= frames.length) return false;
        AllocationPages t = tableOfVpn(vpn);
        if (t == null) return false;
        int i = (int) (vpn - t.baseVpn);
        long src = t.frame[i];
        if (src < 0 || PhysicalAddress.pool(src) == toPool || t.migrating[i]) return false;
        if (PhysicalAddress.pool(src) >= frames.length) return false; // a spread (multi-GPU) page: no pool frame to free
        long frame = frames[toPool].allocate(ceiling(toPool));
        if (frame < 0) return false;
        boolean reused = reclaim(toPool, frame);
        t.migrating[i] = true;
        migrationsStarted++;
        migrationsPeak = Math.max(migrationsPeak, migrationsStarted - migrations);
        PageMigration m = nIdle > 0 ? idleMigrations[--nIdle] : new PageMigration(this);
        m.dstReused = reused;
        m.start(vpn, t, i, src, PhysicalAddress.make(toPool, frame * pageBytes), done, copyRequestsInFlight, pageBytes);
        return true;
    }

    /**
     * From now on {@link #migrate} starts nothing, for {@code reason}: a CPU side a migration's shootdown does not reach
     * (its TLBs, caches and directory would keep the old frame; migration policies refuse such a machine at validation,
     * {@code RunFacts.refusePageMigration}), or a demand-paging driver that owns the GPU pages' frames.
     * This keeps a policy that does not refuse from running on stale lines or freeing a frame twice.
     */
    public void refuseMigrations(String reason) { migrationRefusal = reason; }

    /** Why {@link #migrate} refuses every page, or null if it does not. */
    public String migrationRefusal() { return migrationRefusal; }

    /** The copy of {@code m} has completed: remap, free the old frame, shoot down, tell the caller. */
    void finish(PageMigration m) {
        AllocationPages t = m.pages;
        int i = m.index;
        int from = PhysicalAddress.pool(m.src), to = PhysicalAddress.pool(m.dst);
        t.frame[i] = m.dst;
        frames[from].release(PhysicalAddress.offset(m.src) / pageBytes);
        movedOut[from].set((int) (PhysicalAddress.offset(m.src) / pageBytes));
        // a frame another migration left may have taken late lines of its old page during this copy: none may hit now
        if (m.dstReused) shootdown.onFrameReused(m.dst);
        mapped[from]--;
        mapped[to]++;
        long mask = t.sharers[i];
        t.sharers[i] = 0;
        t.migrating[i] = false;
        migrations++;
        long took = engine.now() - m.startPs;
        migrationPs += took;
        migrationMaxPs = Math.max(migrationMaxPs, took);
        long vpn = m.vpn;
        Runnable done = m.done;
        m.pages = null;
        m.done = null;
        if (nIdle == idleMigrations.length) idleMigrations = java.util.Arrays.copyOf(idleMigrations, nIdle * 2);
        idleMigrations[nIdle++] = m;
        shootdown.onPageMoved(vpn, mask, m.src);
        if (done != null) done.run();
    }

    /**
     * One side of a copy whose other side is outside the memory system (a host link's DMA engine): writes {@code bytes}
     * into the frame at {@code paddr} ({@code write}) or reads them out of it, through the memory controllers as page
     * copies go, in 128-byte chunks at the pace of the link that carries the data from {@code linkStartPs} for
     * {@code linkSpanPs} (a chunk written once delivered, read as the link is ready for it), at most {@code maxInFlight}
     * outstanding. {@code done} runs when the last chunk is
     * acknowledged. A drain does not hold it, unlike a migration ({@link #holdCopies}): the drain waits for the page walks its page wakes. No migration statistic counts it.
     */
    public void streamFrame(long vpn, long paddr, long bytes, boolean write, long linkStartPs, long linkSpanPs, int maxInFlight, Runnable done) {
        if (bytes <= 0) throw new IllegalArgumentException("a stream of " + bytes + " bytes");
        PageMigration m = nIdle > 0 ? idleMigrations[--nIdle] : new PageMigration(this);
        m.dstReused = false;
        m.startStream(vpn, write ? -1 : paddr, write ? paddr : -1, bytes, linkStartPs, linkSpanPs, done, maxInFlight);
    }

    /** The last chunk of the stream {@code m} is acknowledged: recycle it, tell the caller. */
    void finishStream(PageMigration m) {
        Runnable done = m.done;
        m.done = null;
        if (nIdle == idleMigrations.length) idleMigrations = java.util.Arrays.copyOf(idleMigrations, nIdle * 2);
        idleMigrations[nIdle++] = m;
        done.run();
    }

    /** Calls {@code m} back at {@code ps} (a stream waiting for the link's pace). */
    void wakeAt(long ps, PageMigration m) { engine.schedule(ps, m, 0, 0); }

    void countCopyBytes(int n) { copyBytes += n; }

    void chunkStarted() { chunksInFlight++; }

    void chunkDone() { chunksInFlight--; }

    boolean copiesHeld() { return copiesHeld; }

    void parkCopy(PageMigration m) { if (!parked.contains(m)) parked.add(m); }

    /**
     * From now on page copies start no new chunk; the chunks already read are still written. A live swap that drains the
     * memory system (interleave, coherence) holds copies as it holds the GPUs' issue, so that a migration policy emptying
     * its queue cannot keep the memory system busy for the whole drain (range expansion held an interleave swap 26.7 us,
     * found by a stress test). Copies started while held wait too; {@link #resumeCopies} lets them go on.
     */
    public void holdCopies() { copiesHeld = true; }

    /** Ends {@link #holdCopies}: every copy that waited goes on, in the order it stopped. */
    public void resumeCopies() {
        if (!copiesHeld) return;
        copiesHeld = false;
        PageMigration[] waiting = parked.toArray(new PageMigration[0]);
        parked.clear();
        for (PageMigration m : waiting) m.pump();
    }

    /** Chunks of page copies read and not yet written (0: no copy request is anywhere in the memory system). */
    public int copyChunksInFlight() { return chunksInFlight; }

    /** The node pool {@code pool} is attached to. */
    int nodeOfPool(int pool) { return pools.get(pool).node(); }

    RequestPool requests() { return requests; }

    PhysicalMemory memory() { return memory; }

    long now() { return engine.now(); }

    public long firstTouchFaults() { return firstTouchFaults; }

    public long spills() { return spills; }

    public long migrations() { return migrations; }

    public long migrationsInFlight() { return migrationsStarted - migrations; }

    public long copyBytes() { return copyBytes; }

    public long hostMaps() { return hostMaps; }

    @Override
    public String name() { return "os"; }

    @Override
    public int inFlight() { return (int) migrationsInFlight(); }

    /** Registers {@code os.*} on the root registry, with {@code os.<pool name>.mapped_pages} per pool. */
    @Override
    public void registerStats(Stats root) {
        Stats s = root.scope(name());
        s.counter("first_touch_faults", "pages mapped on first touch", () -> firstTouchFaults);
        s.counter("spills", "pages placed outside the chosen pool because it was full (at first touch, or mapped by the host: touch_order host)", () -> spills);
        s.counter("migrations", "page migrations completed", () -> migrations);
        s.counter("migrations_refused", "migrations asked for on a machine that refuses them all (a cpu: or uvm: section; refuseMigrations)", () -> migrationsRefused);
        s.gauge("migrations_in_flight", "page copies under way", () -> migrationsInFlight());
        s.counter("migrations_peak_in_flight", "most page copies ever under way at once", () -> migrationsPeak);
        s.counter("migration_ps", "sum over completed migrations of the time from start to remap, ps", () -> migrationPs);
        s.gauge("migration_mean_ps", "mean time from a migration's start to its remap, ps", () -> migrations == 0 ? 0 : (double) migrationPs / migrations);
        s.counter("migration_max_ps", "longest time from a migration's start to its remap, ps", () -> migrationMaxPs);
        s.counter("copy_bytes", "bytes read and written by page copies", () -> copyBytes);
        s.counter("unmaps", "pages unmapped (demand-paging evictions)", () -> unmaps);
        s.counter("host_maps", "pages mapped by the host before use (MemoryManager.map), not by first touch", () -> hostMaps);
        for (int p = 0; p < pools.size(); p++) {
            int pool = p;
            Stats ps = s.scope(pools.get(p).name());
            ps.gauge("mapped_pages", "pages currently mapped in this pool", () -> mapped[pool]);
            ps.gauge("free_frames", "frames still free in this pool", () -> freeFrames(pool));
        }
    }
}
