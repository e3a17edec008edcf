package org.hmsim.platform.machine.multigpu;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Supplier;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.memory.link.Link;

/**
 * The multi-GPU parts of a machine (seed 004), assembled by {@code Machine}: the spread space over
 * the GPU memories with its page-group allocator, per-GPU routes that count local and remote traffic,
 * and (with more than one GPU) the launcher that runs each grid on every GPU. Single-GPU machines with
 * one GPU memory get none of it ({@link #create} returns null) and run exactly as before.
 */
public final class MultiGpu {
    private final GpuMemories memories; // null: fewer than two GPU memories (no spread space)
    private final int gpus;
    private final int[] poolNode;
    private final String[] poolName;
    private final TrafficCounter[][] counters; // [gpu][pool]
    private PageGroupAllocator allocator;
    private GridLauncher launcher;

    private MultiGpu(GpuMemories memories, int gpus, List<PoolInfo> pools) {
        this.memories = memories;
        this.gpus = gpus;
        this.poolNode = new int[pools.size()];
        this.poolName = new String[pools.size()];
        for (PoolInfo p : pools) {
            poolNode[p.index()] = p.node();
            poolName[p.index()] = p.name();
        }
        this.counters = new TrafficCounter[gpus][pools.size()];
    }

    /**
     * The multi-GPU parts, or null for a machine with one GPU and at most one GPU memory.
     * @param interleave the interleave policy at assembly: its spread granularity is fixed for the run
     */
    public static MultiGpu create(List<PoolInfo> pools, int gpus, long pageBytes, InterleavePolicy interleave) {
        GpuMemories mem = GpuMemories.of(pools, gpus, pageBytes, interleave.spreadGranularity());
        if (gpus < 2 && mem == null) return null;
        return new MultiGpu(mem, gpus, pools);
    }

    /**
     * GPU {@code gpu}'s route table: {@code base} (per real pool: the pool, or the link towards it) with
     * a traffic counter in front of each entry, plus the spread space's router when there is one.
     */
    public MemSink[] routes(int gpu, MemSink[] base) {
        MemSink[] r = new MemSink[base.length];
        for (int p = 0; p < base.length; p++) r[p] = counters[gpu][p] = new TrafficCounter(base[p], poolNode[p] != gpu);
        return withSpreadSpace(r);
    }

    /**
     * {@code route} (one entry per real pool, as one node reaches it) with the spread space's router after it when there
     * is one: a fine-grained page's block goes to its home memory by that node's way there. The CPU's route table
     * needs it as the GPUs' do (a host phase touching a fine page of a 2-GPU machine indexed past the real pools).
     */
    public MemSink[] withSpreadSpace(MemSink[] route) {
        if (memories == null) return route;
        MemSink[] r = java.util.Arrays.copyOf(route, memories.spreadPool() + 1);
        r[memories.spreadPool()] = new SpreadRouter(memories, r);
        return r;
    }

    /** The page-group allocator for the OS, or null without a spread space. */
    public PageGroupAllocator allocator(long[] poolCapacityBytes, Supplier<InterleavePolicy> interleave) {
        if (memories == null) return null;
        if (allocator == null) allocator = new PageGroupAllocator(memories, poolCapacityBytes, interleave);
        return allocator;
    }

    /** The grid launcher, once the GPUs exist; null with a single GPU. */
    public GridLauncher launcher(List<Gpu> gpuList, org.hmsim.api.policy.CtaSchedulerPolicy cta, org.hmsim.api.engine.Engine engine) {
        if (gpus < 2) return null;
        if (launcher == null) launcher = new GridLauncher(engine, gpuList, cta);
        return launcher;
    }

    public GpuMemories memories() { return memories; }

    public GridLauncher launcher() { return launcher; }

    public long requests(int gpu, boolean remote) {
        long n = 0;
        for (TrafficCounter c : counters[gpu]) if (c != null && c.remote == remote) n += c.requests();
        return n;
    }

    public long bytes(int gpu, boolean remote) {
        long n = 0;
        for (TrafficCounter c : counters[gpu]) if (c != null && c.remote == remote) n += c.bytes();
        return n;
    }

    /** Registers {@code gpu<i>.fabric.{local,remote}_{requests,bytes}}, {@code os.groups.*} and {@code grid.*}. */
    public void registerStats(Stats root) {
        for (int g = 0; g < gpus; g++) {
            int gg = g;
            Stats s = root.scope("gpu" + g).scope("fabric");
            s.counter("local_requests", "L2 misses, write-backs and copies this GPU sent to its own memory", () -> requests(gg, false));
            s.counter("remote_requests", "L2 misses, write-backs and copies this GPU sent to another node's memory (over a link)", () -> requests(gg, true));
            s.counter("local_bytes", "payload bytes of local_requests", () -> bytes(gg, false));
            s.counter("remote_bytes", "payload bytes of remote_requests", () -> bytes(gg, true));
        }
        if (allocator != null) allocator.registerStats(root);
        if (launcher != null) launcher.registerStats(root);
    }

    /**
     * Headline metrics (runs.csv): local/remote requests and bytes, the remote share, link utilisation
     * (mean and busiest direction over the run) and per-GPU balance of blocks and idle tail time.
     */
    public void addMetrics(LinkedHashMap<String, Double> out, long endPs, List<Link> links, org.hmsim.api.os.MemoryManager os) {
        long lr = 0, rr = 0, lb = 0, rb = 0;
        for (int g = 0; g < gpus; g++) {
            lr += requests(g, false);
            rr += requests(g, true);
            lb += bytes(g, false);
            rb += bytes(g, true);
        }
        out.put("local_requests", (double) lr);
        out.put("remote_requests", (double) rr);
        out.put("remote_fraction", lr + rr == 0 ? 0 : rr / (double) (lr + rr));
        out.put("local_bytes", (double) lb);
        out.put("remote_bytes", (double) rb);
        double sum = 0, max = 0;
        int dirs = 0;
        for (Link l : links) {
            for (int d = 0; d < 2; d++) {
                double sec = Math.max(endPs, l.lastBusyEndPs(d)) / 1e12; // and any copies still moving after the end
                double u = sec > 0 ? l.wireBytes(d) / (l.bytesPerSecondPerDirection() * sec) : 0;
                sum += u;
                max = Math.max(max, u);
                dirs++;
            }
        }
        if (allocator != null) {
            // pages held whole in the memory (the OS's count, which follows migrations; a review found the group
            // allocator's count reading 528 per memory after 1,584 migrations), plus a 1/N share of the spread ones
            for (int k = 0; k < memories.count(); k++)
                out.put("pool." + poolName[memories.pool(k)] + ".pages", os.mappedPages(memories.pool(k)) + allocator.fgpPages() / (double) memories.count());
        }
        out.put("link_utilisation_mean", dirs == 0 ? 0 : sum / dirs);
        out.put("link_utilisation_max", max);
        if (launcher != null) {
            double total = 0, most = 0, idle = 0;
            for (int g = 0; g < gpus; g++) {
                total += launcher.ctasOn(g);
                most = Math.max(most, launcher.ctasOn(g));
                idle += launcher.idleTailPs(g);
            }
            out.put("cta_imbalance", total == 0 ? 0 : most / (total / gpus));
            out.put("gpu_idle_tail_fraction", endPs == 0 ? 0 : idle / gpus / endPs);
        }
    }
}
