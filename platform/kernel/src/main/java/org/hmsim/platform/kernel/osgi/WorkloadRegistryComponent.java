package org.hmsim.platform.kernel.osgi;

import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.osgi.framework.ServiceReference;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;
import org.osgi.service.component.annotations.ReferencePolicyOption;

/** The built-in workloads plus every {@link WorkloadProvider} service, tracked dynamically. */
@Component(service = WorkloadRegistryComponent.class, immediate = true)
public final class WorkloadRegistryComponent {
    private final WorkloadRegistry registry = WorkloadRegistry.withBuiltins();

    @Reference(name = "workloadProviders", service = WorkloadProvider.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, policyOption = ReferencePolicyOption.GREEDY, unbind = "removeProvider")
    void addProvider(WorkloadProvider provider, ServiceReference<WorkloadProvider> ref) {
        registry.add(provider, OsgiEnvironment.bundleOf(ref));
    }

    void removeProvider(WorkloadProvider provider) {
        registry.remove(provider);
    }

    public WorkloadRegistry registry() { return registry; }
}
