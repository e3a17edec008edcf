package org.hmsim.platform.kernel.osgi;

import java.util.concurrent.TimeUnit;
import org.hmsim.api.executor.BatchScheduler;
import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.executor.ExecutorRegistry;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.machine.Simulation;
import org.osgi.framework.BundleContext;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;
import org.osgi.service.component.annotations.Reference;
import org.osgi.service.component.annotations.ReferenceCardinality;
import org.osgi.service.component.annotations.ReferencePolicy;

/** The kernel inside the framework: registries, the real simulator, and the commands over them. */
@Component(service = KernelComponent.class, immediate = true)
public final class KernelComponent {
    @Reference(name = "policyRegistry")
    private PolicyRegistryComponent policies;

    @Reference(name = "workloadRegistry")
    private WorkloadRegistryComponent workloads;

    /** Batch schedulers of bundles (a site's own; Slurm is built in): {@code run --executor NAME}. */
    private final ExecutorRegistry executors = new ExecutorRegistry();

    /** How long a stopping framework waits for a study with no run in flight to record its end. */
    private static final long STOP_GRACE_MS = 2000;

    private SimKernel kernel;
    private Commands commands;

    @Activate
    void activate(BundleContext context) {
        kernel = new SimKernel(policies.registry(), workloads.registry(), new OsgiEnvironment(context), Simulation::run, executors);
        commands = new Commands(kernel);
    }

    @Reference(name = "batchScheduler", service = BatchScheduler.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeScheduler")
    void addScheduler(BatchScheduler s) { executors.add(s); }

    void removeScheduler(BatchScheduler s) { executors.remove(s); }

    /**
     * The framework is stopping (the shell's exit, Ctrl-C): no new run starts. A study that has nothing in
     * flight then ends at once; it is given a moment to record that in study.json and runs.csv while the
     * bundles it writes them with are still there. Runs in flight are not waited for.
     */
    @Deactivate
    void deactivate() {
        kernel.markClosing();
        StudyExecution ex = kernel.current();
        if (ex == null || !ex.stop()) return;
        try {
            ex.await(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public Commands commands() { return commands; }
}
