package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The unified-memory copy engine writes the pages it brings in into GPU memory, and reads the pages it evicts out of
 * it, through the memory controllers ({@code uvm.copy_through_memory}): GPU memory's bytes and energy count the copies,
 * and a GPU memory slower than the link holds the copies back.
 */
class UvmCopyThroughMemoryTest {
    private static RunResult run(boolean throughMemory, Object... more) { return run(new ClasspathPolicies(), 0.5, throughMemory, more); }

    private static RunResult run(ClasspathPolicies policies, double oversubscription, boolean throughMemory, Object... more) {
        Object[] base = {"gpu.sms", 8, "uvm.oversubscription", oversubscription, "uvm.prefetcher", "none", "uvm.copy_through_memory", throughMemory};
        Object[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        MachineConfig cfg = TestMachines.machine("etc", all);
        RunSpec spec = new RunSpec("t", cfg, TestMachines.workload("stream", 1, "elements", 1 << 18, "ctas", 64, "iterations", 2),
                policies, 1, 1_000_000, 0);
        return Simulation.run(new Machine(cfg, spec.policies(), spec.seed(), spec.runId()), spec);
    }

    /** Every page stored at half its size, every metadata look-up a miss: each L2 miss to a page is a compressed access. */
    private static final class Halving implements org.hmsim.api.policy.PolicyProvider {
        @Override public org.hmsim.api.policy.Slot slot() { return org.hmsim.api.policy.Slot.COMPRESSION; }
        @Override public String name() { return "halving"; }
        @Override public String description() { return "test: every page compressed 2:1"; }
        @Override public java.util.List<org.hmsim.api.policy.ParamSpec> parameters() { return java.util.List.of(); }
        @Override public org.hmsim.api.policy.Policy create(org.hmsim.api.policy.PolicyContext c, org.hmsim.api.policy.Params p) {
            return new org.hmsim.api.policy.CompressionPolicy() {
                @Override public double capacityFactor(int pool) { return 2.0; }
                @Override public long metadataRead(long vpn, long offset, boolean write) { return offset; }
            };
        }
    }

    /**
     * The copy engine's writes and reads bypass the compressed-access stage, which is an L2 miss's: they counted as
     * compressed accesses, each paying a metadata read, and a write into a reused frame read the flag of the frame's
     * previous page (LUD PE+CC: 274k -> 494k compressed accesses; found by a review). With frames reused under compression
     * the stage sees as many accesses whether the copies go through GPU memory or not.
     */
    @Test
    void theCopiesBypassTheCompressedAccessStage() {
        RunResult through = run(new ClasspathPolicies(new Halving()).with(org.hmsim.api.policy.Slot.COMPRESSION, "halving"), 0.3, true);
        RunResult linkOnly = run(new ClasspathPolicies(new Halving()).with(org.hmsim.api.policy.Slot.COMPRESSION, "halving"), 0.3, false);
        Map<String, Double> t = through.stats();
        assertTrue(t.get("uvm.evictions") > 10, "frames are reused: " + t.get("uvm.evictions"));
        assertTrue(t.get("uvm.h2d.memory_bytes") < t.get("uvm.h2d.bytes"), "pages are stored compressed");
        double a = t.get("uvm.compressed_accesses"), b = linkOnly.stats().get("uvm.compressed_accesses");
        System.out.printf("compressed accesses: through memory %.0f, link only %.0f%n", a, b);
        assertEquals(b, a, 0.05 * b, "the stage sees the L2's accesses only");
    }

    private static double l2Bytes(Map<String, Double> s) {
        double b = 0;
        for (var e : s.entrySet())
            if (e.getKey().startsWith("gpu0.l2.slice") && (e.getKey().endsWith(".fetch_bytes") || e.getKey().endsWith(".writeback_bytes")))
                b += e.getValue();
        return b;
    }

    @Test
    void gpuMemoryCountsThePageCopies() {
        RunResult through = run(true), linkOnly = run(false);
        Map<String, Double> t = through.stats(), l = linkOnly.stats();
        assertTrue(t.get("uvm.evictions") > 10, "the run must evict: " + t.get("uvm.evictions"));
        // every page moves whole (no compression): GPU memory's side of each copy is the link's
        assertEquals(t.get("uvm.h2d.bytes"), t.get("uvm.h2d.memory_bytes"));
        assertEquals(t.get("uvm.d2h.bytes"), t.get("uvm.d2h.memory_bytes"));
        assertEquals(l2Bytes(t) + t.get("uvm.h2d.memory_bytes") + t.get("uvm.d2h.memory_bytes"), t.get("pool.gddr.bytes"), 0.5,
                "GPU memory's bytes = the L2's fetches and write-backs + the copy engine's writes and reads");
        assertEquals(0, l.get("uvm.h2d.memory_bytes"));
        assertEquals(l2Bytes(l), l.get("pool.gddr.bytes"), 0.5, "without copy_through_memory only the L2 reaches GPU memory");
        double copyShare = (t.get("uvm.h2d.bytes") + t.get("uvm.d2h.bytes")) / t.get("pool.gddr.bytes");
        assertTrue(copyShare > 0.3, "on a streaming run that thrashes the copies are much of GPU memory's traffic: " + copyShare);
        double eThrough = through.metrics().get("energy_dram_uj"), eLink = linkOnly.metrics().get("energy_dram_uj");
        assertTrue(eThrough > 1.3 * eLink, "the copies cost DRAM energy: " + eThrough + " vs " + eLink + " uJ");
    }

    /**
     * With GPU memory at 2 GB/s, an eighth of the 16 GB/s link, the copies wait for the controllers: the run lasts at
     * least as long as GPU memory needs for the copies' bytes alone, where the link-only model runs well under that.
     */
    @Test
    void aSlowGpuMemoryHoldsTheCopiesBack() {
        Object[] slow = {"pools.0.bandwidth", "2GB/s"};
        RunResult through = run(true, slow), linkOnly = run(false, slow);
        Map<String, Double> t = through.stats();
        double copyBytes = t.get("uvm.h2d.memory_bytes") + t.get("uvm.d2h.memory_bytes");
        double boundNs = copyBytes / 2.0; // bytes at 2 GB/s = 2 bytes per ns
        System.out.printf("2 GB/s GPU memory: through memory %.1f us, link only %.1f us, copies alone need %.1f us%n",
                through.simTimePs() / 1e6, linkOnly.simTimePs() / 1e6, boundNs / 1e3);
        assertTrue(through.simTimePs() / 1000.0 >= boundNs, "the copies' bytes went through GPU memory at its bandwidth");
        assertTrue(through.simTimePs() > 1.3 * linkOnly.simTimePs(), "the copies contend with the kernel for GPU memory");
    }

    /**
     * A swap that drains the memory system (interleave) holds migrations' copies but not the copy engine's: the drain
     * waits for the page walks a page's arrival wakes, and with the fills held every such swap on a uvm: machine deadlocked
     * (the run's watchdog fired after 10 ms; found by trying one).
     */
    @Test
    void aMemoryDrainingSwapWaitsForTheCopiesInsteadOfHoldingThem() {
        SwappableProviders p = new SwappableProviders();
        p.swap(new ScriptedSwap(ScriptedSwap.When.EVERY_EPOCHS, 20, org.hmsim.api.policy.Slot.INTERLEAVE,
                java.util.List.of(new ScriptedSwap.Choice("fine", Map.of()), new ScriptedSwap.Choice("fine", Map.of("granularity", 256L))), "script"));
        MachineConfig cfg = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.prefetcher", "none");
        RunResult r = TestMachines.run(cfg, TestMachines.workload("stream", 1, "elements", 1 << 18, "ctas", 64, "iterations", 2), p);
        assertTrue(r.metrics().get("swaps") >= 3, "the swaps came: " + r.metrics().get("swaps"));
        assertTrue(r.stats().get("uvm.evictions") > 10 && r.stats().get("uvm.h2d.memory_bytes") > 0, "pages were copied through GPU memory");
        // an interleave swap says the pages mapped so far keep their homes (one after the last first touch changes nothing)
        assertTrue(p.records.get(0).state().matches(".*the [1-9][0-9]* pages mapped so far keep their homes.*"), p.records.get(0).state());
    }
}
