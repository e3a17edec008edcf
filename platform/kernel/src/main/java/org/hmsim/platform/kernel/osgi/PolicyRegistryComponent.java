package org.hmsim.platform.kernel.osgi;

import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import java.util.Map;
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

    private org.osgi.framework.BundleContext context;

    /** The service ids of providers this component refused (contradicting properties, a duplicate): not "could not be created". */
    private final java.util.Set<Object> refused = java.util.concurrent.ConcurrentHashMap.newKeySet();

    @org.osgi.service.component.annotations.Activate
    void activate(org.osgi.framework.BundleContext ctx) {
        this.context = ctx;
        registry.unavailable(this::unavailable);
        registry.notStarted(this::notStarted);
    }

    /** The bundles with DS components (a Service-Component header) that are installed or resolved but not started. */
    java.util.List<String> notStarted() {
        org.osgi.framework.BundleContext ctx = context;
        if (ctx == null) return java.util.List.of();
        java.util.List<String> out = new java.util.ArrayList<>();
        try {
            for (org.osgi.framework.Bundle b : ctx.getBundles())
                if ((b.getState() & (org.osgi.framework.Bundle.INSTALLED | org.osgi.framework.Bundle.RESOLVED)) != 0
                        && b.getHeaders("").get("Service-Component") != null)
                    out.add(b.getSymbolicName() + " " + b.getVersion() + " (id " + b.getBundleId() + ")");
        } catch (IllegalStateException stopping) {
            return java.util.List.of();
        }
        return out;
    }

    /**
     * The providers of {@code slot} in the service registry that never reached {@link #addProvider}: this component binds
     * every provider as it is registered (dynamic, greedy), so one that is registered, not installed and not refused is
     * one whose service object the component framework could not create (its activate threw; SCR logs the trace).
     */
    java.util.List<PolicyRegistry.Unavailable> unavailable(org.hmsim.api.policy.Slot slot) {
        org.osgi.framework.BundleContext ctx = context;
        if (ctx == null) return java.util.List.of();
        java.util.Collection<ServiceReference<PolicyProvider>> refs;
        try {
            refs = ctx.getServiceReferences(PolicyProvider.class, "(" + PolicyProvider.SLOT + "=" + slot.id() + ")");
        } catch (org.osgi.framework.InvalidSyntaxException | IllegalStateException e) {
            return java.util.List.of();
        }
        java.util.List<PolicyRegistry.Unavailable> out = new java.util.ArrayList<>();
        for (ServiceReference<PolicyProvider> ref : refs)
            unavailable(slot, ref, registry, refused).ifPresent(out::add);
        return out;
    }

    /** {@code ref} as a provider that could not be created, unless it is installed, was refused or names no policy. */
    static java.util.Optional<PolicyRegistry.Unavailable> unavailable(org.hmsim.api.policy.Slot slot, ServiceReference<?> ref,
            PolicyRegistry registry, java.util.Set<Object> refused) {
        Object name = ref.getProperty(PolicyProvider.NAME);
        Object version = ref.getProperty(PolicyProvider.VERSION);
        Object id = ref.getProperty(org.osgi.framework.Constants.SERVICE_ID);
        if (name == null || (id != null && refused.contains(id))) return java.util.Optional.empty();
        String bundle = OsgiEnvironment.bundleOf(ref);
        for (var e : registry.entries(slot))
            if (e.name().equals(String.valueOf(name)) && (version == null || e.version().equals(String.valueOf(version))) && e.bundle().equals(bundle))
                return java.util.Optional.empty();
        return java.util.Optional.of(new PolicyRegistry.Unavailable(slot, String.valueOf(name), version == null ? null : String.valueOf(version), bundle));
    }

    /** Whether the whole framework is stopping (its bundles then leave one by one, the kernel among them). */
    private boolean frameworkStopping() {
        try {
            return context != null && context.getBundle(0).getState() == org.osgi.framework.Bundle.STOPPING;
        } catch (IllegalStateException gone) {
            return true;
        }
    }

    @Reference(name = "policyProviders", service = PolicyProvider.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY, unbind = "unbindProvider")
    void addProvider(PolicyProvider provider, ServiceReference<PolicyProvider> ref) {
        Object id = ref.getProperty(org.osgi.framework.Constants.SERVICE_ID);
        if (id != null) bound.put(id, provider);
        String mismatch = mismatch(provider, ref);
        if (mismatch != null) {
            // listed under one identity and created under another, a study could not say which it ran
            System.err.println("hmsim: policy provider " + provider.getClass().getName() + " of " + OsgiEnvironment.bundleOf(ref)
                    + " is not installed: " + mismatch + " (docs/writing-a-mechanism.md: the service properties repeat slot, name and version)");
            refuse(ref);
            return;
        }
        String bundle = OsgiEnvironment.bundleOf(ref);
        int ranking = ranking(ref);
        String holder = holder(provider, ranking);
        if (holder != null) {
            // Two providers of one slot, name and version with the same service ranking: which code a study ran would
            // depend on bundle names (a plugin's "lru 1.0.0" silently replaced the built-in default). The later one is
            // not installed, and does not take over later either: a holder that is updated leaves and comes back, and
            // the policy would change hands with the order of events. A better-ranked copy is how a site overrides a
            // policy on purpose (follow: highest-ranked).
            System.err.println("hmsim: policy provider " + provider.getClass().getName() + " of " + bundle + " is not installed: "
                    + provider.slot().id() + " policy '" + provider.name() + "' " + provider.version() + " is already provided by "
                    + holder + " at the same service ranking (give it a name of its own, or a higher service.ranking to override it;"
                    + " restart the bundle once the other is gone)");
            refuse(ref);
            return;
        }
        registry.add(provider, bundle, ranking);
        String shadow = shadowNotice(registry, provider.slot(), provider.name());
        if (shadow != null && shadowsSaid.add(shadow)) System.err.println(shadow);
        LiveSwaps.providerAdded(provider);
    }

    /** The shadowing notices printed already (one each, whichever order the bundles came in). */
    private final java.util.Set<String> shadowsSaid = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * The warning when the version of {@code slot}'s policy {@code name} that a study naming it without a version runs
     * comes from another bundle than an older version of it (a plugin's {@code lru} 2.0.0 beside the built-in 1.0.0: found
     * by a bundle-author walkthrough, every study naming {@code lru} ran the plugin's, and nothing said so); null if none.
     * Versions of one bundle (a plugin's own updates) and a better-ranked copy of the same version (an override on
     * purpose) are not warned of.
     */
    static String shadowNotice(PolicyRegistry registry, org.hmsim.api.policy.Slot slot, String name) {
        java.util.List<org.hmsim.platform.kernel.registry.PolicyEntry> same = registry.entries(slot).stream().filter(e -> e.name().equals(name)).toList();
        if (same.size() < 2) return null;
        var newest = same.get(0);
        for (var e : same)
            if (!e.version().equals(newest.version()) && !e.bundleName().equals(newest.bundleName()))
                return "hmsim: warning: " + slot.id() + " policy '" + name + "' " + newest.version() + " of " + newest.bundle()
                        + " is the newest version: a study naming '" + name + "' without a version runs it, not " + e.id() + " of "
                        + e.bundle() + " (name that one '" + e.id() + "'; or give the plugin's policy a name of its own)";
        return null;
    }

    /** The bundle already providing {@code p}'s slot, name and version at service ranking {@code ranking}, or null. */
    private String holder(PolicyProvider p, int ranking) {
        for (var e : registry.entries())
            if (e.slot() == p.slot() && e.name().equals(p.name()) && e.version().equals(p.version()) && registry.ranking(e) == ranking) return e.bundle();
        return null;
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

    private void refuse(ServiceReference<?> ref) {
        Object id = ref.getProperty(org.osgi.framework.Constants.SERVICE_ID);
        if (id != null) refused.add(id);
    }

    /** The providers bound, by service id: what {@link #unbindProvider} removes. */
    private final Map<Object, PolicyProvider> bound = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * DS's unbind, given the reference only: with the service object among its parameters SCR fetched it for the unbind,
     * and for a provider whose component could not be created that meant creating it again, printing its activate's
     * trace a second time as the container stopped (found by a bundle-author walkthrough). SCR never bound such a
     * provider, so there is nothing to remove for it.
     */
    void unbindProvider(ServiceReference<PolicyProvider> ref) {
        Object id = ref.getProperty(org.osgi.framework.Constants.SERVICE_ID);
        PolicyProvider provider = id == null ? null : bound.remove(id);
        if (provider != null) removeProvider(provider, ref);
    }

    void removeProvider(PolicyProvider provider, ServiceReference<PolicyProvider> ref) {
        Object id = ref.getProperty(org.osgi.framework.Constants.SERVICE_ID);
        if (id != null) refused.remove(id);
        // The bundle as recorded when the provider arrived: while a service is being unregistered its
        // reference may no longer name its bundle, and the runs to swap are matched on this name.
        String bundle = registry.entries().stream().filter(e -> e.provider() == provider).map(e -> e.bundle()).findFirst().orElse(null);
        if (bundle == null) return; // refused when it came
        registry.remove(provider);
        if (frameworkStopping()) {
            // Not a bundle leaving a running container: every bundle is going. Swapping the runs to what is left
            // would record shutdown swaps in results that then look complete; they end without a result instead.
            LiveSwaps.abortAll();
            return;
        }
        // Runs using it swap at their next safe point; nothing keeps the provider after this call.
        String notice = LiveSwaps.goneNotice(provider.slot(), provider.name() + "@" + provider.version(), bundle,
                LiveSwaps.providerGone(provider, bundle));
        if (notice != null) System.err.println(notice);
    }

    public PolicyRegistry registry() { return registry; }

    /** The provider's {@code service.ranking} (0 when absent or not an Integer, as the framework reads it). */
    private static int ranking(ServiceReference<PolicyProvider> ref) {
        Object r = ref.getProperty(org.osgi.framework.Constants.SERVICE_RANKING);
        return r instanceof Integer i ? i : 0;
    }
}
