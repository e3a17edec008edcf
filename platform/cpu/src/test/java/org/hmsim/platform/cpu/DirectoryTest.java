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

    /** Every line the CPU holds has its CPU bit in the inclusive directory. */
    private static void assertInclusive(Rig rig, long from, long bytes, String what) {
        for (long line = from; line < from + bytes; line += 64) {
            if (rig.cpu.cluster().state(line) == Moesi.I) continue;
            assertTrue((rig.cpu.directory().sharers(line) & Directory.CPU_BIT) != 0,
                    what + ": line 0x" + Long.toHexString(line) + " held in " + rig.cpu.cluster().state(line) + " but untracked");
        }
    }

    /**
     * A recall that meets a CPU line whose fill is still in flight (granted at the directory's lookup, data on its way from
     * memory) reaches the fill: the store completes, its data goes to memory, and the line is left invalid. It used to
     * answer I (the probe looked only in the LLC's tags), the directory dropped the entry, and the fill installed an
     * untracked M line: the CPU's rewrite hit in L1 with no directory action and the GPU then read memory.
     */
    @Test
    void aRecallMeetingAFillInFlightLeavesTheLineInvalidAndARewriteMissesToTheDirectory() {
        for (int path : new int[] {CoherencePolicy.PATH_DIRECTORY, CoherencePolicy.PATH_IDEAL}) {
            Rig rig = new Rig(Rig.small(Rig.dir(1, 1, 1, 8)), path); // one entry: each lookup recalls the block before
            runPhase(rig, phase(0, 8 * 64, true)); // 8 stores in flight: every lookup recalls the previous, still filling
            assertEquals(7, rig.cpu.directory().recalls(), path + ": recalls");
            assertInclusive(rig, 0, 8 * 64, path + ": after the writes");
            assertEquals(Moesi.M, rig.cpu.cluster().state(7 * 64), path + ": the last line stays, tracked");
            for (long line = 0; line < 7 * 64; line += 64)
                assertEquals(Moesi.I, rig.cpu.cluster().state(line), path + ": recalled in flight, left invalid: 0x" + Long.toHexString(line));
            assertEquals(7, rig.memory.writebacks, path + ": the recalled stores' data went to memory");
            long misses = rig.cpu.cluster().llcMisses, l1Hits = rig.cpu.cluster().l1Hits;
            runPhase(rig, phase(0, 8 * 64, true)); // the rewrite
            long hits = rig.cpu.cluster().l1Hits - l1Hits;
            assertTrue(hits <= 1, path + ": only the line still held may hit (timed: before the first lookup recalls it): " + hits);
            assertEquals(8 - hits, rig.cpu.cluster().llcMisses - misses, path + ": each recalled line misses to the directory");
            assertInclusive(rig, 0, 8 * 64, path + ": after the rewrite");
            // the GPU reads the one line the CPU still holds (dirty, tracked): the CPU answers it
            long held = -1;
            for (long line = 0; line < 8 * 64; line += 64) {
                if (rig.cpu.cluster().state(line) == Moesi.I) continue;
                assertEquals(-1, held, path + ": one entry, one line held");
                held = line;
            }
            assertTrue(held >= 0, path + ": the last line the directory granted is held");
            assertEquals(Moesi.M, rig.cpu.cluster().state(held), path);
            Rig.GpuL2 gpu = rig.new GpuL2();
            assertTrue(gpu.read(held));
            rig.engine.run();
            assertEquals(1, rig.cpu.directory().dataFromCpu, path + ": the CPU's dirty line answers the GPU");
        }
    }

    /** A GPU read's downgrade probe that meets a CPU store's fill in flight leaves the line owned (O) and tracked. */
    @Test
    void aDowngradeMeetingAFillInFlightLeavesTheLineSharedAndTracked() {
        Rig rig = new Rig(Rig.small(Rig.dir(1024, 4, 1, 8)), CoherencePolicy.PATH_IDEAL); // ideal: granted at once
        boolean[] done = {false};
        rig.cpu.runPhase(phase(0x4000, 64, true), () -> done[0] = true);
        rig.engine.schedule(1_000, (kind, payload) -> { // 1 ns in: the store's fill is still on its way from memory
            assertEquals(Moesi.I, rig.cpu.cluster().state(0x4000), "fill in flight");
            assertTrue(rig.new GpuL2().read(0x4000));
        }, 0, 0);
        rig.engine.run();
        assertTrue(done[0]);
        assertEquals(1, rig.cpu.directory().dataFromCpu, "the store's data answers the GPU");
        assertEquals(1, rig.memory.reads, "memory is read once, by the CPU's fill: the GPU's read is forwarded");
        assertEquals(Moesi.O, rig.cpu.cluster().state(0x4000), "the fill leaves the line shared, the CPU owning the dirty data");
        assertEquals(Directory.CPU_BIT | Directory.GPU_BIT, rig.cpu.directory().sharers(0x4000));
    }

    /**
     * The tester's rw2 over cpu.directory {262144/16, 8/8, 64/1, 1/1}: the CPU writes 1024 lines, the GPU reads them,
     * the CPU writes them again, the GPU reads them again. A smaller directory only adds recalls and misses: it never
     * makes the program faster, and the CPU never holds an untracked line.
     */
    @Test
    void aSmallerDirectoryNeverMakesTheProgramFaster() {
        int[][] dirs = {{262144, 16}, {8, 8}, {64, 1}, {1, 1}};
        long[] t = new long[dirs.length], misses = new long[dirs.length], reads = new long[dirs.length];
        long bytes = 1024 * 64;
        for (int i = 0; i < dirs.length; i++) {
            Rig rig = new Rig(Rig.small(Rig.dir(dirs[i][0], dirs[i][1], 8, 64)), CoherencePolicy.PATH_DIRECTORY);
            for (int round = 0; round < 2; round++) {
                runPhase(rig, phase(0, bytes, true));
                assertInclusive(rig, 0, bytes, dirs[i][0] + "/" + dirs[i][1] + " after CPU write " + round);
                GpuReader gpu = new GpuReader(rig, 0, bytes);
                gpu.issue();
                rig.engine.run();
                assertEquals(1024, gpu.answered, "every GPU read answered");
                assertInclusive(rig, 0, bytes, dirs[i][0] + "/" + dirs[i][1] + " after GPU read " + round);
            }
            t[i] = rig.engine.now();
            misses[i] = rig.cpu.cluster().llcMisses;
            reads[i] = rig.memory.reads;
        }
        for (int i = 1; i < dirs.length; i++) {
            String d = dirs[i][0] + "/" + dirs[i][1];
            assertTrue(t[i] >= t[0], d + " took " + t[i] + " ps, the full directory " + t[0]);
            assertTrue(misses[i] >= misses[0] && reads[i] >= reads[0], d + ": misses " + misses[i] + ", memory reads " + reads[i]);
        }
        // 8/8, 64/1 and 1/1 all recall every line before its reuse: the same misses and memory reads, their times differ
        // by which blocks the recalls probe (1/1 came out 85 ns of 16.6 us faster than 64/1): compared by work only
        for (int i = 1; i < dirs.length - 1; i++)
            assertTrue(misses[3] >= misses[i] && reads[3] >= reads[i], "1/1 does no less work than " + dirs[i][0] + "/" + dirs[i][1]);
    }

    /** A GPU L2 reading every line of a range as fast as the directory's MSHRs let it. */
    private static final class GpuReader implements org.hmsim.api.mem.MemClient {
        private final Rig rig;
        private long next;
        private final long end;
        int answered;

        GpuReader(Rig rig, long from, long bytes) {
            this.rig = rig;
            this.next = from;
            this.end = from + bytes;
        }

        void issue() {
            while (next < end) {
                org.hmsim.api.mem.MemRequest r = rig.pool.take();
                r.kind = org.hmsim.api.mem.AccessKind.READ;
                r.paddr = next;
                r.size = 64;
                r.gpu = 0;
                r.pool = 0;
                r.replyTo = this;
                if (!rig.cpu.directory().tryAccept(r, this)) {
                    rig.pool.give(r);
                    return;
                }
                next += 64;
            }
        }

        @Override public void onResponse(org.hmsim.api.mem.MemRequest r) {
            answered++;
            rig.pool.give(r);
        }

        @Override public void onSpaceAvailable(org.hmsim.api.mem.MemSink s) { issue(); }
    }
}
