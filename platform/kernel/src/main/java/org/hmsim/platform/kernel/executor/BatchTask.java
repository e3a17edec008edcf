package org.hmsim.platform.kernel.executor;

import java.nio.file.Path;
import java.util.List;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.runner.Assembly;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunWorker;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/**
 * One array task of a batch execution ({@code hmsim run-task}): runs the runs of its chunk that have no
 * stats.json yet, one after the other, with the local executor's per-run code ({@link RunWorker}), into
 * the shared results folder. Tasks share no state but the folder: each writes only its own runs' files
 * (atomically), and the task that sees every run ended assembles runs.csv and study.json under a lock.
 * Rerunning a task is harmless (its finished runs are skipped), which is what a requeue does.
 */
public final class BatchTask {
    /** How a task ended: its exit code (0; 3 if one of its runs failed; 4 if the container stopped under a run) and the assembly, if it made one. */
    public record Outcome(int code, int ran, Assembly.Outcome assembly) {}

    private BatchTask() {}

    public static Outcome run(Study study, Path dir, int chunk, int index, RunWorker worker, Environment env, Progress progress) {
        int total = study.runs().size();
        if (index < 1 || index > JobFolder.tasks(total, chunk))
            throw new IllegalArgumentException("task " + index + " does not exist: " + total + " runs in tasks of " + chunk
                    + " make tasks 1.." + JobFolder.tasks(total, chunk));
        ResultsFolder results = new ResultsFolder(dir, study);
        List<Integer> mine = JobFolder.runsOfTask(index, chunk, total);
        String otherBuild = otherBuild(dir, env);
        if (otherBuild != null) return refuse(study, results, mine, otherBuild);
        int done = 0, ran = 0;
        boolean failed = false, aborted = false;
        for (int i : mine) if (results.complete(study.runs().get(i))) done++;
        progress.start(study, mine.size(), done);
        for (int i : mine) {
            PlannedRun run = study.runs().get(i);
            if (results.complete(run)) continue;
            long t0 = System.nanoTime();
            Throwable error;
            try {
                error = worker.run(study, run, results);
            } catch (org.hmsim.platform.kernel.results.ResultsWriteException unwritable) {
                // as a local run: the folder, not the run, is at fault; this run stays pending (no config.json left to
                // make it look begun, a review found) and the chunk's later ones too, for --resume
                results.unbegin(run);
                progress.close();
                throw unwritable;
            }
            if (error instanceof org.hmsim.platform.machine.RunAbortedException) { // terminated: this run and the later ones stay pending
                aborted = true;
                break;
            }
            failed |= error != null;
            ran++;
            progress.finished(run, error == null, error, System.nanoTime() - t0, ++done, mine.size());
            if (error != null && RunWorker.shuttingDown()) break; // terminated: the chunk's later runs stay pending
        }
        progress.close();
        // A terminated task leaves the assembly to the next task or to hmsim collect (its classes are going).
        Assembly.Outcome assembly = RunWorker.shuttingDown() ? null : Assembly.allEnded(study, dir) ? Assembly.assemble(study, dir, env) : null;
        if (assembly != null && !assembly.assembled()) assembly = null;
        return new Outcome(failed ? StudyExecution.FAILED_RUNS : aborted ? StudyExecution.STOPPED : StudyExecution.OK, ran, assembly);
    }

    /**
     * Why this task may not run its runs: hmsim was rebuilt or reinstalled while the job waited, so this build is not the
     * one the study was submitted with (study.json's), and its runs would sit beside the others' under one build's name
     * (a cluster trial's tasks released after a rebuild mixed two builds in one runs.csv). Null: the same build. Compared
     * as --resume compares it: the version and the commit it was built from.
     */
    static String otherBuild(Path dir, Environment env) {
        String differ = org.hmsim.platform.kernel.results.Provenance.buildDifference(dir, env);
        if (differ == null) return null;
        return "this task runs another hmsim build than the study was submitted with (" + differ + "; rebuilt or reinstalled"
                + " while the job waited): its runs would mix two builds' models in one study, so none was run; run the study again"
                + " into a new folder (--resume refuses a folder of another build)";
    }

    /** Each of the task's runs without a result fails with {@code why}; nothing is simulated and nothing assembled. */
    private static Outcome refuse(Study study, ResultsFolder results, List<Integer> mine, String why) {
        for (int i : mine) {
            PlannedRun run = study.runs().get(i);
            if (!results.complete(run)) results.failure(run, new IllegalStateException(why));
        }
        return new Outcome(StudyExecution.FAILED_RUNS, 0, null);
    }
}
