package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A swap of a slot that drains (l2-miss-path, coherence, interleave, migration) stalls the GPUs and, for coherence,
 * flushes the caches. A swap refused after that had changed the run's timing although no policy changed, and
 * --replay-swaps could not reproduce the run. What can be known before the drain (creating the new policy, its type)
 * is now decided before it; what only the drain can tell is recorded as refused after draining.
 */
class SwapRefusalTest {
    private static final Map<Slot, String> DRAINING = Map.of(Slot.COHERENCE, "none", Slot.L2_MISS_PATH, "conventional",
            Slot.INTERLEAVE, "fine", Slot.MIGRATION, "none");

    /** stream writes its output: at any moment the L2 holds dirty lines and the memory system is busy. */
    private static org.hmsim.api.workload.Workload workload() { return TestMachines.workload("stream", 1, "elements", 65536); }

    private static final RunResult PLAIN = TestMachines.run(TestMachines.machine("small"), workload(), new SwappableProviders());

    /** A run with one swap of {@code slot} at the middle of the plain run, whose target's policy {@code create} makes. */
    private static RunResult swapped(Hosts src, Slot slot, Function<Function<PolicyContext, Policy>, Function<PolicyContext, Policy>> create) {
        src.slot = slot;
        src.create = create;
        src.swap(new ScriptedSwap(When.TIME, PLAIN.simTimePs() / 2, slot, new Choice(DRAINING.get(slot), Map.of())));
        RunResult r = TestMachines.run(TestMachines.machine("small"), workload(), src);
        assertEquals(1, src.records.size(), src.records.toString());
        return r;
    }

    @Test
    void aSwapWhosePolicyCannotBeCreatedIsRefusedBeforeItsDrainAndLeavesNoTraceInTheNumbers() {
        for (Slot slot : DRAINING.keySet()) {
            Hosts src = new Hosts();
            // as a provider's create that checks what only the run can tell (a pool or allocation the run lacks)
            RunResult r = swapped(src, slot, real -> ctx -> { throw new IllegalArgumentException("parameter 'pool': no pool 'hbm'"); });
            SwapRecord rec = src.records.get(0);
            assertEquals("refused: java.lang.IllegalArgumentException: parameter 'pool': no pool 'hbm'", rec.outcome(), slot + ": " + rec);
            assertEquals(0, rec.drainSimPs(), slot + " refused before anything drained: " + rec);
            assertEquals(PLAIN.simTimePs(), r.simTimePs(), slot + ": the run's time is the plain run's");
            assertEquals("", firstDifference(PLAIN, r), slot + ": every statistic is the plain run's");
            assertEquals(List.of(slot), src.refusals, "the host hears of the refusal");
        }
    }

    @Test
    void aPolicyOfTheWrongTypeIsRefusedBeforeTheDrain() {
        Hosts src = new Hosts();
        RunResult r = swapped(src, Slot.COHERENCE, real -> ctx -> new Policy() { });
        SwapRecord rec = src.records.get(0);
        assertTrue(rec.outcome().startsWith("refused: java.lang.IllegalStateException: none@1.0.0 created ") && rec.outcome().endsWith("not a CoherencePolicy"), rec.outcome());
        assertEquals("", firstDifference(PLAIN, r));
    }

    /** importState takes the state the old policy had when the drain ended: it can only fail after the drain, and says so. */
    @Test
    void anImportStateThatFailsRefusesTheSwapAfterItsDrainAndTheRecordSaysSo() {
        Hosts src = new Hosts();
        List<String> closed = new ArrayList<>();
        RunResult r = swapped(src, Slot.COHERENCE, real -> ctx -> new CoherencePolicy() {
            @Override
            public void importState(Map<String, Object> state) { throw new IllegalStateException("bad state"); }

            @Override
            public void close() { closed.add("new"); }
        });
        SwapRecord rec = src.records.get(0);
        assertEquals("refused after draining: importState failed: java.lang.IllegalStateException: bad state", rec.outcome());
        assertTrue(rec.drainSimPs() > 0, "the memory system drained first: " + rec);
        assertTrue(!firstDifference(PLAIN, r).isEmpty(), "the drain and flush changed the run");
        assertEquals(List.of("new"), closed, "the policy created for the refused swap is closed");
    }

