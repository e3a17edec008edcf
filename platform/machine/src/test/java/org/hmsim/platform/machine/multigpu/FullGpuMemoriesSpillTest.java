package org.hmsim.platform.machine.multigpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.machine.yaml.YamlCore;
import org.hmsim.platform.memory.os.OsMemoryManager;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.junit.jupiter.api.Test;

/**
 * Full GPU memories spill as a full pool does on a one-GPU machine: a page that finds no page group left goes whole to a
 * GPU memory with a free slot, else to another pool (the CPU's DDR). A tester's 2-GPU machine with a 64 KB g0 and 1 GB of
 * DDR failed "out of memory: every page group of the GPU memories is in use" on the 33rd spread page.
 */
class FullGpuMemoriesSpillTest {
    private static final long PAGE = 4096;
    private static final int HBM0 = 0, HBM1 = 1, DDR = 2;

    /** Two GPU memories of {@code frames} frames each, and a DDR on the CPU node with room to spare. */
    private static List<PoolInfo> twoHbmAndDdr(int frames) {
        return List.of(new PoolInfo(HBM0, "hbm0", "HBM2", 0, 8, 256e9, frames * PAGE), new PoolInfo(HBM1, "hbm1", "HBM2", 1, 8, 256e9, frames * PAGE),
                new PoolInfo(DDR, "ddr", "DDR4", 2, 4, 80e9, 64 * PAGE));
    }

    /** The interleave slot: page v spread ({@link InterleavePolicy#SPREAD}) or whole in memory {@code homes[v]}. */
    private static InterleavePolicy homes(int... homes) {
        return new InterleavePolicy() {
            public int channel(long paddr, int pool, int channels) { return 0; }
            public long channelAddress(long paddr, int pool, int channels) { return paddr; }
            @Override public int pageHome(long vpn, Allocation a, int gpu, int memories) { return homes[(int) (vpn - a.baseVa() / PAGE)]; }
        };
    }

    /** An OS whose placement wants hbm0 for every page, with the page-group allocator over the GPU memories. */
    private static OsMemoryManager os(List<PoolInfo> pools, InterleavePolicy il) {
        OsMemoryManager os = new OsMemoryManager(pools, PAGE, new EventQueue(), new RequestPool(), (r, from) -> true);
        os.setPlacement((vpn, a, gpu) -> HBM0);
        os.setFrameMapper(new PageGroupAllocator(GpuMemories.of(pools, 2, PAGE, 128), pools.stream().mapToLong(PoolInfo::capacityBytes).toArray(), () -> il));
        return os;
    }

    private static int[] poolsOfPages(OsMemoryManager os, int pages) {
        Allocation a = os.allocate("x", pages * PAGE, AllocationHint.NONE, false);
        int[] pool = new int[pages];
        for (int v = 0; v < pages; v++) pool[v] = PhysicalAddress.pool(os.translate(a.baseVa() + v * PAGE, 0));
        return pool;
    }

    @Test
    void fineSpreadPagesSpillToTheCpusPoolOnceEveryPageGroupIsTaken() {
        List<PoolInfo> pools = twoHbmAndDdr(2);
        InterleavePolicy fine = homes(-1, -1, -1, -1, -1, -1);
        OsMemoryManager os = os(pools, fine);
        int[] pool = poolsOfPages(os, 6);
        for (int v = 0; v < 4; v++) assertEquals(DDR + 1, pool[v], "page " + v + ": two groups of two spread pages"); // the spread space
        assertEquals(DDR, pool[4], "no group left: the CPU's pool");
        assertEquals(DDR, pool[5]);
        assertEquals(2, os.spills(), "counted as the OS's spills");
        assertEquals(2, os.mappedPages(DDR));
    }

    @Test
    void aSpreadPageTakesAFreeSlotWholeBeforeLeavingTheGpuMemories() {
        List<PoolInfo> pools = twoHbmAndDdr(2);
        // page 0 opens group 0 for hbm1, leaving its hbm0 slot free; pages 1 and 2 spread over group 1; page 3 finds no group
        InterleavePolicy il = homes(1, -1, -1, -1, 0);
        OsMemoryManager os = os(pools, il);
        int[] pool = poolsOfPages(os, 5);
        assertEquals(HBM1, pool[0]);
        assertEquals(DDR + 1, pool[1]);
        assertEquals(DDR + 1, pool[2]);
        assertEquals(HBM0, pool[3], "no group left for a spread page: group 0's free slot, whole");
        assertEquals(DDR, pool[4], "every slot taken: the CPU's pool");
        assertEquals(1, os.spills());
    }

    @Test
    void aWholePageGoesToTheOtherGpuMemoryThenToTheCpusPool() {
        List<PoolInfo> pools = twoHbmAndDdr(2);
        InterleavePolicy toHbm0 = homes(0, 0, 0, 0, 0);
        OsMemoryManager os = os(pools, toHbm0);
        int[] pool = poolsOfPages(os, 5);
        assertEquals(HBM0, pool[0]);
        assertEquals(HBM0, pool[1]);
        assertEquals(HBM1, pool[2], "hbm0 full: the slots its groups left in hbm1");
        assertEquals(HBM1, pool[3]);
        assertEquals(DDR, pool[4]);
        assertEquals(1, os.spills());
    }

    /** The tester's case end to end: 192 pages of stream, 32 fit the page groups of a 64 KB g0 and a 1 GB g1. */
    @Test
    void aTwoGpuMachineWithASmallGpuMemoryRunsWithTheRestInDdr() {
        RunResult r = Simulation.run(new RunSpec("test", twoGpusWithDdr("64KB"), stream(), new ClasspathPolicies().with(Slot.PLACEMENT, "local", Map.of()), 1,
                10_000_000L, 0));
        assertEquals(32, r.stats().get("os.groups.fgp_pages"));
        assertEquals(160, r.metrics().get("pool.ddr.pages"));
        assertEquals(160, r.stats().get("os.spills"));
    }

    private static org.hmsim.api.workload.Workload stream() {
        WorkloadProvider w = BuiltinWorkloads.byName("stream");
        return w.create(Params.validate(w.parameters(), Map.of("elements", 65536)), 1);
    }

    @SuppressWarnings("unchecked")
    private static MachineConfig twoGpusWithDdr(String g0Capacity) {
        String yaml = String.join("\n", "name: two-gpus-ddr", "gpus: 2", "gpu: {clock: 1400MHz, sms: 4, l2: {slices: 4, size: 64KB}}", "pools:",
                "  - {name: g0, kind: GDDR5, node: gpu0, channels: 4, bandwidth: 100GB/s, capacity: " + g0Capacity + "}",
                "  - {name: g1, kind: GDDR5, node: gpu1, channels: 4, bandwidth: 100GB/s, capacity: 1GB}",
                "  - {name: ddr, kind: DDR4, node: cpu, channels: 2, bandwidth: 40GB/s, capacity: 1GB}", "links:",
                "  - {between: [gpu0, cpu], bandwidth: 32GB/s}", "  - {between: [gpu1, cpu], bandwidth: 32GB/s}",
                "  - {between: [gpu0, gpu1], bandwidth: 32GB/s}");
        return MachineConfig.parse((Map<String, Object>) YamlCore.yaml().load(yaml));
    }
}
