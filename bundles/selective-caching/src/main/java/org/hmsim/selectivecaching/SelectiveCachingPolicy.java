package org.hmsim.selectivecaching;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.stats.Stats;

/**
 * Selective caching (seed 000 Ch. 6): the GPU never caches a line homed in CPU memory, nor a GPU-homed line
 * the CPU may hold (the remote directory); the optional enhancements of §6.2.2–6.2.3 are options. The policy
 * decides; the hardware is in the platform (L1/L2 MSHRs, the CPU memory controller's client cache, the
 * link's sector-masked transfers, the L1's fault-holding of stores).
 *
 * <ul>
 *   <li><b>Remote directory</b> (§6.2.1): a {@link CuckooFilter} of GPU-homed lines the CPU read (told by
 *   {@link #onCpuAccess}). A new insertion would probe and invalidate the GPU caches (counted; the GPU-only
 *   workloads never insert). Lines it reports are uncacheable on the GPU; a report for a line the CPU never
 *   read is a false positive the CPU NACKs (counted). At the high-water mark or when an insertion finds no
 *   room, the flush daemon empties the CPU's GPU-homed lines and the filter is reset.</li>
 *   <li><b>Coalescing</b> (§6.2.2.1): none (naive: only the lane coalescer), {@code l1} (per SM) or
 *   {@code l1+l2} (also across SMs at the L2 slice): whether uncached reads may merge in the MSHRs.</li>
 *   <li><b>Client cache</b> (§6.2.2.2): its size, ways and access latency.</li>
 *   <li><b>Variable-size transfers</b> (§6.2.2.3): uncached reads fetch their 32 B sub-blocks (a mask) instead
 *   of the whole 128 B line.</li>
 *   <li><b>Promiscuous read-only caching</b> (§6.2.3, §6.3): at each kernel launch every CPU-homed page is
 *   read-only and cacheable; the first GPU store to such a page takes a permission fault of
 *   {@code gpu_fault} (the store and stores to the same page wait; at most 16 pending per SM), after which
 *   the page is read-write and uncacheable for the rest of the kernel. A CPU write to a read-only page costs
 *   the CPU {@code cpu_fault} (counted; it does not delay the GPU).</li>
 * </ul>
 */
final class SelectiveCachingPolicy implements CacheabilityPolicy {
    enum Coalescing { NONE, L1, L1_L2 }

    private final Engine engine;
    private final boolean[] cpuHomed;
    private final int lineBytes;
    private final long pageBytes;
    private final Coalescing coalescing;
    private final long clientBytes;
    private final int clientWays, clientLatency;
    private final boolean variable, readOnly;
    private final long gpuFaultPs, cpuFaultPs;
    private final int maxFaults;
    private final CuckooFilter directory;
    private final long highWater;

    // exact shadow of the directory's inserted lines, for the false-positive count only
    private final Set<Long> inserted = new HashSet<>();
    // CPU-homed pages made read-write in this kernel, and the time their fault completes
    private final Map<Long, Long> readWrite = new HashMap<>();

    private long dirInserts, dirProbes, dirFlushes, dirHits, dirFalsePositives, gpuFaults, gpuFaultWaits, cpuFaults,
            cpuFaultPsTotal, roReads;

    SelectiveCachingPolicy(MachineView machine, Stats stats, Coalescing coalescing, long clientBytes, int clientWays, int clientLatency,
                           boolean variable, boolean readOnly, long gpuFaultPs, long cpuFaultPs, int maxFaults,
                           long directoryLines, int fingerprintBits, double highWater) {
        this.engine = machine.engine();
        this.cpuHomed = new boolean[machine.pools().size()];
        for (PoolInfo p : machine.pools()) cpuHomed[p.index()] = p.node() >= machine.gpuCount(); // nodes 0..g-1 are GPUs, then the CPU
        this.lineBytes = machine.lineBytes();
        this.pageBytes = machine.pageBytes();
        this.coalescing = coalescing;
        this.clientBytes = clientBytes;
        this.clientWays = clientWays;
        this.clientLatency = clientLatency;
        this.variable = variable;
        this.readOnly = readOnly;
        this.gpuFaultPs = gpuFaultPs;
        this.cpuFaultPs = cpuFaultPs;
        this.maxFaults = maxFaults;
        this.directory = new CuckooFilter(directoryLines, fingerprintBits);
        this.highWater = Math.max(1, (long) Math.floor(highWater * directory.capacity()));
        registerStats(stats);
    }

    private boolean cpuHomed(MemRequest r) {
        int p = r.pool;
        return p >= 0 && p < cpuHomed.length && cpuHomed[p];
    }

    private long page(long paddr) { return paddr / pageBytes; }

