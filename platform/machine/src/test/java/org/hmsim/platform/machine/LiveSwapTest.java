package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/** The live-swap protocol (DESIGN §6) on small runs: phases, no lost request, determinism. */
class LiveSwapTest {
    private static final long EPOCH = 1_000_000; // 1 us

    private static RunResult run(Machine m, SwappableProviders src, Workload w, Object[] balance) {
        RunSpec spec = new RunSpec("swap", m.cfg, w, src, 1, EPOCH, 0);
        SwapControl control = new SwapControl("swap");
        for (Slot s : Slot.values()) control.setActive(s, src.describe(s), "classpath");
        Swapper swapper = new Swapper(m, src, src.scripted(), control, 1, "swap");
        RunResult r = Simulation.run(m, spec, swapper);
        src.records = control.records();
        if (balance != null) {
            balance[0] = outstanding(m.requests);
            int inFlight = 0;
            for (Gpu g : m.gpus) inFlight += g.inFlight();
            balance[1] = inFlight;
        }
        return r;
    }

    private static RunResult run(String preset, SwappableProviders src, Workload w, Object[] balance) {
        return run(new Machine(TestMachines.machine(preset), src, 1, "swap"), src, w, balance);
    }

    /** Requests taken from the pool and never given back. */
    private static long outstanding(RequestPool pool) {
        long created = pool.allocated();
        long free = 0;
        while (true) { // take until the pool must create one: that many were free
            pool.take();
            if (pool.allocated() > created) break;
            free++;
        }
        return created - free;
    }

    private static double[] column(RunResult r, String name) {
        int c = r.seriesNames().indexOf(name);
        assertTrue(c >= 0, name + " not in " + r.seriesNames());
        double[] v = new double[r.seriesRows().size()];
        for (int i = 0; i < v.length; i++) v[i] = r.seriesRows().get(i)[c + 1];
        return v;
    }

