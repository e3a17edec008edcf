package org.hmsim.platform.kernel.osgi;

import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/**
 * Feeds the policy registry from the service registry: every {@link PolicyProvider} of every bundle, as
 * bundles come and go (dynamic, greedy: a provider installed while the kernel runs is picked up at once).
 */
@Component(service = PolicyRegistryComponent.class, immediate = true)
public final class PolicyRegistryComponent {
    private final PolicyRegistry registry = new PolicyRegistry();

    public PolicyRegistryComponent() { LiveSwaps.useRegistry(registry); }

    @Reference(name = "policyProviders", service = PolicyProvider.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY, unbind = "removeProvider")
    void addProvider(PolicyProvider provider, ServiceReference<PolicyProvider> ref) {
        String mismatch = mismatch(provider, ref);
        if (mismatch != null) {
            // listed under one identity and created under another, a study could not say which it ran
            System.err.println("hmsim: policy provider " + provider.getClass().getName() + " of " + OsgiEnvironment.bundleOf(ref)
                    + " is not installed: " + mismatch + " (docs/writing-a-mechanism.md: the service properties repeat slot, name and version)");
            return;
        }
        registry.add(provider, OsgiEnvironment.bundleOf(ref), ranking(ref));
        LiveSwaps.providerAdded(provider);
    }

    /** Where the provider's service properties contradict its methods (an absent property is no contradiction), or null. */
    static String mismatch(PolicyProvider p, ServiceReference<?> ref) {
        String[][] pairs = {{PolicyProvider.SLOT, p.slot() == null ? null : p.slot().id()}, {PolicyProvider.NAME, p.name()},
                {PolicyProvider.VERSION, p.version()}};
        for (String[] kv : pairs) {
            Object prop = ref.getProperty(kv[0]);
            if (prop != null && !String.valueOf(prop).equals(kv[1]))
                return "its service property " + kv[0] + "=" + prop + " but its method says " + kv[1];
        }
        return null;
    }

    void removeProvider(PolicyProvider provider, ServiceReference<PolicyProvider> ref) {
        // The bundle as recorded when the provider arrived: while a service is being unregistered its
        // reference may no longer name its bundle, and the runs to swap are matched on this name.
        String bundle = registry.entries().stream().filter(e -> e.provider() == provider).map(e -> e.bundle()).findFirst().orElse(null);
        if (bundle == null) return; // refused when it came
        registry.remove(provider);
        // Runs using it swap at their next safe point; nothing keeps the provider after this call.
        LiveSwaps.providerGone(provider, bundle);
    }

    public PolicyRegistry registry() { return registry; }

    /** The provider's {@code service.ranking} (0 when absent or not an Integer, as the framework reads it). */
    private static int ranking(ServiceReference<PolicyProvider> ref) {
        Object r = ref.getProperty(org.osgi.framework.Constants.SERVICE_RANKING);
        return r instanceof Integer i ? i : 0;
    }
}
