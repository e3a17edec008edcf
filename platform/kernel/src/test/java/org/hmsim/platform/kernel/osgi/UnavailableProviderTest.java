package org.hmsim.platform.kernel.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.Fakes;
import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.results.Environment;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.osgi.framework.Constants;
import org.osgi.framework.ServiceReference;

/**
 * A provider registered as a service whose component could not be created (its activate threw) was only an "unknown"
 * policy, next to a stack trace of the component framework's that named no policy (found by a bundle-author
 * walkthrough). Validation and {@code policies} now say which bundle registers it and that it could not be created.
 */
class UnavailableProviderTest {
    @AfterEach
    void noRegistry() { org.hmsim.platform.kernel.runner.LiveSwaps.useRegistry(null); }

    private static ServiceReference<?> ref(Map<String, Object> props) {
        return (ServiceReference<?>) Proxy.newProxyInstance(ServiceReference.class.getClassLoader(), new Class<?>[] {ServiceReference.class},
                (proxy, m, args) -> m.getName().equals("getProperty") ? props.get((String) args[0]) : null);
    }

    @Test
    void aRegisteredProviderThatIsNeitherInstalledNorRefusedCouldNotBeCreated() {
        PolicyRegistryComponent c = new PolicyRegistryComponent();
        PolicyProvider fifo = new Fakes.Provider(Slot.RESIDENCY, "fifo", "1.0.0", List.of(), false);
        @SuppressWarnings("unchecked")
        ServiceReference<PolicyProvider> installed = (ServiceReference<PolicyProvider>) ref(Map.of(Constants.SERVICE_ID, 1L,
                PolicyProvider.SLOT, "residency", PolicyProvider.NAME, "fifo", PolicyProvider.VERSION, "1.0.0"));
        c.addProvider(fifo, installed);
        ServiceReference<?> broken = ref(Map.of(Constants.SERVICE_ID, 2L, PolicyProvider.SLOT, "residency", PolicyProvider.NAME, "broken",
                PolicyProvider.VERSION, "1.0.0"));
        Set<Object> refused = new java.util.HashSet<>();

        assertTrue(PolicyRegistryComponent.unavailable(Slot.RESIDENCY, installed, c.registry(), refused).isEmpty(), "installed");
        PolicyRegistry.Unavailable u = PolicyRegistryComponent.unavailable(Slot.RESIDENCY, broken, c.registry(), refused).orElseThrow();
        assertEquals(new PolicyRegistry.Unavailable(Slot.RESIDENCY, "broken", "1.0.0", "unknown"), u);
        refused.add(2L);
        assertTrue(PolicyRegistryComponent.unavailable(Slot.RESIDENCY, broken, c.registry(), refused).isEmpty(), "refused: said when it came");
        assertTrue(PolicyRegistryComponent.unavailable(Slot.RESIDENCY, ref(Map.of(Constants.SERVICE_ID, 3L)), c.registry(), Set.of()).isEmpty(),
                "a service that names no policy cannot be named by a study either");
    }

    /**
     * DS unbinds by reference alone: with the service among the unbind's parameters SCR created a provider that could not
     * be created once more as the container stopped, printing its activate's trace a second time.
     */
    @Test
    void unbindingTakesTheReferenceAloneAndRemovesOnlyWhatWasBound() throws Exception {
        java.lang.reflect.Method unbind = PolicyRegistryComponent.class.getDeclaredMethod("unbindProvider", ServiceReference.class);
        assertEquals(1, unbind.getParameterCount(), "no service object: SCR need not get it");
        PolicyRegistryComponent c = new PolicyRegistryComponent();
        PolicyProvider fifo = new Fakes.Provider(Slot.RESIDENCY, "fifo", "1.0.0", List.of(), false);
        @SuppressWarnings("unchecked")
        ServiceReference<PolicyProvider> one = (ServiceReference<PolicyProvider>) ref(Map.of(Constants.SERVICE_ID, 1L));
        @SuppressWarnings("unchecked")
        ServiceReference<PolicyProvider> never = (ServiceReference<PolicyProvider>) ref(Map.of(Constants.SERVICE_ID, 2L));
        c.addProvider(fifo, one);
        c.unbindProvider(never);
        assertEquals(List.of(fifo), c.registry().entries(Slot.RESIDENCY).stream().map(e -> e.provider()).toList(), "never bound: nothing removed");
        c.unbindProvider(one);
        assertEquals(List.of(), c.registry().entries(Slot.RESIDENCY));
        c.unbindProvider(one); // twice: nothing left to remove
    }

    @Test
    void validationAndPoliciesNameTheBundleWhoseProviderCouldNotBeCreated() {
        PolicyRegistry registry = Fakes.policies();
        PolicyRegistry.Unavailable u = new PolicyRegistry.Unavailable(Slot.RESIDENCY, "broken", "1.0.0", "edu.example.broken 1.0.0.202611290450");
        registry.unavailable(slot -> slot == Slot.RESIDENCY ? List.of(u) : List.of());

        InvalidChoiceException e = assertThrows(InvalidChoiceException.class, () -> registry.resolve(Slot.RESIDENCY, "broken", Map.of()));
        assertTrue(e.getMessage().startsWith("unknown residency policy 'broken' ("), e.getMessage());
        assertTrue(e.getMessage().contains("; edu.example.broken 1.0.0.202611290450 registers residency policy 'broken' 1.0.0 but its"
                + " component could not be created (its constructor or activate method threw"), e.getMessage());
        e = assertThrows(InvalidChoiceException.class, () -> registry.resolve(Slot.RESIDENCY, "broken@2.0.0", Map.of()));
        assertFalse(e.getMessage().contains("registers"), "another version: " + e.getMessage());
        e = assertThrows(InvalidChoiceException.class, () -> registry.resolve(Slot.RESIDENCY, "other", Map.of()));
        assertFalse(e.getMessage().contains("registers"), "another name: " + e.getMessage());

        registry.notStarted(() -> List.of("edu.example.clock 1.0.0.1 (id 27)"));
        e = assertThrows(InvalidChoiceException.class, () -> registry.resolve(Slot.RESIDENCY, "clock", Map.of()));
        assertTrue(e.getMessage().endsWith("; installed but not started (its policies are not offered until it is: `start ID` in the shell):"
                + " edu.example.clock 1.0.0.1 (id 27)"), "a bundle installed in the shell and not started: " + e.getMessage());
        registry.notStarted(List::of);

        SimKernel kernel = new SimKernel(registry, Fakes.workloads(), Environment.classpath(), Fakes.SIMULATOR);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        assertEquals(0, new Commands(kernel).execute(new String[] {"policies"}, o, o, false));
        String listed = out.toString(StandardCharsets.UTF_8);
        assertTrue(listed.contains("  broken 1.0.0 NOT INSTALLED  [edu.example.broken 1.0.0.202611290450]\n"
                + "      edu.example.broken 1.0.0.202611290450 registers residency policy 'broken' 1.0.0 but its component could not be created"), listed);
    }
}
