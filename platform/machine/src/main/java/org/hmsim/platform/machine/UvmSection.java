package org.hmsim.platform.machine;

import java.util.List;
import java.util.Locale;
import org.hmsim.platform.memory.LinkConfig;
import org.hmsim.platform.memory.PoolConfig;
import org.hmsim.platform.machine.uvm.UvmConfig;

/** Parses the machine file's optional {@code uvm:} section (docs/machine-files.md, "Unified memory"). */
final class UvmSection {
    private UvmSection() {}

    /** The section's configuration, or null if the machine has none. Copy bandwidths default to the GPU-CPU link's. */
    static UvmConfig parse(Tree t, List<LinkConfig> links, List<PoolConfig> pools, int cpuNode) {
        if (!t.has("uvm")) return null;
        Tree u = t.tree("uvm");
        // the driver pages one GPU's memory (seed 002); with several GPUs every run failed as it built the machine
        if (cpuNode > 1) throw new ConfigException("uvm", "demand paging is modelled for a machine of one GPU, and this one has " + cpuNode);
        // and one pool of it: its frames, capacity and compressed-frame map are one pool's. With several on gpu0 the OS
        // spread pages over them (MultiGpu's page groups) and the driver's first fault failed every run (until 2026-11-30)
        List<String> gpuPools = pools.stream().filter(p -> p.node() == 0).map(PoolConfig::name).toList();
        if (gpuPools.size() > 1)
            throw new ConfigException("uvm", "demand paging is modelled for one GPU memory pool, and gpu0 has " + gpuPools.size()
                    + " (" + String.join(", ", gpuPools) + ")");
        double linkBw = 16e9;
        long linkLat = 500_000;
        boolean linked = false;
        for (LinkConfig l : links) {
            if (MachineConfig.connects(l, 0, cpuNode)) {
                linkBw = l.bytesPerSecondPerDirection();
                linkLat = l.latencyPs();
                linked = true;
            }
        }
        // the copies' defaults come from the GPU-CPU link: without one they were a silent 16 GB/s (found by a review)
        if (!linked)
            for (String k : List.of("h2d_bandwidth", "d2h_bandwidth", "dma_latency"))
                if (!u.has(k)) throw new ConfigException(u.child(k), "is required: the machine has no link between gpu0 and the CPU to take it from");
        double over = u.real("oversubscription", 1.0, 0.01, 100);
        long lat = u.picoseconds("fault_latency", 20_000_000L);
        int buffer = u.integer("fault_buffer", 256, 1, 1 << 20);
        int batch = u.integer("batch_size", 32, 1, 1 << 20);
        int handlers = u.integer("fault_handlers", 1, 1, 1024);
        double h2d = u.bandwidth("h2d_bandwidth", linkBw);
        double d2h = u.bandwidth("d2h_bandwidth", linkBw);
        long dmaLat = u.picoseconds("dma_latency", linkLat);
        String pf = u.string("prefetcher", "tree").toLowerCase(Locale.ROOT);
        if (!pf.equals("tree") && !pf.equals("none")) {
            u.refuse("prefetcher", "unknown prefetcher '" + pf + "' (tree or none)");
            pf = "tree";
        }
        int region = u.integer("prefetch_region_pages", 32, 1, 1 << 16);
        if (Integer.bitCount(region) != 1) {
            u.refuse("prefetch_region_pages", "must be a power of two");
            region = 32;
        }
        boolean evicts = u.bool("prefetch_evicts", false);
        boolean preload = u.bool("preload", false);
        boolean throughMemory = u.bool("copy_through_memory", true);
        u.finish();
        return new UvmConfig(over, lat, buffer, batch, handlers, h2d, d2h, dmaLat, pf, region, evicts, preload, throughMemory);
    }
}
