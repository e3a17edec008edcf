package org.hmsim.sahc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.machine.SwapRecord;
import org.junit.jupiter.api.Test;

/**
 * Issue 7's done-when (and issue 4's coherence case): swapping the coherence slot between {@code directory}
 * and {@code sahc-a} mid-run keeps every counter balanced. Each run swaps twice, there and back, once in a
 * host phase (CPU requests in the directory) or during kernels (GPU misses and write-backs in it). The drain
 * holds the SMs and the CPU cores, waits for the directory's MSHRs and memory port, flushes every GPU and CPU
 * cache, waits for those write-backs, and rebuilds the directory empty.
 */
class SahcSwapTest {

    private static RunResult swapped(String app, String first, double at1, String second, double at2, SwapApu src) {
        MachineConfig m = Apu.machine();
        RunResult base = Apu.run(m, Apu.app(app, "elements", 16384), first);
        // times as fractions of the shorter of the two policies' runs, so that both swaps happen
        long span = Math.min(base.simTimePs(), Apu.run(m, Apu.app(app, "elements", 16384), second).simTimePs());
        List<ScriptedSwap> swaps = List.of(
                new ScriptedSwap(When.TIME, (long) (span * at1), Slot.COHERENCE, new Choice(second, Map.of())),
                new ScriptedSwap(When.TIME, (long) (span * at2), Slot.COHERENCE, new Choice(first, Map.of())));
        RunResult r = Simulation.run(new RunSpec("swap", m, Apu.app(app, "elements", 16384), src, 1, 1_000_000L, 0), swaps);
        assertEquals(base.memoryRequests(), r.memoryRequests(), app + ": the same line requests left the SMs (none lost, none doubled)");
        return r;
    }

    private static void assertBalanced(String app, RunResult r, List<SwapRecord> records) {
        assertEquals(2, records.size(), records.toString());
        for (SwapRecord rec : records) {
            assertEquals("ok", rec.outcome(), rec.toString());
            assertTrue(rec.state().contains("directory rebuilt empty") && rec.state().contains("CPU: "), rec.state());
        }
        double req = Apu.stat(r, "gpu0.xbar.req_packets"), resp = Apu.stat(r, "gpu0.xbar.resp_packets");
        assertEquals(req, resp, app + ": every GPU request answered");
        double admitted = Apu.stat(r, "directory.admitted");
        assertTrue(admitted > 0, app + ": the directory was used");
        assertEquals(admitted, Apu.stat(r, "directory.lookups"), app + ": every request admitted was looked up once");
        assertEquals(admitted, Apu.stat(r, "directory.completed") + Apu.stat(r, "directory.writebacks"),
                app + ": every lookup answered (reads, CPU requests) or sent on (write-backs)");
        assertEquals(0, Apu.stat(r, "directory.in_flight"), app + ": no directory MSHR left");
        assertEquals(Apu.stat(r, "cpu.accesses"), Apu.stat(r, "cpu.completed"), app + ": every CPU access completed");
        assertEquals(0, Apu.stat(r, "cpu.in_flight"), app + ": no CPU miss register left");
        assertEquals(0, Apu.stat(r, "gpu0.in_flight"), app + ": no GPU MSHR or queue entry left");
    }

    @Test
    void swapInAHostPhaseWaitsForTheCpuRequestsInTheDirectory() {
        // matrixmul's CPU initialisation is most of the run: at 30 % the directory holds CPU requests
        SwapApu src = new SwapApu("directory");
        RunResult r = swapped("matrixmul", "directory", 0.3, "sahc-a", 0.7, src);
        assertBalanced("matrixmul", r, src.records);
        SwapRecord first = src.records.get(0);
        assertTrue(first.drainSimPs() > 0, "the drain waited for the directory's requests: " + first);
        assertTrue(first.state().matches(".*CPU: [1-9][0-9]* dirty lines written back.*"), "the CPU's dirty lines were written back: " + first.state());
    }

    @Test
    void swapDuringKernelsThereAndBackKeepsCountersBalanced() {
        SwapApu a = new SwapApu("directory");
        assertBalanced("bfs", swapped("bfs", "directory", 0.4, "sahc-a", 0.7, a), a.records);
        SwapApu b = new SwapApu("sahc-a");
        assertBalanced("kmeans", swapped("kmeans", "sahc-a", 0.4, "directory", 0.7, b), b.records);
    }

    /**
     * A GPU asks the protocol for a page's permission when it walks, so a protocol swapped in while the GPU's TLBs held
     * the old one's translations was never asked by the GPU (a researcher's ownership policy saw no GPU access; sahc-a
     * swapped in recorded no fault and no promotion): the swap drops every GPU TLB entry, and the GPU walks again.
     */
    @Test
    void aProtocolSwappedInIsAskedByTheGpuAgain() {
        MachineConfig m = Apu.machine();
        RunResult base = Apu.run(m, Apu.app("kmeans", "elements", 16384), "directory");
        SwapApu src = new SwapApu("directory");
        RunResult r = Simulation.run(new RunSpec("swap", m, Apu.app("kmeans", "elements", 16384), src, 1, 1_000_000L, 0),
                List.of(new ScriptedSwap(When.TIME, base.simTimePs() / 2, Slot.COHERENCE, new Choice("sahc-a", Map.of()))));
        assertEquals(1, src.records.size(), src.records.toString());
        assertTrue(src.records.get(0).state().matches(".*; [1-9][0-9]* GPU TLB entries dropped;.*"), src.records.get(0).state());
        assertTrue(Apu.stat(r, "gpu0.tlb.walks") > Apu.stat(base, "gpu0.tlb.walks"),
                "the GPU walked its pages again: " + Apu.stat(r, "gpu0.tlb.walks") + " vs " + Apu.stat(base, "gpu0.tlb.walks"));
        assertTrue(Apu.stat(r, "policy.coherence.first_touches") + Apu.stat(r, "policy.coherence.gpu_faults") > 0, "sahc-a was asked by the GPU");
    }
}
