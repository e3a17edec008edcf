package org.hmsim.platform.kernel.osgi;

import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.machine.Simulation;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;

/** The kernel inside the framework: registries, the real simulator, and the commands over them. */
@Component(service = KernelComponent.class, immediate = true)
public final class KernelComponent {
    @Reference(name = "policyRegistry")
    private PolicyRegistryComponent policies;

    @Reference(name = "workloadRegistry")
    private WorkloadRegistryComponent workloads;

    private SimKernel kernel;
    private Commands commands;

    @Activate
    void activate(BundleContext context) {
        kernel = new SimKernel(policies.registry(), workloads.registry(), new OsgiEnvironment(context), Simulation::run);
        commands = new Commands(kernel);
    }

    @Deactivate
    void deactivate() {
        StudyExecution ex = kernel.current();
        if (ex != null) ex.stop();
    }

    public Commands commands() { return commands; }
}
