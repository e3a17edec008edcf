package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.junit.jupiter.api.Test;

/**
 * A residency policy can see every access to a page (api.policy 1.13.0 {@code observesReferences} /
 * {@code onPageReferenced}). Found by a third-party plugin author writing CLOCK: {@code onPageAccessed} comes only on L2
 * TLB misses, and on the {@code etc} preset (L2 TLB reach 32 MB, footprints 4-12 MB) a resident page is never walked
 * again, so no reference bit was ever set and the built-in {@code lru} evicted exactly as {@code fifo} (etc-atax at 50 %:
 * same time to the picosecond). A policy that does not ask costs the accesses nothing and hears nothing.
 */
class ResidencyReferencesTest {
    /** Counts what it hears; evicts in the driver's age order (chooses no victim). */
    static final class Counting implements ResidencyPolicy {
        final boolean observes;
        final UnifiedMemory uvm;
        long accessed, referenced, referencedResident;
        boolean closed;
        long referencedAfterClose;

        Counting(boolean observes, UnifiedMemory uvm) { this.observes = observes; this.uvm = uvm; }

        @Override public boolean observesReferences() { return observes; }
        @Override public void onPageAccessed(long vpn) { accessed++; }
        @Override public void onPageReferenced(long vpn) {
            if (closed) referencedAfterClose++;
            referenced++;
            if (uvm.isResident(vpn)) referencedResident++;
        }
        @Override public void close() { closed = true; }
    }

    static final class Provider implements PolicyProvider {
        final String name;
        final boolean observes;
        final List<Counting> made = new CopyOnWriteArrayList<>();

        Provider(String name, boolean observes) { this.name = name; this.observes = observes; }

        @Override public Slot slot() { return Slot.RESIDENCY; }
        @Override public String name() { return name; }
        @Override public String description() { return "test"; }
        @Override public List<ParamSpec> parameters() { return List.of(); }
        @Override public Policy create(PolicyContext c, Params p) {
            Counting x = new Counting(observes, c.machine().unifiedMemory());
            made.add(x);
            return x;
        }
    }

    private static RunResult run(Provider own, String residency, List<ScriptedSwap> swaps) {
        MachineConfig m = Presets.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5);
        ClasspathPolicies policies = new ClasspathPolicies(own).with(Slot.RESIDENCY, residency, Map.of());
        RunSpec spec = new RunSpec("t", m, BuiltinWorkloads.create("etc-atax", 1), policies, 1, 20_000_000, 0);
        return Simulation.run(spec, swaps);
    }

    @Test
    void aPolicyThatAsksHearsEveryAccessAndOneThatDoesNotHearsNone() {
        Provider observing = new Provider("refs-on", true), quiet = new Provider("refs-off", false);
        RunResult on = run(observing, "refs-on", List.of());
        RunResult off = run(quiet, "refs-off", List.of());
        Counting a = observing.made.get(0), b = quiet.made.get(0);
        double faults = on.stats().get("uvm.faults");
        System.out.printf("observing: %d references (%d to resident pages), %d L2 TLB misses, %.0f faults%n",
                a.referenced, a.referencedResident, a.accessed, faults);
        assertEquals(0, b.referenced, "a policy that does not observe references is not called");
        assertTrue(a.referencedResident > 100 * a.accessed, "references to resident pages far outnumber L2 TLB misses: " + a.referencedResident + " vs " + a.accessed);
        assertEquals(on.simTimePs(), off.simTimePs(), "observing changes nothing simulated");
        assertEquals(on.stats().get("uvm.evictions"), off.stats().get("uvm.evictions"));
    }

    @Test
    void aResidencySwapMovesTheObserver() {
        Provider observing = new Provider("refs-on", true);
        ScriptedSwap in = new ScriptedSwap(ScriptedSwap.When.EPOCH, 10, Slot.RESIDENCY, new ScriptedSwap.Choice("refs-on", Map.of()));
        ScriptedSwap out = new ScriptedSwap(ScriptedSwap.When.EPOCH, 40, Slot.RESIDENCY, new ScriptedSwap.Choice("fifo", Map.of()));
        run(observing, "fifo", List.of(in, out));
        assertEquals(1, observing.made.size());
        Counting a = observing.made.get(0);
        assertTrue(a.closed, "swapped out");
        assertTrue(a.referenced > 0, "swapped in: it hears the accesses");
        assertEquals(0, a.referencedAfterClose, "swapped out: it hears no more");
    }
}
