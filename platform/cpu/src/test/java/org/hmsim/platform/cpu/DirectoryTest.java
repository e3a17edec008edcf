package org.hmsim.platform.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.workload.HostPhase;
import org.junit.jupiter.api.Test;

/** The block directory: probes, invalidations, inclusive recalls, MSHR back-pressure and bank queueing. */
class DirectoryTest {
    private static HostPhase phase(long base, long bytes, boolean write) {
        return new HostPhase(0, "p", List.of(new HostPhase.Stream(base, bytes, 64, write)), 0);
    }

    private static void runPhase(Rig rig, HostPhase p) {
        boolean[] done = {false};
        rig.cpu.runPhase(p, () -> done[0] = true);
        rig.engine.run();
        assertTrue(done[0], "phase finished");
    }

    @Test
    void gpuReadDowngradesADirtyCpuLineWhichSuppliesTheData() {
        Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, 2, 8)), CoherencePolicy.PATH_DIRECTORY);
        runPhase(rig, phase(0x4000, 64, true));
        assertEquals(Moesi.M, rig.cpu.cluster().state(0x4000));
        long readsBefore = rig.memory.reads;
        Rig.GpuL2 gpu = rig.new GpuL2();
        assertTrue(gpu.read(0x4000));
        rig.engine.run();
        assertEquals(1, gpu.answeredPs.size());
        assertEquals(Moesi.O, rig.cpu.cluster().state(0x4000), "M -> O: the CPU keeps ownership of the dirty data");
        assertEquals(readsBefore, rig.memory.reads, "the CPU supplied the data: memory not read");
        assertEquals(Directory.CPU_BIT | Directory.GPU_BIT, rig.cpu.directory().sharers(0x4000));
        assertEquals(1, rig.cpu.directory().probes());
    }

    /**
     * {@code directory.data_from_cpu} counts the GPU reads the CPU's dirty data answered instead of memory, under ideal
     * coherence too: it forwards the block at no cost, where it read memory before (and was slower than the directory on
     * data the CPU had just written, a CPU-side trial); a read the CPU does not answer (a clean line) reads memory.
     */
    @Test
    void dataFromCpuCountsOnlyReadsTheCpuAnswered() {
        for (int path : new int[] {CoherencePolicy.PATH_DIRECTORY, CoherencePolicy.PATH_IDEAL}) {
            Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, 2, 8)), path);
            runPhase(rig, phase(0x4000, 64, true));
            runPhase(rig, phase(0x8000, 64, false)); // read only: a clean line
            long readsBefore = rig.memory.reads;
            Rig.GpuL2 gpu = rig.new GpuL2();
            long asked = rig.engine.now();
            assertTrue(gpu.read(0x4000));
            rig.engine.run();
            assertEquals(Moesi.O, rig.cpu.cluster().state(0x4000), path + ": the CPU copy is downgraded");
            assertEquals(0, rig.memory.reads - readsBefore, path + ": the CPU's dirty data answers, memory is not read");
            assertEquals(1, rig.cpu.directory().dataFromCpu, path + ": data_from_cpu = reads the CPU answered");
            if (path == CoherencePolicy.PATH_IDEAL) assertEquals(asked, gpu.answeredPs.get(0), "ideal: forwarded at no cost");
            assertTrue(gpu.read(0x8000));
            rig.engine.run();
            assertEquals(1, rig.memory.reads - readsBefore, path + ": a clean line is read from memory");
            assertEquals(1, rig.cpu.directory().dataFromCpu, path);
        }
    }

    @Test
    void gpuWritebackInvalidatesTheCpuAndCpuStoreInvalidatesTheGpu() {
        Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, 2, 8)), CoherencePolicy.PATH_DIRECTORY);
        runPhase(rig, phase(0x8000, 128, false));
        Rig.GpuL2 gpu = rig.new GpuL2();
        gpu.read(0x8040);
        rig.engine.run();
        assertEquals(Moesi.S, rig.cpu.cluster().state(0x8040), "E -> S on the GPU's read");
        gpu.writeback(0x8000);
        rig.engine.run();
        assertEquals(Moesi.I, rig.cpu.cluster().state(0x8000), "a GPU write invalidates the CPU copy");
        assertEquals(0, rig.cpu.directory().sharers(0x8000));
        long probes = rig.cpu.directory().probes();
        runPhase(rig, phase(0x8040, 64, true));
        assertEquals(probes + 1, rig.cpu.directory().probes(), "the CPU store probes the GPU");
        assertEquals(Directory.CPU_BIT, rig.cpu.directory().sharers(0x8040), "GPU bit cleared by the invalidation");
        assertEquals(Moesi.M, rig.cpu.cluster().state(0x8040));
    }

    @Test
    void aGpuStoreInvalidatesTheCpuCopyAtOnceAsTheSeedsWriteThroughWriteWould() {
        // The GPU L2 is write-back: a line it keeps never comes back as a write-back, and the CPU's
        // pre-kernel copy would stay valid (stale) without the store's invalidation.
        for (int path : new int[] {CoherencePolicy.PATH_DIRECTORY, CoherencePolicy.PATH_IDEAL}) {
            Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, 2, 8)), path);
            runPhase(rig, phase(0x4000, 64, true));
            Rig.GpuL2 gpu = rig.new GpuL2();
            gpu.read(0x4000);
            rig.engine.run();
            assertEquals(Moesi.O, rig.cpu.cluster().state(0x4000));
            long lookups = rig.cpu.directory().lookups(), wb = rig.memory.writebacks;
            rig.cpu.directory().gpuStored(0, 0x4010);
            assertEquals(Moesi.I, rig.cpu.cluster().state(0x4000), path + ": the CPU copy is invalidated");
            assertEquals(wb + 1, rig.memory.writebacks, path + ": its dirty (owned) data is written back");
            assertEquals(Directory.GPU_BIT, rig.cpu.directory().sharers(0x4000), path + ": the GPU holds the block");
            assertEquals(lookups, rig.cpu.directory().lookups(), path + ": untimed, no lookup");
            rig.cpu.directory().gpuStored(0, 0x4000);
            assertEquals(1, rig.cpu.directory().storeInvalidations, "a second store finds no CPU copy");
        }
        Rig bypass = new Rig(Rig.small(Rig.dir(1024, 4, 2, 8)), CoherencePolicy.PATH_DIRECTORY);
        runPhase(bypass, phase(0x4000, 64, false));
        bypass.path = CoherencePolicy.PATH_MEMORY; // the page's GPU misses bypass the directory (SAHC: not shared)
        bypass.cpu.directory().gpuStored(0, 0x4000);
        assertEquals(Directory.CPU_BIT, bypass.cpu.directory().sharers(0x4000), "memory path: the directory is not involved");
    }

    @Test
    void inclusiveDirectoryEvictionRecallsTheBlockFromTheCpu() {
        // 8 entries, 1 way: lines 8 x 64 B apart share an entry
        Rig rig = new Rig(Rig.small(Rig.dir(8, 1, 1, 4)), CoherencePolicy.PATH_DIRECTORY);
        runPhase(rig, phase(0, 64, true));
        assertEquals(Moesi.M, rig.cpu.cluster().state(0));
        Rig.GpuL2 gpu = rig.new GpuL2();
        gpu.read(8 * 64);
        rig.engine.run();
        assertEquals(1, rig.cpu.directory().recalls());
        assertEquals(Moesi.I, rig.cpu.cluster().state(0), "the recalled block left the CPU caches");
        assertEquals(1, rig.memory.writebacks, "its dirty data was written back");
    }

    @Test
    void fullMshrsRefuseAndSignalSpaceWhenOneFrees() {
        Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, 2, 2)), CoherencePolicy.PATH_DIRECTORY);
        Rig.GpuL2 gpu = rig.new GpuL2();
        assertTrue(gpu.read(0));
        assertTrue(gpu.read(64));
        assertFalse(gpu.read(128), "both MSHRs busy");
        rig.engine.run();
        assertEquals(1, gpu.spaceSignals);
        assertTrue(gpu.read(128));
        rig.engine.run();
        assertEquals(3, gpu.answeredPs.size());
    }

    @Test
    void bankQueueingDelayGrowsWithLoadAndShrinksWithBanks() {
        long oneBank = queueDelay(1, 32), eightBanks = queueDelay(8, 32), light = queueDelay(1, 2);
        assertTrue(oneBank > 4 * eightBanks, "8 banks serve in parallel: " + oneBank + " vs " + eightBanks);
        assertTrue(oneBank > 10 * light, "more requests, longer queues: " + oneBank + " vs " + light);
    }

    private static long queueDelay(int banks, int requests) {
        Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, banks, 64)), CoherencePolicy.PATH_DIRECTORY);
        Rig.GpuL2 gpu = rig.new GpuL2();
        for (int i = 0; i < requests; i++) assertTrue(gpu.read(i * 64L));
        rig.engine.run();
        assertEquals(requests, gpu.answeredPs.size());
        return rig.cpu.directory().queueDelayPs();
    }

    @Test
    void idealPathAppliesTheProtocolAtNoCostAndMemoryPathSkipsIt() {
        Rig ideal = new Rig(Rig.small(Rig.dir(1024, 4, 1, 8)), CoherencePolicy.PATH_IDEAL);
        Rig timed = new Rig(Rig.small(Rig.dir(1024, 4, 1, 8)), CoherencePolicy.PATH_DIRECTORY);
        long[] t = new long[2];
        int i = 0;
        for (Rig rig : List.of(ideal, timed)) {
            runPhase(rig, phase(0x4000, 64, false));
            Rig.GpuL2 gpu = rig.new GpuL2();
            long start = rig.engine.now();
            gpu.read(0x4000);
            rig.engine.run();
            t[i++] = gpu.answeredPs.get(0) - start;
            assertEquals(Moesi.S, rig.cpu.cluster().state(0x4000), "both downgrade the CPU copy");
        }
        assertEquals(50_000, t[0], "ideal: memory latency only");
        assertTrue(t[1] > t[0], "timed: lookup and probe add latency: " + t[1]);
        assertEquals(0, ideal.cpu.directory().lookups());
        Rig bypass = new Rig(Rig.small(Rig.dir(1024, 4, 1, 8)), CoherencePolicy.PATH_MEMORY);
        runPhase(bypass, phase(0x4000, 4096, true));
        assertEquals(0, bypass.cpu.directory().lookups());
        assertEquals(0, bypass.cpu.directory().sharers(0x4000));
        assertEquals(64, bypass.cpu.directory().bypassed());
    }
}
