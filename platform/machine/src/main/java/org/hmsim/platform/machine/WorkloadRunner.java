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
    /** CPU phases around the kernels and the coherence slot's runtime events (platform/cpu); inert without a CPU side. */
    private final HostProgram host;

    WorkloadRunner(Machine machine, Workload workload) {
        this.machine = machine;
        List<AllocationSpec> specs = workload.allocations();
        long[] bases = new long[specs.size()];
        for (int i = 0; i < bases.length; i++) {
            AllocationSpec s = specs.get(i);
            Allocation a = machine.os.allocate(s.name(), s.bytes(), s.hint(), s.readOnly());
            // the compiler's per-block stride of this object, handed to the runtime at cudaMalloc (seed 004 §4.1)
            if (workload instanceof org.hmsim.api.workload.CtaStrideHints h) machine.os.setCtaStrideBytes(a, h.ctaStrideBytes(i));
            bases[i] = a.baseVa();
        }
        this.kernels = workload.kernels(bases);
        // seed 004's stride-profiling fallback, run only when a placement policy asks for it
        CtaStrideProfiler profiler = new CtaStrideProfiler(kernels);
        machine.os.setCtaStrideProfiler(profiler::profile);
        machine.os.setFirstKernelWarps(profiler::firstKernelWarpsPerCta);
        if (machine.uvm != null) machine.uvm.setKernels(kernels); // ETC's compile-time sharing flag (seed 002 §4.4)
        if (kernels.isEmpty()) throw new IllegalArgumentException("workload " + workload.name() + " has no kernels");
        this.host = new HostProgram(machine.cpu, workload.hostPhases(bases), kernels.size());
    }

    void start() { launchNext(); }

    private void launchNext() {
        if (host.runBefore(next, this::launchNext)) return; // CPU work due before this launch (or at the end) first
        if (next == kernels.size()) {
            finishedPs = machine.engine.now();
            onFinished.run();
            return;
        }
        Kernel k = kernels.get(next);
        int index = next++;
        // One GPU runs the grid; on a multi-GPU machine the grid launcher spreads it over every GPU's SMs.
        Gpu gpu = machine.gpus.get(0);
        var grid = machine.multiGpu == null ? null : machine.multiGpu.launcher();
        // Swaps scripted for this kernel boundary first (the GPU is idle here); then the migration slot may
        // hold the launch back (copy-first: bulk copy before the kernel, seed 000 §2.1).
        Runnable launch = () -> {
            launchHeld = true;
            machine.migration().onKernelLaunch(index, () -> {
                launchHeld = false;
                machine.liveCacheability.onKernelLaunch(index);
                if (machine.uvm != null) machine.uvm.kernelLaunching(index);
                if (grid != null) grid.launch(k, index, this::launchNext);
                else gpu.launch(k, index, this::launchNext);
            });
        };
        if (swapper != null) swapper.beforeKernel(index, launch);
        else launch.run();
    }

    /** Whether the migration policy holds a kernel launch back (it must not be swapped out then). */
    boolean launchHeld() { return launchHeld; }

    void setSwapper(Swapper s) { this.swapper = s; }

    boolean done() { return finishedPs >= 0; }

    private Runnable onFinished = () -> {};

    /** Called once, at the moment the last kernel (or host phase) ends, before anything still in flight drains. */
    void onFinished(Runnable r) { this.onFinished = r; }

    long finishedPs() { return finishedPs; }

    int kernelsLaunched() { return next; }

    int kernelCount() { return kernels.size(); }
}
