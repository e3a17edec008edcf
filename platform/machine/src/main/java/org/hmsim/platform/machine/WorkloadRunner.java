package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Multiprogram;
import org.hmsim.api.workload.Workload;

/**
 * Runs a workload on a machine as its host program would: make its allocations, then launch its
 * kernels one after another, each when the previous one has completed (a stream of dependent launches).
 *
 * <p>A {@link Multiprogram} (seed 004 §6.5) runs each of its programs so, side by side, program p on GPU p alone;
 * the run ends when the last one does. Launches are numbered in the order they happen over all programs: that number
 * is the kernel index policies, swaps {@code at: kernel N} and the statistics see (for one program, its kernel index).
 */
final class WorkloadRunner {
    private final Machine machine;
    private final List<Program> programs = new ArrayList<>();
    private final int kernelCount;
    private int launches, programsLeft;
    private long finishedPs = -1;
    private Swapper swapper;
    /** Launches the migration policy holds back right now. */
    private int launchesHeld;

    WorkloadRunner(Machine machine, Workload workload) {
        this.machine = machine;
        boolean mixed = workload instanceof Multiprogram;
        List<Workload> each = mixed ? ((Multiprogram) workload).programs() : List.of(workload);
        if (mixed) checkMix(workload.name(), each.size());
        List<Kernel> all = new ArrayList<>();
        for (int p = 0; p < each.size(); p++) {
            Program program = new Program(each.get(p), mixed ? p : -1);
            programs.add(program);
            all.addAll(program.kernels);
        }
        this.kernelCount = all.size();
        this.programsLeft = programs.size();
        // seed 004's stride-profiling fallback, run only when a placement policy asks for it
        CtaStrideProfiler profiler = new CtaStrideProfiler(all);
        machine.os.setCtaStrideProfiler(profiler::profile);
        machine.os.setFirstKernelWarps(profiler::firstKernelWarpsPerCta);
        if (machine.uvm != null) machine.uvm.setKernels(all); // ETC's compile-time sharing flag (seed 002 §4.4)
    }

    /** A mix needs a GPU per program, and neither demand paging nor a CPU side (one driver, one host program). */
    private void checkMix(String name, int count) {
        String what = "mix " + name + " runs each of its " + count + " programs on a GPU of its own";
        if (count > machine.gpus.size())
            throw new IllegalArgumentException(what + ", and the machine has " + machine.gpus.size() + " GPU" + (machine.gpus.size() == 1 ? "" : "s"));
        if (machine.uvm != null || machine.cpu != null)
            throw new IllegalArgumentException(what + "; side by side on a machine with a " + (machine.uvm != null ? "uvm:" : "cpu:")
                    + " section is not modelled (one driver or host program serves one program)");
    }

    void start() { for (Program p : programs) p.launchNext(); }

    /** Whether the migration policy holds a kernel launch back (it must not be swapped out then). */
    boolean launchHeld() { return launchesHeld > 0; }

    void setSwapper(Swapper s) { this.swapper = s; }

    boolean done() { return finishedPs >= 0; }

    private Runnable onFinished = () -> {};

    /** Called once, at the moment the last kernel (or host phase) ends, before anything still in flight drains. */
    void onFinished(Runnable r) { this.onFinished = r; }

    long finishedPs() { return finishedPs; }

    int kernelsLaunched() { return launches; }

    int kernelCount() { return kernelCount; }

    /** Each program's end, ps, in program order (one entry for an ordinary run); -1 for one still running. */
    long[] programEndsPs() {
        long[] ends = new long[programs.size()];
        for (int p = 0; p < ends.length; p++) ends[p] = programs.get(p).finishedPs;
        return ends;
    }

    boolean multiprogram() { return programs.get(0).gpu >= 0; }

    /** In a mix: fails if the cta-scheduler binds a block of a running kernel to another GPU than its program's. */
    void refuseBindingElsewhere() {
        for (Program p : programs) if (p.gpu >= 0) p.refuseBindingElsewhere();
    }

    /** One program: its allocations, kernels and host phases, and the GPU it runs on (-1: every GPU). */
    private final class Program {
        final int gpu;
        final List<Kernel> kernels;
        /** The CPU phases around the kernels and the coherence slot's runtime events (platform/cpu); inert without a CPU side. */
        final HostProgram host;
        int next;
        long finishedPs = -1;
        /** The kernel on the GPU now (null between launches) and its launch index. */
        Kernel running;
        int runningIndex;

