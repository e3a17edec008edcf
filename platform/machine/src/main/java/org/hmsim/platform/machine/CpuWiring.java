package org.hmsim.platform.machine;

import org.hmsim.api.mem.MemSink;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.platform.cpu.CpuSide;
import org.hmsim.platform.cpu.Directory;
import org.hmsim.platform.cpu.GpuControl;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.memory.link.Link;

/**
 * Builds a machine's CPU side (platform/cpu) from its {@code cpu:} section: the CPU's route to every
 * pool (its own node's pools directly, another node's through the link that joins them, or — an APU
 * with no link between CPU and GPU, seed 001 — directly, the memory controller being on chip) and to
 * the multi-GPU spread space (each block to its home memory's route), and the
 * GPU controls the CPU side needs (fault stalls, TLB shootdowns). The GPUs' L2 misses then enter the
 * CPU–GPU directory instead of their fabric; the directory forwards them to that fabric.
 */
final class CpuWiring {
    private CpuWiring() {}

    static CpuSide build(Machine m, MemSink[] gpuFabrics) {
        MemSink[] route = new MemSink[m.pools.size()];
        int cpuNode = m.cfg.cpuNode();
        for (DramPool p : m.pools) {
            int node = p.config().node();
            route[p.index()] = p.sink();
            if (node == cpuNode) continue;
            for (Link l : m.links) {
                if (MachineConfig.connects(l.config(), cpuNode, node)) {
                    route[p.index()] = l.port(l.nodeA() == cpuNode ? 0 : 1, p.sink());
                    break;
                }
            }
        }
        GpuControl gpus = new GpuControl() {
            @Override
            public void stall(int gpu, long ps) { m.gpus.get(gpu).stall(ps); }

            @Override
            public void shootdown(long vpn) {
                for (Gpu g : m.gpus) g.invalidateTranslation(vpn);
            }
        };
        // with unified memory the driver says where a CPU access goes: pages the CPU touches first live in host memory
        CpuSide.AddressSpace space = m.uvm != null ? m.uvm::hostTranslate : va -> m.os.translate(va, -1);
        CpuSide side = new CpuSide(m.cfg.cpu(), m.engine, m.requests, m.liveCoherence, space, gpus,
                gpuFabrics, toMemory(m, new Fabric(spreadSpace(m, route))), m.cfg.gpu().l1().lineBytes(), m.cfg.pageBytes());
        // The directory's invalidation probes and recalls drop the block from the GPU L2 slice that holds it
        // (and, through its sharer bits, the L1s); a dirty copy comes back with the probe (seed 001 §2 M0).
        // m.gpus is read at probe time: the GPUs are built after the CPU side.
        side.directory().setGpuProbeTarget(line -> {
            int held = Directory.GpuProbeTarget.ABSENT;
            for (Gpu g : m.gpus) {
                long[] d = g.l2Slices().get(g.crossbar().sliceOf(line)).dropRange(line, 1);
                if (d[1] > 0) held = Directory.GpuProbeTarget.DIRTY;
                else if (d[0] > 0 && held == Directory.GpuProbeTarget.ABSENT) held = Directory.GpuProbeTarget.CLEAN;
            }
            return held;
        });
        return side;
    }

    /**
     * The CPU's {@code route} per real pool, plus, on a machine with several GPU memories, the spread space of their
     * fine-grained pages: each block of such a page goes to the memory that holds it, over the CPU's link to that GPU.
     */
    private static MemSink[] spreadSpace(Machine m, MemSink[] route) {
        return m.multiGpu == null ? route : m.multiGpu.withSpreadSpace(route);
    }

    /**
     * Once the GPUs are built: every GPU store or atomic served by an L2 bank is told to the directory,
     * which invalidates the CPU's copies as the seed's write-through GPU writes do ({@link Directory#gpuStored}).
     */
    static void connectGpuStores(Machine m, CpuSide side) {
        for (Gpu g : m.gpus) {
            int gpu = g.index();
            for (var s : g.l2Slices()) s.setStoreListener(paddr -> side.directory().gpuStored(gpu, paddr));
        }
    }

    /** The CPU's requests to memory, told to the cacheability slot first (seed 000 §6.2.1 remote directory, §6.2.3 CPU write faults). */
    private static MemSink toMemory(Machine m, MemSink fabric) {
        return (r, from) -> {
            m.liveCacheability.onCpuAccess(r);
            return fabric.tryAccept(r, from);
        };
    }

    /**
     * The phases of {@code phases} that run before kernel {@code k} (post-processing: {@code k == kernels}), or, with
     * {@code alongside}, while it runs.
     */
    static java.util.List<HostPhase> before(java.util.List<HostPhase> phases, int k, int kernels, boolean alongside) {
        java.util.List<HostPhase> out = new java.util.ArrayList<>();
        for (HostPhase p : phases) {
            int at = Math.min(p.beforeKernel(), kernels);
            if (at == k && p.alongside() == alongside) out.add(p);
        }
        return out;
    }
}
