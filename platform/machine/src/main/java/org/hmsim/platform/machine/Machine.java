package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.machine.DramView;
import org.hmsim.api.machine.LinkView;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.CompressionPolicy;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.GpuPolicies;
import org.hmsim.platform.memory.LinkConfig;
import org.hmsim.platform.memory.PoolConfig;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.memory.link.Link;
import org.hmsim.platform.memory.os.OsMemoryManager;
import org.hmsim.platform.stats.StatsRegistry;

/**
 * One assembled machine of one simulation: its engine, pools, links, OS memory manager, GPUs and the
 * policy of every slot. Assembly order: the OS and pool descriptions first (policies may read them
 * when created), then the policies, then the components that consult them.
 */
public final class Machine implements MachineView {
    final MachineConfig cfg;
    final EventQueue engine = new EventQueue();
    final RequestPool requests = new RequestPool();
    final StatsRegistry stats = new StatsRegistry();
    final List<PoolInfo> poolInfos = new ArrayList<>();
    final List<DramPool> pools = new ArrayList<>();
    final List<Link> links = new ArrayList<>();
    /** Where GPU requests enter the CPU's memory controller, one per CPU pool reached over a link (seed 000 Ch. 6 client cache). */
    final List<org.hmsim.platform.memory.link.GpuClientPort> clientPorts = new ArrayList<>();
    final List<Gpu> gpus = new ArrayList<>();
    final List<CoreView> sms = new ArrayList<>();
    final Policy[] policies = new Policy[Slot.values().length];
    /** Each slot's policy as the run labels it ({@link PolicySource#label}; a swap's target once it is installed). */
    final String[] policyLabels = new String[Slot.values().length];

    /** The slot and its policy for an error to name: {@code cta-scheduler policy chunk@1.0.0(fault=bad-gpu)}. */
    String slotLabel(Slot slot) { return slot.id() + " policy " + policyLabels[slot.ordinal()]; }
    final OsMemoryManager os;
    private final ClockDomain gpuClock;
    private MemSink[] fabrics;
    /** The fabrics page copies enter (without the compressed-access stage of a machine with uvm:). */
    private MemSink[] copyFabrics;
    final LiveSlots.WarpScheduler liveWarps;
    final LiveSlots.Replacement liveReplacement;
    final LiveSlots.Cacheability liveCacheability;
    final LiveSlots.L2MissPath liveMissPath;
    final LiveSlots.CtaScheduler liveCta;
    final LiveSlots.Coherence liveCoherence;
    final Translator translator;
    /** Each slot's policy's view of the memory manager, retired when a swap takes the policy out ({@link PolicyMemory}). */
    final PolicyMemory[] policyMemory = new PolicyMemory[Slot.values().length];
    /** The run's statistics epoch, once the run is set up (0 before: policies are created first). */
    long epochPs;

    /** Set when the workload's last kernel (or host phase) has ended ({@link #workloadEnded}). */
    boolean workloadEnded;
    /** The CPU side (cores, caches, CPU–GPU directory; platform/cpu), or null when the machine has no {@code cpu:} section. */
    final org.hmsim.platform.cpu.CpuSide cpu;
    /** The multi-GPU parts (spread space, page groups, traffic counters, grid launcher); null on a one-GPU, one-memory machine. */
    final org.hmsim.platform.machine.multigpu.MultiGpu multiGpu;
    /** Demand paging of unified memory (seed 002), or null when the machine has no {@code uvm:} section. */
    final org.hmsim.platform.machine.uvm.UvmDriver uvm;
    /** Per-page DRAM access counting of a profiling pass ({@link ProfilingPass}); null in every other run. */
    final PageAccessCounter pageCounter;

    public Machine(MachineConfig cfg, PolicySource source, long seed, String runId) {
        this(cfg, source, seed, runId, false);
    }

    /**
     * The workload has ended: no policy starts a page copy or maps a page after the program that owned the pages is
     * gone (the copies in flight complete), and the migration policy is told, so it can drop its queue. Until
     * 2026-11-29 migrators went on moving pages from their queues until the machine fell quiet, and
     * {@code migrations}, the pools' bytes and the energy counted them: threshold(1) on hotspot reported 768 page
     * migrations, of which 516 had started by the run's end ({@code migration.yaml}).
     */
    void workloadEnded() {
        workloadEnded = true;
        for (PolicyMemory memory : policyMemory) memory.endWorkload();
        policy(Slot.MIGRATION, MigrationPolicy.class).onWorkloadEnd();
        throttling().onWorkloadEnd(engine.now());
    }

