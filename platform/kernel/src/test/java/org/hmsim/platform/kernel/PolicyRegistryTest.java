package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.baseline.none.NoCoherence;
import org.hmsim.baseline.none.NoMigration;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.ResolvedPolicies;
import org.junit.jupiter.api.Test;

class PolicyRegistryTest {

    @Test
    void resolvesTheBaselineNoOpPoliciesAndCreatesOneInstancePerCall() {
        PolicyRegistry r = new PolicyRegistry();
        r.add(new NoMigration(), "org.hmsim.baseline 0.1.0");
        r.add(new NoCoherence());
        PolicyChoice c = r.resolveDefault(Slot.MIGRATION);
        assertEquals("none", c.label());
        assertEquals("org.hmsim.baseline 0.1.0", c.entry().bundle());
        ResolvedPolicies source = new ResolvedPolicies(Map.of(Slot.MIGRATION, c, Slot.COHERENCE, r.resolveDefault(Slot.COHERENCE)));
        Policy a = source.create(Slot.MIGRATION, null), b = source.create(Slot.MIGRATION, null);
        assertInstanceOf(MigrationPolicy.class, a);
        assertTrue(a != b, "parallel simulations never share a policy instance");
        assertEquals("none@1.0.0", source.describe(Slot.COHERENCE));
    }

    /**
     * An error about a policy names it as swaps.csv and a failed run's context do, with the parameters the study gave it
     * (a cta-scheduler binding a block to a GPU the machine lacks was "CTA scheduler", naming no policy: a tester).
     */
    @Test
    void aPolicysLabelIsItsIdWithTheParametersGiven() {
        PolicyRegistry r = Fakes.policies();
        ResolvedPolicies source = new ResolvedPolicies(Map.of(Slot.CTA_SCHEDULER, r.resolve(Slot.CTA_SCHEDULER, "bound", Map.of("blocks_per_gpu", 8)),
                Slot.REPLACEMENT, r.resolve(Slot.REPLACEMENT, "random", Map.of())));
        assertEquals("bound@1.0.0(blocks_per_gpu=8)", source.label(Slot.CTA_SCHEDULER));
        assertEquals("random@1.0.0", source.label(Slot.REPLACEMENT), "no parameters given: the id alone");
    }

