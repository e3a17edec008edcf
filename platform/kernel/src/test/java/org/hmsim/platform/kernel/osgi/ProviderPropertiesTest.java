package org.hmsim.platform.kernel.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.Fakes;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.osgi.framework.ServiceReference;

/**
 * A provider whose service properties name one policy and whose methods another (found by a plugin-author
 * review: it was listed and run under the methods' identity, the properties ignored) is not installed.
 */
class ProviderPropertiesTest {
    /** The component makes its registry the container's (LiveSwaps); later tests resolve their studies against their own. */
    @AfterEach
    void noRegistry() { LiveSwaps.useRegistry(null); }

    private static ServiceReference<?> ref(Map<String, Object> props) {
        return (ServiceReference<?>) Proxy.newProxyInstance(ServiceReference.class.getClassLoader(), new Class<?>[] {ServiceReference.class},
                (proxy, m, args) -> m.getName().equals("getProperty") ? props.get((String) args[0]) : null);
    }

    @Test
    void propertiesThatContradictTheMethodsAreNamed() {
        PolicyProvider p = new Fakes.Provider(Slot.REPLACEMENT, "m-method", "2.0.0", List.of(), false);
        assertEquals("its service property hmsim.slot=migration but its method says replacement",
                PolicyRegistryComponent.mismatch(p, ref(Map.of(PolicyProvider.SLOT, "migration", PolicyProvider.NAME, "m-method"))));
        assertEquals("its service property hmsim.policy=m-prop but its method says m-method",
                PolicyRegistryComponent.mismatch(p, ref(Map.of(PolicyProvider.NAME, "m-prop"))));
        assertEquals("its service property hmsim.policy.version=1.0.0 but its method says 2.0.0",
                PolicyRegistryComponent.mismatch(p, ref(Map.of(PolicyProvider.VERSION, "1.0.0"))));
        assertNull(PolicyRegistryComponent.mismatch(p, ref(Map.of(PolicyProvider.SLOT, "replacement", PolicyProvider.NAME, "m-method",
                PolicyProvider.VERSION, "2.0.0"))));
        assertNull(PolicyRegistryComponent.mismatch(p, ref(Map.of())), "absent properties contradict nothing");
    }

    /**
     * A second provider of the same slot, name and version at the same ranking (a plugin's "lru 1.0.0") is not
     * installed: which code ran used to depend on bundle names (found by an OSGi review). Nor does it take over when
     * the first goes: an update of the first would hand the policy to it (found by a review of the fix).
     */
    @Test
    void aSecondProviderOfTheSamePolicyAndVersionIsNotInstalled() {
        PolicyRegistryComponent c = new PolicyRegistryComponent();
        PolicyProvider first = new Fakes.Provider(Slot.REPLACEMENT, "lru", "1.0.0", List.of(), false);
        PolicyProvider shadow = new Fakes.Provider(Slot.REPLACEMENT, "lru", "1.0.0", List.of(), false);
        PolicyProvider newer = new Fakes.Provider(Slot.REPLACEMENT, "lru", "1.1.0", List.of(), false);
        @SuppressWarnings("unchecked")
        ServiceReference<PolicyProvider> none = (ServiceReference<PolicyProvider>) ref(Map.of());
        c.addProvider(first, none);
        c.addProvider(shadow, none);
        c.addProvider(newer, none);
        assertEquals(List.of(newer, first), c.registry().entries(Slot.REPLACEMENT).stream().map(e -> e.provider()).toList(),
                "another version is another policy; the same one is refused");
        c.removeProvider(first, none); // e.g. its bundle updated: the refused copy does not take the policy over
        assertEquals(List.of(newer), c.registry().entries(Slot.REPLACEMENT).stream().map(e -> e.provider()).toList());
        c.addProvider(first, none);
        assertEquals(List.of(newer, first), c.registry().entries(Slot.REPLACEMENT).stream().map(e -> e.provider()).toList(), "and it comes back");
        c.removeProvider(shadow, none); // the refused one leaving changes nothing
        assertEquals(List.of(newer, first), c.registry().entries(Slot.REPLACEMENT).stream().map(e -> e.provider()).toList());
        c.removeProvider(first, none);

        // a copy with a higher service.ranking is an override on purpose (follow: highest-ranked): installed, and chosen
        PolicyProvider ranked = new Fakes.Provider(Slot.REPLACEMENT, "lru", "1.1.0", List.of(), false);
        @SuppressWarnings("unchecked")
        ServiceReference<PolicyProvider> ten = (ServiceReference<PolicyProvider>) ref(Map.of(org.osgi.framework.Constants.SERVICE_RANKING, 10));
        c.addProvider(ranked, ten);
        assertEquals(List.of(ranked, newer), c.registry().entries(Slot.REPLACEMENT).stream().map(e -> e.provider()).toList());
        assertEquals(ranked, c.registry().resolve(Slot.REPLACEMENT, "lru@1.1.0", Map.of()).entry().provider(), "the better ranked of one version");
    }
}