    /** @param countPageAccesses count DRAM accesses per page (a profiling pass); false costs nothing */
    Machine(MachineConfig cfg, PolicySource source, long seed, String runId, boolean countPageAccesses) {
        this.cfg = cfg;
        stats.setClock(engine::now);
        this.pageCounter = countPageAccesses ? new PageAccessCounter(cfg.pools().size(), cfg.pageBytes()) : null;
        this.gpuClock = ClockDomain.ofMHz("gpu", cfg.gpu().clockMHz());
        poolInfos.addAll(cfg.poolInfos());
        this.os = new OsMemoryManager(poolInfos, cfg.pageBytes(), engine, requests, (r, from) -> copyFabric(r).tryAccept(r, from));
        this.uvm = cfg.uvm() == null ? null : new org.hmsim.platform.machine.uvm.UvmDriver(cfg.uvm(), engine, os, localPool(0),
                poolInfos.get(localPool(0)).capacityBytes(), () -> policy(Slot.RESIDENCY, ResidencyPolicy.class),
                () -> policy(Slot.COMPRESSION, CompressionPolicy.class));
        for (Slot slot : Slot.values()) {
            policyMemory[slot.ordinal()] = new PolicyMemory(os);
            Policy p = source.create(slot, new SimPolicyContext(this, policyMemory[slot.ordinal()], stats, seed, runId, slot));
            if (!slot.policyType().isInstance(p))
                throw new IllegalStateException("policy for slot " + slot.id() + " (" + source.describe(slot) + ") is not a " + slot.policyType().getSimpleName());
            policies[slot.ordinal()] = p;
            policyLabels[slot.ordinal()] = source.label(slot);
        }
        os.setPlacement(policy(Slot.PLACEMENT, PlacementPolicy.class));
        for (int i = 0; i < cfg.pools().size(); i++)
            pools.add(new DramPool(cfg.pools().get(i), i, engine, policy(Slot.INTERLEAVE, InterleavePolicy.class),
                    policy(Slot.DRAM_SCHEDULER, org.hmsim.api.policy.DramSchedulerPolicy.class), requests,
                    cfg.pools().get(i).jitterPs() > 0 ? SeedStreams.stream(seed, "jitter.pool." + i) : null));
        for (LinkConfig l : cfg.links()) links.add(new Link(l, engine, requests));
        multiGpu = org.hmsim.platform.machine.multigpu.MultiGpu.create(poolInfos, cfg.gpus(), cfg.pageBytes(), policy(Slot.INTERLEAVE, InterleavePolicy.class));
        if (multiGpu != null)
            os.setFrameMapper(multiGpu.allocator(poolInfos.stream().mapToLong(PoolInfo::capacityBytes).toArray(), () -> policy(Slot.INTERLEAVE, InterleavePolicy.class)));
        liveCacheability = new LiveSlots.Cacheability(policy(Slot.CACHEABILITY, CacheabilityPolicy.class)); // the CPU-side ports consult it
        fabrics = new MemSink[cfg.gpus()];
        copyFabrics = new MemSink[cfg.gpus()];
        for (int g = 0; g < cfg.gpus(); g++) {
            Fabric f = new Fabric(multiGpu == null ? routes(g) : multiGpu.routes(g, routes(g)));
            fabrics[g] = pageCounter == null ? f : pageCounter.wrap(f);
            // the copy engine writes and reads whole frames: no compressed-access stage (its metadata and codec latency are
            // an L2 miss's; a copy into a frame read the flag of the frame's previous page, found by a review)
            copyFabrics[g] = fabrics[g];
            if (uvm != null) fabrics[g] = uvm.wrapFabric(fabrics[g], requests); // compressed pages: metadata reads and codec latency (seed 002 §4.3)
        }
        // The GPU gets forwarders, so a live swap (Swapper) can replace a slot's policy without the GPU's help.
        liveWarps = new LiveSlots.WarpScheduler(policy(Slot.WARP_SCHEDULER, WarpSchedulerPolicy.class));
        liveReplacement = new LiveSlots.Replacement(policy(Slot.REPLACEMENT, ReplacementPolicy.class));
        try {
            liveMissPath = new LiveSlots.L2MissPath(policy(Slot.L2_MISS_PATH, L2MissPathPolicy.class));
        } catch (IllegalArgumentException e) { // a value no L2 can have: named with the policy, before anything runs
            throw new IllegalStateException("policy for slot l2-miss-path (" + source.describe(Slot.L2_MISS_PATH) + "): " + e.getMessage(), e);
        }
        liveCta = new LiveSlots.CtaScheduler(policy(Slot.CTA_SCHEDULER, CtaSchedulerPolicy.class));
        liveCoherence = new LiveSlots.Coherence(policy(Slot.COHERENCE, CoherencePolicy.class));
        cpu = cfg.cpu() == null ? null : CpuWiring.build(this, fabrics); // GPU L2 misses then enter its directory
        GpuPolicies gp = new GpuPolicies(liveWarps, liveReplacement, liveCacheability, liveMissPath, liveCta, liveCoherence);
        translator = new Translator(os, policy(Slot.MIGRATION, MigrationPolicy.class), policy(Slot.RESIDENCY, ResidencyPolicy.class));
        for (int g = 0; g < cfg.gpus(); g++) {
            Gpu gpu = new Gpu(g, cfg.gpu(), engine, requests, gp, translator, cpu == null ? fabrics[g] : cpu.directory());
            gpus.add(gpu);
            sms.addAll(gpu.sms());
        }
        observeReferences(policy(Slot.RESIDENCY, ResidencyPolicy.class));
        if (cpu != null) CpuWiring.connectGpuStores(this, cpu); // GPU stores invalidate the CPU's copies (seed 001: write-through GPU)
        if (multiGpu != null && multiGpu.launcher(gpus, liveCta, engine) != null)
            multiGpu.launcher().describedAs(() -> slotLabel(Slot.CTA_SCHEDULER));
        os.setShootdownListener(new org.hmsim.platform.memory.os.ShootdownListener() {
            @Override
            public void onPageMoved(long vpn, long mask, long oldFrame) {
                for (Gpu gpu : gpus) {
                    gpu.dropMovedFrame(oldFrame); // a GPU that never translated the page may cache its lines (a remote home's L2)
                    if ((mask & (1L << gpu.index())) == 0) continue;
                    gpu.invalidateTranslation(vpn);
                    gpu.stall(gpuClock.ps(cfg.gpu().tlb().shootdownCycles()));
                }
            }

            @Override
            public void onFrameReused(long frameBase) {
                for (Gpu gpu : gpus) gpu.dropMovedFrame(frameBase);
            }
        });
        if (uvm != null) {
            os.setDemandPaged(true);
            // the driver owns the GPU pages' frames (eviction keeps a frame until its copy has left); a migration of
            // the same page would free it twice (found by a review)
            os.refuseMigrations("the GPU memory is demand-paged (uvm:): its driver moves the pages");
            translator.setUvm(uvm);
            uvm.attach(gpus, gpuClock.ps(cfg.gpu().tlb().shootdownCycles()));
            chargeCopiesToTheHostLink();
        }
        if (uvm != null && cpu != null) uvm.attachHost(localPool(-1), cpu::pageLeavesHost, cpu::gpuFrameEvicted); // CPU-touched pages (MachineConfig: a host pool)
        if (cpu != null) {
            translator.setCpu(cpu); // GPU page walks check coherence permissions (seed 001 §4)
            os.refuseMigrations("the machine has a cpu: section, whose TLBs, caches and directory a migration's shootdown does not reach");
        }
        registerStats();
    }

