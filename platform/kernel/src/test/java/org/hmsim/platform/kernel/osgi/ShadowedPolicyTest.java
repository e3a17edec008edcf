package org.hmsim.platform.kernel.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.Fakes;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.junit.jupiter.api.Test;

/**
 * A plugin's {@code lru} 2.0.0 beside the built-in {@code lru} 1.0.0 became what every study naming {@code lru} ran, the
 * shipped examples' included, and nothing said so (found by a bundle-author walkthrough). The container now warns.
 */
class ShadowedPolicyTest {
    @Test
    void aNewerVersionFromAnotherBundleIsWarnedOfInEitherOrder() {
        PolicyRegistry r = new PolicyRegistry();
        r.add(new Fakes.Provider(Slot.RESIDENCY, "lru", "2.0.0", List.of(), false), "edu.example.lru 1.0.0.2026");
        assertNull(PolicyRegistryComponent.shadowNotice(r, Slot.RESIDENCY, "lru"), "alone: nothing to say");
        r.add(new Fakes.Provider(Slot.RESIDENCY, "lru", "1.0.0", List.of(), false), "org.hmsim.baseline 0.1.0");
        String expected = "hmsim: warning: residency policy 'lru' 2.0.0 of edu.example.lru 1.0.0.2026 is the newest version: a study"
                + " naming 'lru' without a version runs it, not lru@1.0.0 of org.hmsim.baseline 0.1.0 (name that one 'lru@1.0.0';"
                + " or give the plugin's policy a name of its own)";
        assertEquals(expected, PolicyRegistryComponent.shadowNotice(r, Slot.RESIDENCY, "lru"), "the built-in came second");
        assertNull(PolicyRegistryComponent.shadowNotice(r, Slot.RESIDENCY, "fifo"));
    }

    /** The refusal of a same-version copy pointed at "another name or version"; another version is what the warning is about. */
    @Test
    void theRefusalOfASameVersionCopyAdvisesANameOfItsOwn() {
        PolicyRegistryComponent c = new PolicyRegistryComponent();
        @SuppressWarnings("unchecked")
        org.osgi.framework.ServiceReference<org.hmsim.api.policy.PolicyProvider> none = (org.osgi.framework.ServiceReference<org.hmsim.api.policy.PolicyProvider>)
                java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {org.osgi.framework.ServiceReference.class},
                        (proxy, m, args) -> null);
        c.addProvider(new Fakes.Provider(Slot.RESIDENCY, "lru", "1.0.0", List.of(), false), none);
        java.io.PrintStream was = System.err;
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        try {
            c.addProvider(new Fakes.Provider(Slot.RESIDENCY, "lru", "1.0.0", List.of(), false), none);
        } finally {
            System.setErr(was);
            org.hmsim.platform.kernel.runner.LiveSwaps.useRegistry(null);
        }
        String said = err.toString(java.nio.charset.StandardCharsets.UTF_8);
        org.junit.jupiter.api.Assertions.assertTrue(said.contains("is already provided by") && said.contains("(give it a name of its own, or a higher"
                + " service.ranking to override it;"), said);
    }

    @Test
    void versionsOfOneBundleAndABetterRankedCopyAreNotWarnedOf() {
        PolicyRegistry r = new PolicyRegistry();
        r.add(new Fakes.Provider(Slot.RESIDENCY, "clock", "1.0.0", List.of(), false), "edu.example.clock 1.0.0.1");
        r.add(new Fakes.Provider(Slot.RESIDENCY, "clock", "1.0.1", List.of(), false), "edu.example.clock 1.0.0.2");
        assertNull(PolicyRegistryComponent.shadowNotice(r, Slot.RESIDENCY, "clock"), "the plugin's own new version");
        r.add(new Fakes.Provider(Slot.RESIDENCY, "lru", "1.0.0", List.of(), false), "org.hmsim.baseline 0.1.0");
        r.add(new Fakes.Provider(Slot.RESIDENCY, "lru", "1.0.0", List.of(), false), "org.example.site 1.0.0", 10);
        assertNull(PolicyRegistryComponent.shadowNotice(r, Slot.RESIDENCY, "lru"), "an override of the same version, on purpose");
    }
}
