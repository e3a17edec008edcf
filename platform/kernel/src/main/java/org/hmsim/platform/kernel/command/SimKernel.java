package org.hmsim.platform.kernel.command;

import java.nio.file.Path;
import java.util.function.Function;
import org.hmsim.api.executor.BatchScheduler;
import org.hmsim.platform.kernel.executor.BatchExecutor;
import org.hmsim.platform.kernel.executor.ExecutorRegistry;
import org.hmsim.platform.kernel.executor.LocalExecutor;
import org.hmsim.platform.kernel.executor.StudyExecutor;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.runner.StudyRunner;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;

/**
 * The kernel as the commands see it: the registries, the simulator, and the study in progress (one at a
 * time, so {@code status} and {@code stop} have one subject). Plain Java; the OSGi components wire it.
 */
public final class SimKernel {
    private final PolicyRegistry policies;
    private final WorkloadRegistry workloads;
    private final Environment environment;
    private final StudyRunner runner;
    private final Function<RunSpec, RunResult> simulator;
    private final ExecutorRegistry executors;
    private StudyExecution current;
    /** Set when the container stops under a running command (Ctrl-C, the shell's end): no report, a short note. */
    private volatile boolean closing;

    public SimKernel(PolicyRegistry policies, WorkloadRegistry workloads, Environment environment,
                     Function<RunSpec, RunResult> simulator) {
        this(policies, workloads, environment, simulator, new ExecutorRegistry());
    }

    /** @param executors the batch schedulers besides {@code local} (Slurm built in, bundles' own added) */
    public SimKernel(PolicyRegistry policies, WorkloadRegistry workloads, Environment environment,
                     Function<RunSpec, RunResult> simulator, ExecutorRegistry executors) {
        this.policies = policies;
        this.workloads = workloads;
        this.environment = environment;
        this.simulator = simulator;
        this.executors = executors;
        this.runner = new StudyRunner(simulator, environment);
    }

    /** Runs one simulation (what every executor's runs call). */
    public Function<RunSpec, RunResult> simulator() { return simulator; }

    public ExecutorRegistry executors() { return executors; }

    /**
     * The executor named {@code name} ({@code local}, {@code slurm}, or a bundle's scheduler); its tasks
     * run {@code bin/hmsim} of the installation named by {@code -Dhmsim.home}. Null if there is none.
     */
    public StudyExecutor executor(String name) {
        if (LocalExecutor.NAME.equals(name)) return new LocalExecutor(this::start);
        BatchScheduler s = executors.scheduler(name);
        String home = System.getProperty("hmsim.home");
        return s == null ? null : new BatchExecutor(s, environment, home == null || home.isBlank() ? null : Path.of(home));
    }

    public PolicyRegistry policies() { return policies; }

    public WorkloadRegistry workloads() { return workloads; }

    public Environment environment() { return environment; }

    /** Parses and validates a study against the providers installed now. */
    public Study validate(Path studyFile) throws StudyException {
        return new StudyParser(policies, workloads).parse(studyFile);
    }

    /** Parses and validates a copy of a study as the original named {@code display} (batch tasks). */
    public Study validate(Path studyFile, String display) throws StudyException {
        return new StudyParser(policies, workloads).parse(studyFile, display);
    }

    /**
     * As {@link #validate(Path, String)} for a study whose runs began under an earlier version ({@code --resume},
     * {@code collect}): report figures, and a sweep of an overridden field, are read as that version accepted them, so
     * a rule added since does not lock the folder (editing the study would change its hash, which the folder refuses).
     */
    public Study validateBegun(Path studyFile, String display) throws StudyException {
        return new StudyParser(policies, workloads).forBegunStudy().parse(studyFile, display);
    }

    /** Starts a study unless one is already running. */
    public synchronized StudyExecution start(Study study, RunOptions options, Progress progress) {
        if (current != null && !current.isDone())
            throw new IllegalStateException("study " + current.study().name() + " is still running (stop it with stop)");
        current = runner.start(study, options, progress);
        return current;
    }

    /** The container is stopping: commands still running wind down quietly. */
    public void markClosing() { closing = true; }

    public boolean closing() { return closing; }

    /** The study in progress, or the last one; null if none ran. */
    public synchronized StudyExecution current() { return current; }
}