    /**
     * The residency slot's policy {@code p} hears of every line request's page at its L1 TLB if it asks to
     * ({@link ResidencyPolicy#observesReferences()}); otherwise the SMs tell nobody. At assembly and at each residency swap.
     */
    void observeReferences(ResidencyPolicy p) {
        java.util.function.LongConsumer o = p.observesReferences() ? p::onPageReferenced : null;
        for (Gpu g : gpus) for (org.hmsim.platform.gpu.sm.Sm s : g.sms()) s.setPageReferences(o);
    }

    /**
     * Where the OS's page copies enter: the fabric of the GPU whose copy engine moves the page (the
     * request's {@code gpu}, the destination's node), so a copy between two GPUs' memories crosses their
     * direct link once (seed 004's migrate-on-touch); GPU 0's for anything else (a copy to host memory).
     */
    private MemSink copyFabric(org.hmsim.api.mem.MemRequest r) {
        return copyFabrics[r.gpu > 0 && r.gpu < copyFabrics.length ? r.gpu : 0];
    }

    /** For each pool, the sink a request from GPU {@code g} enters: the pool itself, or a link towards it. */
    private MemSink[] routes(int g) {
        MemSink[] route = new MemSink[pools.size()];
        for (DramPool p : pools) {
            int node = p.config().node();
            if (node == g) {
                route[p.index()] = p.sink();
                continue;
            }
            for (Link l : links) {
                if (MachineConfig.connects(l.config(), g, node)) {
                    route[p.index()] = l.port(l.nodeA() == g ? 0 : 1, node == cfg.cpuNode() ? clientPort(p) : p.sink());
                    break;
                }
            }
            if (route[p.index()] == null)
                throw new ConfigException("links", "no link from gpu" + g + " to the node of pool '" + p.config().name() + "'");
        }
        return route;
    }

