package org.hmsim.platform.kernel.command;

import java.nio.file.Path;
import java.util.function.Function;
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
    private StudyExecution current;

    public SimKernel(PolicyRegistry policies, WorkloadRegistry workloads, Environment environment,
                     Function<RunSpec, RunResult> simulator) {
        this.policies = policies;
        this.workloads = workloads;
        this.environment = environment;
        this.runner = new StudyRunner(simulator, environment);
    }

    public PolicyRegistry policies() { return policies; }

    public WorkloadRegistry workloads() { return workloads; }

    public Environment environment() { return environment; }

    /** Parses and validates a study against the providers installed now. */
    public Study validate(Path studyFile) throws StudyException {
        return new StudyParser(policies, workloads).parse(studyFile);
    }

    /** Starts a study unless one is already running. */
    public synchronized StudyExecution start(Study study, RunOptions options, Progress progress) {
        if (current != null && !current.isDone())
            throw new IllegalStateException("study " + current.study().name() + " is still running (stop it with stop)");
        current = runner.start(study, options, progress);
        return current;
    }

    /** The study in progress, or the last one; null if none ran. */
    public synchronized StudyExecution current() { return current; }
}