    /**
     * An l2-miss-path policy's constants are read once, as its swap is staged: a getter that throws refuses the swap
     * before anything drained (it was recorded "ok" and failed the run at the next miss), and a value no L2 can have is
     * refused naming the getter (-5 FRC entries ran as the conventional path under the policy's name). Once installed,
     * its getters are not called per miss (a value following the clock changed the miss path with no drain).
     */
    @Test
    void aMissPathsConstantsAreReadAndCheckedOnceWhenItsSwapIsStaged() {
        Hosts throwing = new Hosts();
        RunResult r = swapped(throwing, Slot.L2_MISS_PATH, real -> ctx -> new org.hmsim.api.policy.L2MissPathPolicy() {
            @Override
            public boolean postsWriteBacks() { throw new IllegalStateException("no constant today"); }
        });
        assertEquals("refused: java.lang.IllegalStateException: no constant today", throwing.records.get(0).outcome());
        assertEquals("", firstDifference(PLAIN, r), "refused before the drain: the plain run");

        Hosts negative = new Hosts();
        r = swapped(negative, Slot.L2_MISS_PATH, real -> ctx -> new org.hmsim.api.policy.L2MissPathPolicy() {
            @Override
            public int fetchBuffersPerBank() { return -5; }
        });
        assertEquals("refused: java.lang.IllegalArgumentException: l2-miss-path fetchBuffersPerBank() returned -5: must be 0..65536"
                + " (FRC entries per L2 bank; 0 = none)", negative.records.get(0).outcome());
        assertEquals("", firstDifference(PLAIN, r));

        int[] calls = {0};
        Hosts counted = new Hosts();
        r = swapped(counted, Slot.L2_MISS_PATH, real -> ctx -> new org.hmsim.api.policy.L2MissPathPolicy() {
            @Override
            public boolean postsWriteBacks() { return ++calls[0] > 0; }
        });
        assertTrue(counted.records.get(0).outcome().startsWith("ok"), counted.records.toString());
        assertEquals(2, calls[0], "read as the swap is staged and after importState, never at a miss");
        assertTrue(r.stats().get("gpu0.l2.slice0.misses") > 0, "the run went on missing in the L2 after the swap");
    }