    @Override
    public boolean mayAllocate(int level, MemRequest r) {
        if (cpuHomed(r)) {
            // §6.2.3: a CPU-homed page is cacheable only while read-only (speculatively, from the kernel's launch)
            if (!readOnly || r.kind != AccessKind.READ || readWrite.containsKey(page(r.paddr))) return false;
            if (level == 1) roReads++;
            return true;
        }
        if (directory.size() == 0) return true;
        long line = r.paddr / lineBytes;
        if (!directory.contains(line)) return true;
        if (level == 2) { // counted once per request, at the L2 (the point where it would be routed to the CPU)
            dirHits++;
            if (!inserted.contains(line)) dirFalsePositives++; // the CPU answers with a NACK
        }
        return false;
    }

    @Override
    public boolean mayCoalesce(int level, MemRequest r) {
        return switch (coalescing) {
            case NONE -> false;
            case L1 -> level == 1;
            case L1_L2 -> true;
        };
    }

    @Override
    public boolean subBlockTransfers(MemRequest r) { return variable; }

    @Override
    public long clientCacheBytes() { return clientBytes; }

    @Override
    public int clientCacheWays() { return clientWays; }

    @Override
    public int clientCacheLatencyCycles() { return clientLatency; }

    @Override
    public int maxPendingFaultsPerSm() { return maxFaults; }

    @Override
    public long storeFaultPs(MemRequest store) {
        if (!readOnly || !cpuHomed(store)) return 0;
        long now = engine.now(), pg = page(store.paddr);
        Long done = readWrite.get(pg);
        if (done == null) { // §6.2.3: the first write to a read-only page faults; the page is read-write from now on
            gpuFaults++;
            // at least 1 ps: a free fault (RO-ZeroCost) still takes the fault path, whose shootdown discards the
            // page's cached GPU copies (0 would mean "no fault" to the hardware)
            long cost = Math.max(1, gpuFaultPs);
            readWrite.put(pg, now + cost);
            return cost;
        }
        if (done > now) { // the page's fault is being handled: this store waits for it too
            gpuFaultWaits++;
            return done - now;
        }
        return 0;
    }

    @Override
    public void onCpuAccess(MemRequest r) {
        if (cpuHomed(r)) {
            if (readOnly && r.kind.carriesData() && !readWrite.containsKey(page(r.paddr))) {
                cpuFaults++; // §6.2.3: the CPU's handler makes the page read-write and GPU-uncacheable, then shoots down
                cpuFaultPsTotal += cpuFaultPs;
                readWrite.put(page(r.paddr), engine.now());
            }
            return;
        }
        if (r.kind != AccessKind.READ && r.kind != AccessKind.ATOMIC) return;
        long line = r.paddr / lineBytes;
        if (directory.contains(line) && inserted.contains(line)) return;
        dirInserts++;
        dirProbes++; // a new line: the GPU caches are probed and the line discarded (§6.2.1)
        inserted.add(line);
        if (!directory.insert(line) || directory.size() >= highWater) flush();
    }

    /** The cacheflush daemon: the CPU writes back and drops every GPU-homed line it holds; the directory restarts empty. */
    private void flush() {
        dirFlushes++;
        directory.clear();
        inserted.clear();
    }

    @Override
    public void onKernelLaunch(int kernel) {
        if (readOnly) readWrite.clear(); // §6.3: every CPU page is marked read-only again at a launch
    }

    private void registerStats(Stats s) {
        s.counter("remote_dir_inserts", "GPU-homed lines the CPU read, entered in the remote directory (seed 000 §6.2.1)", () -> dirInserts);
        s.counter("remote_dir_probes", "new insertions, each probing and invalidating the line in the GPU caches", () -> dirProbes);
        s.counter("remote_dir_flushes", "flush-on-full: the CPU flushed its GPU-homed lines and the directory was reset", () -> dirFlushes);
        s.counter("remote_dir_hits", "GPU L2 requests to GPU-homed lines the directory reports (uncacheable, sent to the CPU)", () -> dirHits);
        s.counter("remote_dir_false_positives", "of those, lines the CPU never read: answered with a NACK", () -> dirFalsePositives);
        s.gauge("remote_dir_occupancy", "entries / capacity of the remote directory", () -> (double) directory.size() / directory.capacity());
        s.counter("gpu_faults", "GPU permission faults: first store to a read-only CPU page in a kernel (seed 000 §6.2.3)", () -> gpuFaults);
        s.counter("gpu_fault_waits", "further stores that waited for a page's fault in progress", () -> gpuFaultWaits);
        s.counter("cpu_faults", "CPU writes to read-only pages (permission faults on the CPU)", () -> cpuFaults);
        s.counter("cpu_fault_ps", "CPU time spent in those faults, ps", () -> cpuFaultPsTotal);
        s.counter("ro_cached_reads", "L1 read misses of CPU-homed lines allowed to allocate because their page is read-only (§6.2.3)", () -> roReads);
    }
}