    @Test
    void errorsNameTheSlotThePolicyOrTheParameter() {
        PolicyRegistry r = Fakes.policies();
        InvalidChoiceException slot = assertThrows(InvalidChoiceException.class, () -> PolicyRegistry.slot("placment"));
        assertTrue(slot.getMessage().contains("slots: placement, migration"), slot.getMessage());
        InvalidChoiceException name = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.PLACEMENT, "bw", Map.of()));
        assertNull(name.parameter());
        InvalidChoiceException range = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 130)));
        assertEquals("fast_percent", range.parameter());
        assertEquals("value 130 is out of range [0, 100]", range.getMessage());
        InvalidChoiceException unknown = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.PLACEMENT, "ratio", Map.of("fast", 1)));
        assertEquals("fast", unknown.parameter());
        assertEquals(30, r.resolve(Slot.PLACEMENT, "ratio", Map.of("fast_percent", "30")).params().getInt("fast_percent"));
        // a policy of another slot: the slot is named as the likely mistake
        InvalidChoiceException wrongSlot = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.MIGRATION, "ratio", Map.of()));
        assertTrue(wrongSlot.getMessage().endsWith("; 'ratio' is a placement policy"), wrongSlot.getMessage());
    }

    @Test
    void newestVersionWinsUnlessOneIsNamedAndRemovedProvidersDisappear() {
        PolicyRegistry r = new PolicyRegistry();
        Fakes.Provider v1 = new Fakes.Provider(Slot.REPLACEMENT, "lru", "1.9.0", List.of(), false);
        Fakes.Provider v2 = new Fakes.Provider(Slot.REPLACEMENT, "lru", "1.10.0", List.of(), false);
        r.add(v1);
        r.add(v2);
        assertEquals("1.10.0", r.resolve(Slot.REPLACEMENT, "lru", Map.of()).entry().version());
        assertEquals("1.9.0", r.resolve(Slot.REPLACEMENT, "lru@1.9.0", Map.of()).entry().version());
        // a named version stays in the label (runs.csv, figures): two versions compared had shared one bar (a placement trial)
        assertEquals("lru@1.9.0", r.resolve(Slot.REPLACEMENT, "lru@1.9.0", Map.of()).label());
        assertEquals("lru", r.resolve(Slot.REPLACEMENT, "lru", Map.of()).label());
        assertEquals("lru", r.resolve(Slot.REPLACEMENT, "lru@1.10.0", Map.of()).label(), "the version the bare name picks: the same simulation, one label");
        // a version not installed is said as such, not as an unknown policy of another slot (a shell trial's lru@9.9.9)
        r.add(new Fakes.Provider(Slot.RESIDENCY, "lru", "1.0.0", List.of(), false));
        InvalidChoiceException version = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.REPLACEMENT, "lru@9.9.9", Map.of()));
        assertEquals("no version 9.9.9 of replacement policy lru is installed (installed: lru@1.10.0, lru@1.9.0)", version.getMessage());
        r.remove(v2);
        assertEquals("1.9.0", r.resolveDefault(Slot.REPLACEMENT).entry().version());
        r.remove(v1);
        assertThrows(InvalidChoiceException.class, () -> r.resolveDefault(Slot.REPLACEMENT));
    }

    @Test
    void aProviderThatCreatesTheWrongTypeFailsTheRun() {
        PolicyRegistry r = new PolicyRegistry();
        r.add(new PolicyProvider() {
            public Slot slot() { return Slot.PLACEMENT; }

            public String name() { return "wrong"; }

            public String description() { return "creates a migration policy for the placement slot"; }

            public List<ParamSpec> parameters() { return List.of(); }

            public Policy create(PolicyContext context, Params params) { return new MigrationPolicy() {}; }
        });
        Map<Slot, PolicyChoice> m = new EnumMap<>(Slot.class);
        m.put(Slot.PLACEMENT, r.resolve(Slot.PLACEMENT, "wrong", Map.of()));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ResolvedPolicies(m).create(Slot.PLACEMENT, null));
        assertTrue(e.getMessage().contains("not a PlacementPolicy"), e.getMessage());
    }

    /** A provider's own check of its parameters (a power of two, a structured string) runs when a choice is validated. */
    @Test
    void aProvidersCheckRunsAtValidationAndNamesTheParameter() {
        PolicyRegistry r = new PolicyRegistry();
        r.add(new PolicyProvider() {
            public Slot slot() { return Slot.INTERLEAVE; }

            public String name() { return "chunks"; }

            public String description() { return "needs a power-of-two chunk"; }

            public List<ParamSpec> parameters() { return List.of(ParamSpec.size("chunk", 256, 32, 1 << 20, "bytes")); }

            @Override public void check(Params params) { params.getPowerOfTwo("chunk", 32); }

            public Policy create(PolicyContext context, Params params) { throw new AssertionError("not at validation"); }
        });
        assertEquals(256L, r.resolve(Slot.INTERLEAVE, "chunks", Map.of("chunk", "256B")).params().getLong("chunk"));
        InvalidChoiceException e = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.INTERLEAVE, "chunks", Map.of("chunk", 100)));
        assertEquals("chunk", e.parameter());
        assertEquals("value 100 must be a power of two >= 32", e.getMessage());
    }

    /** A provider's check that crashes was "hmsim: internal error", exit 1 (a replacement trial's NPE): it is the choice's error, naming the bundle. */
    @Test
    void aProvidersCheckThatCrashesIsTheChoicesError() {
        PolicyRegistry r = new PolicyRegistry();
        r.add(new PolicyProvider() {
            public Slot slot() { return Slot.REPLACEMENT; }

            public String name() { return "crashy"; }

            public String description() { return "its check has a bug"; }

            public List<ParamSpec> parameters() { return List.of(); }

            @Override public void check(Params params) { throw new NullPointerException("no table"); }

            public Policy create(PolicyContext context, Params params) { throw new AssertionError("not at validation"); }
        });
        InvalidChoiceException e = assertThrows(InvalidChoiceException.class, () -> r.resolve(Slot.REPLACEMENT, "crashy", Map.of()));
        assertTrue(e.getMessage().startsWith("the policy's own check(Params) failed (a bug in its bundle ") && e.getMessage().endsWith("java.lang.NullPointerException: no table"),
                e.getMessage());
    }
}