    /**
     * A policy swapped in that fails the run later: the failure carries when it happened, the policy swapped in (runs.csv
     * names the one the run started with) and the statistics up to then (a trial's run kept nothing of its 48 us).
     */
    @Test
    void aRunThatAPolicySwappedInFailsSaysWhichAndKeepsItsStatistics() {
        Hosts src = new Hosts();
        src.slot = Slot.CACHEABILITY;
        src.create = real -> ctx -> (org.hmsim.api.policy.CacheabilityPolicy) (level, request) -> { throw new IllegalStateException("no cacheability today"); };
        src.swap(new ScriptedSwap(When.TIME, PLAIN.simTimePs() / 2, Slot.CACHEABILITY, new Choice("cache-all", Map.of())));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestMachines.run(TestMachines.machine("small"), workload(), src));
        assertEquals("no cacheability today", e.getMessage());
        RunFailureContext c = RunFailureContext.of(e);
        assertTrue(c != null, "the failure carries its context");
        assertTrue(c.getMessage().startsWith("the run failed at ") && c.getMessage().contains(" simulated, in kernel launch 1 of 1; policies swapped in before it"
                + " (runs.csv names the ones the run started with): cacheability=cache-all@1.0.0 (at "), c.getMessage());
        assertTrue(c.partial() != null && c.partial().simTimePs() >= PLAIN.simTimePs() / 2 && c.partial().simTimePs() < PLAIN.simTimePs(),
                "statistics up to the failure, after the swap: " + (c.partial() == null ? null : c.partial().simTimePs()) + " of " + PLAIN.simTimePs());
        assertTrue(c.partial().stats().get("gpu0.l2.slice0.misses") > 0, "what it simulated is there");
    }

    /** A machine built with a miss path whose constant no L2 can have fails before anything runs, naming the policy. */
    @Test
    void aMissPathWithAnImpossibleConstantFailsTheRunAtItsStartNamingThePolicy() {
        SwappableProviders src = new SwappableProviders() {
            @Override
            public Policy create(Slot slot, PolicyContext context) {
                return slot != Slot.L2_MISS_PATH ? super.create(slot, context) : new org.hmsim.api.policy.L2MissPathPolicy() {
                    @Override
                    public int victimCacheLines() { return -1; }
                };
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestMachines.run(TestMachines.machine("small"), workload(), src));
        assertTrue(e.getMessage().startsWith("policy for slot l2-miss-path (conventional@1.0.0): l2-miss-path victimCacheLines() returned -1"), e.getMessage());
    }

    /** The target was created before the drain; its bundle left while the swap drained: refused then, after draining. */
    @Test
    void aTargetWhoseBundleLeftWhileTheSwapDrainedIsRefusedAfterDraining() {
        List<String> closed = new ArrayList<>();
        Hosts src = new Hosts() {
            @Override
            public void checkInstalled(SwapTarget t) { throw new IllegalStateException(t.id() + " went away with its bundle while the swap drained"); }
        };
        swapped(src, Slot.COHERENCE, real -> ctx -> new CoherencePolicy() {
            @Override
            public void close() { closed.add("new"); }
        });
        SwapRecord rec = src.records.get(0);
        assertEquals("refused after draining: java.lang.IllegalStateException: none@1.0.0 went away with its bundle while the swap drained", rec.outcome());
        assertEquals(List.of(Slot.COHERENCE), src.refusals, "the host hears of it (it looks whether the slot's own bundle left too)");
        assertEquals(List.of("new"), closed);
        assertEquals("none@1.0.0", rec.from());
    }

    /** A host that finds a policy's bundle gone as the run is about to start fails it there, and still hears the run end. */
    @Test
    void aHostThatRefusesTheStartFailsTheRunBeforeAnythingIsSimulated() {
        List<String> calls = new ArrayList<>();
        IllegalStateException gone = new IllegalStateException("replacement policy lru left while the run was set up");
        SwappableProviders src = new SwappableProviders() {
            @Override
            public void started(SwapControl c) { calls.add("started"); }

            @Override
            public void starting(SwapControl c) {
                calls.add("starting");
                throw gone;
            }

            @Override
            public void ended(SwapControl c) { calls.add("ended"); }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TestMachines.run(TestMachines.machine("small"), workload(), src));
        assertSame(gone, e);
        assertEquals(List.of("started", "starting", "ended"), calls, "registered, checked, and let go");
    }

    /** The first statistic in which {@code b} differs from {@code a}, as {@code name: a then b}; empty if none does. */
    private static String firstDifference(RunResult a, RunResult b) {
        java.util.TreeSet<String> names = new java.util.TreeSet<>(a.stats().keySet());
        names.addAll(b.stats().keySet());
        for (String n : names)
            if (!java.util.Objects.equals(a.stats().get(n), b.stats().get(n))) return n + ": " + a.stats().get(n) + " then " + b.stats().get(n);
        return "";
    }

    /** The baseline providers, whose target in {@link #slot} creates its policy through {@link #create}. */
    private static class Hosts extends SwappableProviders {
        Slot slot;
        Function<Function<PolicyContext, Policy>, Function<PolicyContext, Policy>> create;
        final List<Slot> refusals = new ArrayList<>();

        @Override
        public SwapTarget resolve(Slot s, String policy, Map<String, Object> params) {
            SwapTarget t = super.resolve(s, policy, params);
            return s != slot ? t : new SwapTarget(t.id(), t.bundle(), t.params(), create.apply(t.factory()));
        }

        @Override
        public void refused(SwapControl c, Slot s, Throwable why) { refusals.add(s); }

        @Override
        public void ended(SwapControl c) { records = c.records(); }
    }
}
