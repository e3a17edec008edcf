package org.hmsim.platform.machine;

import java.util.List;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.platform.cpu.CpuSide;

/**
 * The host program's CPU work around the kernels (seed 001 §3): before kernel k its phases with
 * {@code beforeKernel == k} run on the CPU cores (k = 0: initialisation; between kernels: interaction);
 * after the last kernel the program calls {@code gpuWorkFinish()} and runs its post-processing. The
 * coherence slot hears each step ({@link CoherencePolicy#onRuntimeEvent}). Without a CPU side the phases
 * are skipped (GPU-only machines time the kernels alone, as before).
 *
 * <p>Phases {@linkplain HostPhase#alongside alongside} kernel k start as it starts and run while it runs; the
 * program synchronises with both (its next host work, launch or end waits for the kernel and those phases), so the
 * coherence slot hears kernel k complete at that synchronisation, as a runtime would.
 */
final class HostProgram {
    private final CpuSide cpu;
    private final List<HostPhase> phases;
    private final int kernels;
    private int ranBefore = -1;
    /** Alongside phases still running, and what waits for them (the program's next step), if anything. */
    private boolean alongsideRunning;
    private Runnable afterAlongside;

    HostProgram(CpuSide cpu, List<HostPhase> phases, int kernels) {
        this.cpu = cpu;
        this.phases = phases;
        this.kernels = kernels;
    }

    /**
     * Runs the host work due before kernel {@code k} ({@code k == kernels}: the end of the program) and
     * then {@code then}; returns false (and does nothing) when there is none left to run for {@code k}.
     */
    boolean runBefore(int k, Runnable then) {
        if (cpu == null || k <= ranBefore) return false;
        if (alongsideRunning) { // the kernel ended first: the program waits at its synchronisation for the CPU's part
            afterAlongside = () -> runBefore(k, then);
            return true;
        }
        ranBefore = k;
        if (k > 0) cpu.runtimeEvent(CoherencePolicy.EVENT_KERNEL_COMPLETE, k - 1);
        List<HostPhase> due = CpuWiring.before(phases, k, kernels, false);
        if (k < kernels) {
            cpu.runPhases(due, () -> {
                cpu.runtimeEvent(CoherencePolicy.EVENT_KERNEL_LAUNCH, k);
                then.run();
            });
            return true;
        }
        cpu.runtimeEvent(CoherencePolicy.EVENT_GPU_WORK_FINISH, k);
        cpu.runPhases(due, () -> {
            cpu.runtimeEvent(CoherencePolicy.EVENT_PROGRAM_END, 0);
            then.run();
        });
        return true;
    }

    /** Kernel {@code k} has started: its alongside phases start on the CPU cores with it. */
    void startAlongside(int k) {
        if (cpu == null) return;
        List<HostPhase> due = CpuWiring.before(phases, k, kernels, true);
        if (due.isEmpty()) return;
        alongsideRunning = true;
        cpu.runPhases(due, () -> {
            alongsideRunning = false;
            Runnable next = afterAlongside;
            afterAlongside = null;
            if (next != null) next.run();
        });
    }
}