    @Test
    void placementSwapAtTheMidpointGivesTwoPhases() {
        Workload w = TestMachines.workload("stream", 1, "elements", 131072);
        SwappableProviders plain = new SwappableProviders().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 0));
        RunResult before = run("small", plain, w, null);
        long mid = before.simTimePs() / 2;
        SwappableProviders src = new SwappableProviders().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 0))
                .swap(new ScriptedSwap(When.TIME, mid, Slot.PLACEMENT, new Choice("ratio", Map.of("fast_percent", 100))));
        RunResult r = run("small", src, TestMachines.workload("stream", 1, "elements", 131072), null);
        assertEquals(1, src.records.size(), src.records.toString());
        SwapRecord rec = src.records.get(0);
        assertEquals("ok", rec.outcome());
        assertEquals(mid, rec.simTimePs());
        assertEquals(0, rec.drainSimPs(), "placement needs no drain");
        double[] gddr = column(r, "series.gddr.bytes"), ddr = column(r, "series.ddr.bytes");
        double[] t = r.seriesRows().stream().mapToDouble(x -> x[0]).toArray();
        double gddrBefore = 0, ddrAfter = 0, ddrBefore = 0, gddrAfter = 0;
        for (int i = 0; i < t.length; i++) {
            double dg = gddr[i] - (i == 0 ? 0 : gddr[i - 1]), dd = ddr[i] - (i == 0 ? 0 : ddr[i - 1]);
            if (t[i] * 1000 <= mid) { gddrBefore += dg; ddrBefore += dd; } else { gddrAfter += dg; ddrAfter += dd; }
        }
        assertEquals(0, gddrBefore, "ratio 0: the first phase places every page in DDR");
        assertTrue(ddrBefore > 0 && gddrAfter > 0, "the second phase reaches GDDR: " + gddrAfter);
        assertTrue(gddrAfter > ddrAfter, "after the swap most traffic goes to new pages in GDDR: gddr " + gddrAfter + " ddr " + ddrAfter);
        assertTrue(r.simTimePs() < before.simTimePs(), "GDDR for the second half is faster");
    }

    @Test
    void replacementSwapMidRunLosesNoRequest() {
        Workload w = TestMachines.workload("bfs", 3, "nodes", 4096);
        SwappableProviders plain = new SwappableProviders();
        RunResult base = run("small", plain, w, null);
        SwappableProviders src = new SwappableProviders()
                .swap(new ScriptedSwap(When.TIME, base.simTimePs() / 3, Slot.REPLACEMENT, new Choice("random", Map.of())))
                .swap(new ScriptedSwap(When.TIME, base.simTimePs() / 2, Slot.WARP_SCHEDULER, new Choice("lrr", Map.of())))
                .swap(new ScriptedSwap(When.TIME, 2 * base.simTimePs() / 3, Slot.COHERENCE, new Choice("none", Map.of())));
        Object[] balance = new Object[2];
        RunResult r = run("small", src, TestMachines.workload("bfs", 3, "nodes", 4096), balance);
        assertEquals(3, src.records.size(), src.records.toString());
        for (SwapRecord rec : src.records) assertEquals("ok", rec.outcome(), rec.toString());
        // replacement and warp state are rebuilt from the caches' and warps' current state: no drain; a
        // coherence swap drains the memory system and flushes the caches (CoherenceSwapTest)
        assertEquals(0, src.records.get(0).drainSimPs(), src.records.get(0).toString());
        assertEquals(0, src.records.get(1).drainSimPs(), src.records.get(1).toString());
        assertTrue(src.records.get(2).drainSimPs() > 0, "a coherence swap drains: " + src.records.get(2));
        assertEquals("lru@1.0.0", src.records.get(0).from());
        assertEquals("random@1.0.0", src.records.get(0).to());
        assertEquals(0L, balance[0], "every request taken from the pool was given back");
        assertEquals(0, balance[1], "nothing in flight at the end");
        assertTrue(r.stats().get("gpu0.l2.hits") > 0);
    }

    @Test
    void sameSwapsSameNumbers() {
        SwappableProviders a = new SwappableProviders()
                .swap(new ScriptedSwap(When.EVERY_EPOCHS, 2, Slot.REPLACEMENT, List.of(new Choice("lru", Map.of()), new Choice("random", Map.of())), "script"))
                .swap(new ScriptedSwap(When.KERNEL, 1, Slot.PLACEMENT, new Choice("interleave", Map.of())));
        SwappableProviders b = new SwappableProviders()
                .swap(new ScriptedSwap(When.EVERY_EPOCHS, 2, Slot.REPLACEMENT, List.of(new Choice("lru", Map.of()), new Choice("random", Map.of())), "script"))
                .swap(new ScriptedSwap(When.KERNEL, 1, Slot.PLACEMENT, new Choice("interleave", Map.of())));
        RunResult ra = run("small", a, TestMachines.workload("bfs", 3, "nodes", 4096), null);
        RunResult rb = run("small", b, TestMachines.workload("bfs", 3, "nodes", 4096), null);
        assertTrue(a.records.size() > 2, a.records.toString());
        assertEquals(ra.stats(), rb.stats());
        assertEquals(ra.simTimePs(), rb.simTimePs());
        assertEquals(a.records.stream().map(x -> x.simTimePs() + x.to() + x.drainSimPs()).toList(),
                b.records.stream().map(x -> x.simTimePs() + x.to() + x.drainSimPs()).toList());
        assertTrue(a.records.stream().anyMatch(x -> x.slot() == Slot.PLACEMENT && x.to().startsWith("interleave")));
    }

    /**
     * A refused swap leaves no trace in the numbers: the swaps after it draw the same random streams as without it, so
     * --replay-swaps (which replays only the swaps carried out) reproduces the run (a refused swap used to shift them).
     */
    @Test
    void aRefusedSwapDoesNotShiftTheRandomStreamsOfLaterSwaps() {
        // ratio draws each new page's pool from its stream; the stream pages first touched after epoch 2 are placed by it
        Choice ratio = new Choice("ratio", Map.of("fast_percent", 50));
        SwappableProviders withRefusal = new SwappableProviders() { // a target that resolves but whose create() throws
            @Override
            public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
                SwapTarget t = super.resolve(slot, policy, params);
                if (!policy.equals("interleave")) return t;
                return new SwapTarget(t.id(), "broken", t.params(), ctx -> { throw new IllegalStateException("create failed"); });
            }
        };
        withRefusal.swap(new ScriptedSwap(When.EPOCH, 1, Slot.PLACEMENT, new Choice("interleave", Map.of())))
                .swap(new ScriptedSwap(When.EPOCH, 2, Slot.PLACEMENT, ratio));
        SwappableProviders without = new SwappableProviders().swap(new ScriptedSwap(When.EPOCH, 2, Slot.PLACEMENT, ratio));
        // a swap carried out before it does take the next stream (so the check can see a shift)
        SwappableProviders withSwap = new SwappableProviders()
                .swap(new ScriptedSwap(When.EPOCH, 1, Slot.REPLACEMENT, new Choice("lru", Map.of())))
                .swap(new ScriptedSwap(When.EPOCH, 2, Slot.PLACEMENT, ratio));
        Workload w = TestMachines.workload("stream", 1, "elements", 262144);
        RunResult a = run("small", withRefusal, w, null), b = run("small", without, w, null), c = run("small", withSwap, w, null);
        assertTrue(withRefusal.records.get(0).outcome().startsWith("refused"), withRefusal.records.toString());
        assertEquals("ok", without.records.get(0).outcome(), without.records.toString());
        assertEquals(b.simTimePs(), a.simTimePs());
        assertEquals(b.stats(), a.stats());
        assertTrue(!c.stats().get("os.gddr.mapped_pages").equals(b.stats().get("os.gddr.mapped_pages")) || c.simTimePs() != b.simTimePs(),
                "ratio from another stream places other pages: " + c.stats().get("os.gddr.mapped_pages"));
    }

    @Test
    void unknownPolicyIsRefusedAndTheRunGoesOn() {
        SwappableProviders src = new SwappableProviders()
                .swap(new ScriptedSwap(When.EPOCH, 1, Slot.REPLACEMENT, new Choice("no-such-policy", Map.of())));
        RunResult r = run("small", src, TestMachines.workload("stream", 1), null);
        assertTrue(r.simTimePs() > 0);
        assertEquals(1, src.records.size());
        assertTrue(src.records.get(0).outcome().startsWith("refused"), src.records.toString());
    }

    @Test
    void aBundleSwapToTheProviderTheSlotIsAlreadyOnIsSkippedUnrecorded() {
        for (boolean already : new boolean[] {true, false}) {
            SwappableProviders src = new SwappableProviders() {
                @Override
                public boolean alreadyActive(Slot slot, SwapTarget t) { return already; }
            };
            Machine m = new Machine(TestMachines.machine("small"), src, 1, "swap");
            SwapControl control = new SwapControl("swap");
            for (Slot sl : Slot.values()) control.setActive(sl, src.describe(sl), "classpath");
            control.submit(new SwapRequest(Slot.REPLACEMENT, "lru", Map.of(), "bundle")); // taken at the first epoch end
            RunResult r = Simulation.run(m, new RunSpec("swap", m.cfg, TestMachines.workload("stream", 1), src, 1, EPOCH, 0),
                    new Swapper(m, src, List.of(), control, 1, "swap"));
            assertEquals(already ? 0 : 1, control.records().size(), control.records().toString());
            assertEquals(already ? 0.0 : 1.0, r.metrics().get("swaps"));
        }
    }

    @Test
    void aTargetWhoseBundleLeftWhileTheSwapDrainedIsRefusedAndTheHostHearsOfEverySwapDone() {
        // The classes of an uninstalled bundle can no longer load: its factory throws NoClassDefFoundError.
        java.util.List<String> swapped = new java.util.ArrayList<>();
        SwappableProviders src = new SwappableProviders() {
            @Override
            public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
                SwapTarget t = super.resolve(slot, policy, params);
                if (!policy.equals("random")) return t;
                return new SwapTarget(t.id(), "gone", t.params(), ctx -> { throw new NoClassDefFoundError("org/example/Gone$1"); });
            }

            @Override
            public void swapped(SwapControl c, Slot slot, SwapTarget t) { swapped.add(slot.id() + "=" + t.id()); }
        };
        src.swap(new ScriptedSwap(When.EPOCH, 1, Slot.REPLACEMENT, new Choice("random", Map.of())))
                .swap(new ScriptedSwap(When.EPOCH, 2, Slot.REPLACEMENT, new Choice("lru", Map.of())));
        RunResult r = run("small", src, TestMachines.workload("stream", 1), null);
        assertTrue(r.simTimePs() > 0, "the run finished");
        assertEquals(2, src.records.size(), src.records.toString());
        assertTrue(src.records.get(0).outcome().startsWith("refused: java.lang.NoClassDefFoundError"), src.records.toString());
        assertEquals("ok", src.records.get(1).outcome());
        assertEquals(List.of("replacement=lru@1.0.0"), swapped, "only the swap that took effect is reported to the host");
        assertEquals(1.0, r.metrics().get("swaps"), "runs.csv's swaps column counts the swaps carried out, not the refused");
    }
}
