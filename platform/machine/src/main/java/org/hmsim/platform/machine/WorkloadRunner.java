package org.hmsim.platform.machine;

import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.gpu.Gpu;

/**
 * Runs a workload on a machine as its host program would: make its allocations, then launch its
 * kernels one after another, each when the previous one has completed (a stream of dependent launches).
 */
final class WorkloadRunner {
    private final Machine machine;
    private final List<Kernel> kernels;
    private int next;
    private long finishedPs = -1;
    private Swapper swapper;
    private boolean launchHeld;

    WorkloadRunner(Machine machine, Workload workload) {
        this.machine = machine;
        List<AllocationSpec> specs = workload.allocations();
        long[] bases = new long[specs.size()];
        for (int i = 0; i < bases.length; i++) {
            AllocationSpec s = specs.get(i);
            Allocation a = machine.os.allocate(s.name(), s.bytes(), s.hint(), s.readOnly());
            bases[i] = a.baseVa();
        }
        this.kernels = workload.kernels(bases);
        if (kernels.isEmpty()) throw new IllegalArgumentException("workload " + workload.name() + " has no kernels");
    }

    void start() { launchNext(); }

    private void launchNext() {
        if (next == kernels.size()) {
            finishedPs = machine.engine.now();
            return;
        }
        Kernel k = kernels.get(next);
        int index = next++;
        // Single-GPU launch; multi-GPU CTA distribution is the cta-scheduler's job once GPUs share a kernel.
        Gpu gpu = machine.gpus.get(0);
        // Swaps scripted for this kernel boundary first (the GPU is idle here); then the migration slot may
        // hold the launch back (copy-first: bulk copy before the kernel, seed 000 §2.1).
        Runnable launch = () -> {
            launchHeld = true;
            machine.migration().onKernelLaunch(index, () -> {
                launchHeld = false;
                gpu.launch(k, index, this::launchNext);
            });
        };
        if (swapper != null) swapper.beforeKernel(index, launch);
        else launch.run();
    }

    /** Whether the migration policy holds a kernel launch back (it must not be swapped out then). */
    boolean launchHeld() { return launchHeld; }

    void setSwapper(Swapper s) { this.swapper = s; }

    boolean done() { return finishedPs >= 0; }

    long finishedPs() { return finishedPs; }

    int kernelsLaunched() { return next; }

    int kernelCount() { return kernels.size(); }
}