    /** The CPU memory controller's entry for GPU requests to pool {@code p} (one per pool, shared by the GPUs' links). */
    private MemSink clientPort(DramPool p) {
        for (org.hmsim.platform.memory.link.GpuClientPort c : clientPorts) if (c.name().equals("cpu_mc." + p.config().name())) return c;
        org.hmsim.platform.memory.link.GpuClientPort c = new org.hmsim.platform.memory.link.GpuClientPort("cpu_mc." + p.config().name(), p.sink(),
                liveCacheability, engine, requests, gpuClock.periodPs(), cfg.gpu().l1().lineBytes());
        clientPorts.add(c);
        return c;
    }

    /** The page copies cross the link between GPU 0 and the CPU's node, if the machine has one: their energy is its. */
    private void chargeCopiesToTheHostLink() {
        int gpuNode = 0, host = cfg.cpuNode();
        for (Link l : links) {
            if (!MachineConfig.connects(l.config(), gpuNode, host)) continue;
            int toGpu = l.nodeA() == host ? 0 : 1;
            l.carriesCopies(toGpu, uvm::h2dBytes);
            l.carriesCopies(1 - toGpu, uvm::d2hBytes);
            return;
        }
    }

    private void registerStats() {
        for (DramPool p : pools) p.registerStats(stats);
        for (Link l : links) l.registerStats(stats);
        for (org.hmsim.platform.memory.link.GpuClientPort c : clientPorts) c.registerStats(stats);
        for (Gpu g : gpus) g.registerStats(stats);
        os.registerStats(stats);
        if (cpu != null) cpu.registerStats(stats);
        if (multiGpu != null) multiGpu.registerStats(stats);
        if (uvm != null) uvm.registerStats(stats);
    }

    <T extends Policy> T policy(Slot slot, Class<T> type) { return type.cast(policies[slot.ordinal()]); }

    MigrationPolicy migration() { return policy(Slot.MIGRATION, MigrationPolicy.class); }

    ThrottlingPolicy throttling() { return policy(Slot.THROTTLING, ThrottlingPolicy.class); }

    CompressionPolicy compression() { return policy(Slot.COMPRESSION, CompressionPolicy.class); }

    public StatsRegistry stats() { return stats; }

    public List<Gpu> gpuList() { return gpus; }

    public List<DramPool> poolList() { return pools; }

    public List<Link> linkList() { return links; }

    public OsMemoryManager os() { return os; }

    public MemoryManager memory() { return os; }

    public EventQueue eventQueue() { return engine; }

    public RequestPool requestPool() { return requests; }

    @Override
    public Engine engine() { return engine; }

    @Override
    public ClockDomain gpuClock() { return gpuClock; }

    @Override
    public int gpuCount() { return cfg.gpus(); }

    @Override
    public List<? extends CoreView> sms() { return sms; }

    @Override
    public List<PoolInfo> pools() { return poolInfos; }

    @Override
    public List<? extends DramView> dram() { return pools; }

    @Override
    public List<? extends LinkView> links() { return links; }

    @Override
    public int localPool(int gpu) {
        int node = gpu < 0 ? cfg.cpuNode() : gpu;
        int best = -1;
        for (PoolInfo p : poolInfos) {
            if (p.node() == node && (best < 0 || p.peakBytesPerSecond() > poolInfos.get(best).peakBytesPerSecond())) best = p.index();
        }
        return best >= 0 ? best : 0;
    }

    @Override
    public int lineBytes() { return cfg.gpu().l1().lineBytes(); }

    @Override
    public long pageBytes() { return cfg.pageBytes(); }

    @Override
    public void stallGpu(int gpu, long ps) { gpus.get(gpu).stall(ps); }

    @Override
    public org.hmsim.api.machine.UnifiedMemory unifiedMemory() { return uvm; }

    /** Blocks of the running kernel not placed on an SM yet, over the grid launcher or every GPU's own grid (the watchdog says so). */
    int blocksNotDispatched() {
        var launcher = multiGpu == null ? null : multiGpu.launcher();
        int n = launcher == null ? 0 : launcher.blocksNotDispatched();
        for (org.hmsim.platform.gpu.Gpu g : gpus) n += g.blocksNotDispatched();
        return n;
    }
}
