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

    /**
     * How long a stopping framework waits for a study to record its end: its runs in flight stop at their next
     * epoch end (milliseconds of wall time at most epochs), then study.json says "stopped" and the folder's lock
     * is released.
     */
    private static final long STOP_GRACE_MS = 10_000;

    private SimKernel kernel;
    private Commands commands;

    @Activate
    void activate(BundleContext context) {
        org.hmsim.platform.kernel.runner.LiveSwaps.resumeRunning(); // a kernel bundle stopped and started again keeps its classes
        kernel = new SimKernel(policies.registry(), workloads.registry(), new OsgiEnvironment(context), Simulation::run, executors);
        commands = new Commands(kernel);
    }

    @Reference(name = "batchScheduler", service = BatchScheduler.class, cardinality = ReferenceCardinality.MULTIPLE,
            policy = ReferencePolicy.DYNAMIC, unbind = "removeScheduler")
    void addScheduler(BatchScheduler s) { executors.add(s); }

    void removeScheduler(BatchScheduler s) { executors.remove(s); }

    /**
     * The kernel is going away (the shell's end, Ctrl-C, or its bundle stopped, updated or refreshed): no new run
     * starts, and the runs in flight end at their next safe point without a result (left for --resume, no error
     * recorded). The study is given a moment to record that it stopped in study.json and runs.csv, and to release
     * its folder, while the bundles it writes them with are still there; a shell's exit code then says it stopped.
     * A kernel that left its study running had nothing in charge of it: no status, no stop, its folder locked.
     */
    @Deactivate
    void deactivate() {
        kernel.markClosing();
        StudyExecution ex = kernel.current();
        if (ex == null) return;
        try {
            // runs may have ended already: the bundles of their policies leave before this one, and that aborts them
            if (ex.abort()) ex.await(STOP_GRACE_MS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // only for a study the stop interrupted: an earlier study's code is already set (and a later failure may follow it)
        if (ex.isDone() && ex.interrupted() && ex.exitCode() != StudyExecution.OK)
            System.setProperty(GogoCommands.SHELL_EXIT_CODE, Integer.toString(ex.exitCode()));
    }

    public Commands commands() { return commands; }
}