        Program(Workload workload, int gpu) {
            this.gpu = gpu;
            List<AllocationSpec> specs = workload.allocations();
            long[] bases = new long[specs.size()];
            for (int i = 0; i < bases.length; i++) {
                AllocationSpec s = specs.get(i);
                String name = gpu >= 0 ? Multiprogram.allocationName(gpu, s.name()) : s.name();
                Allocation a = machine.os.allocate(name, s.bytes(), s.hint(), s.readOnly());
                // the compiler's per-block stride of this object, handed to the runtime at cudaMalloc (seed 004 §4.1)
                if (workload instanceof org.hmsim.api.workload.CtaStrideHints h) machine.os.setCtaStrideBytes(a, h.ctaStrideBytes(i));
                if (s.compressionRatio() > 0) machine.os.setCompressionRatio(a, s.compressionRatio());
                if (gpu >= 0) machine.os.setProgramGpu(a, gpu);
                bases[i] = a.baseVa();
            }
            this.kernels = workload.kernels(bases);
            if (kernels.isEmpty()) throw new IllegalArgumentException("workload " + workload.name() + " has no kernels");
            this.host = new HostProgram(machine.cpu, workload.hostPhases(bases), kernels.size());
        }

        void launchNext() {
            running = null;
            if (host.runBefore(next, this::launchNext)) return; // CPU work due before this launch (or at the end) first
            if (next == kernels.size()) {
                ended();
                return;
            }
            Kernel k = kernels.get(next++);
            int index = launches++;
            // Swaps scripted for this kernel boundary first (the GPU is idle here); then the migration slot may
            // hold the launch back (copy-first: bulk copy before the kernel, seed 000 §2.1).
            Runnable launch = () -> {
                launchesHeld++;
                boolean[] proceeded = {false};
                machine.migration().onKernelLaunch(index, () -> {
                    // a second proceed started the kernel twice ("kernel ... is still running", naming no policy: a trial)
                    if (proceeded[0]) throw new IllegalStateException("the migration slot's policy ran proceed twice for kernel launch " + index
                            + " (counted from 0): MigrationPolicy.onKernelLaunch must run it exactly once");
                    proceeded[0] = true;
                    launchesHeld--;
                    machine.liveCacheability.onKernelLaunch(index);
                    machine.throttling().onKernelLaunch(index, machine.engine.now());
                    if (machine.uvm != null) machine.uvm.kernelLaunching(index);
                    start(k, index);
                });
            };
            if (swapper != null) swapper.beforeKernel(index, launch);
            else launch.run();
        }

        /** One GPU runs the grid; on a multi-GPU machine the grid launcher spreads it over every GPU's SMs, unless the program has a GPU of its own. */
        private void start(Kernel k, int index) {
            running = k;
            runningIndex = index;
            var grid = machine.multiGpu == null || gpu >= 0 ? null : machine.multiGpu.launcher();
            if (grid != null) grid.launch(k, index, this::launchNext);
            else machine.gpus.get(Math.max(gpu, 0)).launch(k, index, this::launchNext);
            if (gpu >= 0) refuseBindingElsewhere();
            host.startAlongside(next - 1);
        }

        /**
         * A cta-scheduler that binds blocks to other GPUs (affinity, contiguous) would hold this program's blocks for
         * ever: its GPU is the only one offered them. Found at the first launch rather than by the watchdog.
         */
        void refuseBindingElsewhere() {
            if (running == null) return;
            for (int c = 0; c < running.ctas(); c++) {
                int bound = machine.liveCta.boundGpu(runningIndex, c);
                if (bound >= 0 && bound != gpu)
                    throw new IllegalArgumentException("the cta-scheduler binds block " + c + " of kernel " + running.name() + " to GPU " + bound
                            + ", but in a mix program " + gpu + " runs on GPU " + gpu + " alone: a mix takes a cta-scheduler that binds no blocks to GPUs (round-robin)");
            }
        }

        private void ended() {
            finishedPs = machine.engine.now();
            if (--programsLeft > 0) return;
            WorkloadRunner.this.finishedPs = finishedPs;
            onFinished.run();
        }
    }
}
