package org.hmsim.platform.kernel.runner;

import org.hmsim.platform.kernel.results.SwapFiles;
import java.util.function.Function;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.results.ResultsWriteException;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.machine.RunAbortedException;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;

/**
 * One run of a study, start to finish, into its results folder: config.json, the simulation, then
 * timeseries.csv and stats.json (or error.txt). Every executor runs its runs through this class — the
 * local threads and a batch scheduler's array tasks alike — so a run's files do not depend on where it ran.
 */
public final class RunWorker {
    private final Function<RunSpec, RunResult> simulator;

    public RunWorker(Function<RunSpec, RunResult> simulator) { this.simulator = simulator; }

    /**
     * Runs one simulation and writes its files; returns its error, or null on success. A run the container
     * stopped under ({@link RunAbortedException}) writes no error: it is returned as is and done again by --resume.
     * A results file that cannot be written ({@link ResultsWriteException}: a full disk, a read-only folder) is thrown,
     * not returned: the folder is at fault, not the run, and no error.txt could say so anyway.
     */
    public Throwable run(Study study, PlannedRun planned, ResultsFolder results) {
        PlannedRun run = planned;
        try {
            for (int attempt = 1; ; attempt++) {
                run = PoliciesAtStart.of(planned); // before config.json: it records the bundles the run starts with
                try {
                    simulate(study, run, results);
                    return null;
                } catch (PoliciesAtStart.LeftDuringSetUp left) {
                    // a policy's bundle left while the run was set up, before anything was simulated: checked once more from
                    // the start, as if it had left before (a jar updated to the same version is taken, else the run fails)
                    if (attempt == 2) throw left;
                }
            }
        } catch (RunAbortedException stopped) {
            return stopped;
        } catch (ResultsWriteException unwritable) {
            throw unwritable;
        } catch (Throwable t) {
            // Anything a policy, workload or model throws fails this run only (DESIGN §9).
            // SIGTERM (scancel, a scheduler's time limit, Ctrl-C) stops the container under a running
            // simulation, which then dies of a NoClassDefFoundError: record what really happened.
            if (shuttingDown())
                t = new IllegalStateException("interrupted: the process was terminated while this run was in progress"
                        + " (scancel, a time limit, Ctrl-C); hmsim run --resume runs it again", t);
            try {
                results.failure(run, t);
            } catch (ResultsWriteException unwritable) { // the run's error cannot be kept: it stays to be run again
                unwritable.addSuppressed(t);
                throw unwritable;
            } catch (RuntimeException e) {
                t.addSuppressed(e);
            }
            return t;
        }
    }

    /** Simulates {@code run} with its policies as installed now and writes its files. */
    private void simulate(Study study, PlannedRun run, ResultsFolder results) {
        results.begin(run);
        Workload workload = run.workload().create(run.seed());
        // the same swaps config.json records; swap targets are checked against the workload's allocations, as at validation
        LivePolicies policies = new LivePolicies(study, run, results.replayOf(run),
                workload.allocations().stream().map(org.hmsim.api.workload.AllocationSpec::name).toList());
        RunSpec spec = new RunSpec(run.id(), run.machine().config(), workload, policies, run.seed(),
                study.epochPs(), study.maxTimePs());
        RunResult r;
        try {
            r = simulator.apply(spec);
        } finally {
            SwapFiles.write(results.runDir(run), policies.records());
        }
        if (r == null) throw new IllegalStateException("the simulator returned no result");
        if (!study.statistics().isEmpty()) addStatistics(study.listedStatistics(), r);
        results.success(run, r);
    }

    /**
     * The study's {@code statistics:} as metrics of the run (runs.csv columns), by name: a name or pattern matching no
     * statistic of this run adds nothing (its cells stay empty; a policy another run has registers its own), and a name
     * the run's metrics have already keeps the metric's value.
     */
    static void addStatistics(java.util.function.Predicate<String> listed, RunResult r) {
        for (var e : r.stats().entrySet())
            if (!r.metrics().containsKey(e.getKey()) && listed.test(e.getKey())) r.metrics().put(e.getKey(), e.getValue());
    }

    /**
     * Whether the JVM is shutting down (a shutdown hook can no longer be added then). Only JDK classes
     * here: the bundle's class loader may already be gone.
     */
    public static boolean shuttingDown() {
        Thread probe = new Thread();
        try {
            Runtime.getRuntime().addShutdownHook(probe);
            Runtime.getRuntime().removeShutdownHook(probe);
            return false;
        } catch (IllegalStateException e) {
            return true;
        }
    }
}
