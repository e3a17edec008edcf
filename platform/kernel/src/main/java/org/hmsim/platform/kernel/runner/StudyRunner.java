package org.hmsim.platform.kernel.runner;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.hmsim.platform.kernel.results.EarlierResults;
import org.hmsim.platform.kernel.results.FolderLock;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.Provenance;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.results.ResultsFolderException;
import org.hmsim.platform.kernel.results.ResultsWriteException;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;

/**
 * Runs the planned runs of a validated study on {@code --jobs} threads, each simulation single-threaded
 * on its own thread (DESIGN §8). A run that throws fails alone: its stack trace goes to error.txt and the
 * others go on. A results folder that cannot be written (a full disk) stops the study instead: the runs not written
 * stay pending, for --resume. Results do not depend on the thread count: each run is seeded by its plan and runs.csv
 * is rebuilt in run order from the files on disk.
 */
public final class StudyRunner {
    private final RunWorker worker;
    private final Environment environment;

    /** @param simulator runs one simulation ({@code Simulation::run}; tests pass a fake) */
    public StudyRunner(Function<RunSpec, RunResult> simulator, Environment environment) {
        this.worker = new RunWorker(simulator);
        this.environment = environment;
    }

    /**
     * Prepares the results folder, then starts the study in the background; {@link StudyExecution#await()}
     * waits for its end. A folder that cannot be used throws {@link ResultsFolderException} before anything ran.
     */
    public StudyExecution start(Study study, RunOptions options, Progress progress) {
        StudyExecution ex = new StudyExecution(study, options.out(), options.replaySource());
        ResultsFolder results = new ResultsFolder(options.out(), study, options.replay());
        FolderLock lock = FolderLock.acquire(options.out());
        List<PlannedRun> todo = prepareLocked(ex, results, options, lock);
        Thread t = new Thread(() -> execute(ex, results, todo, options.jobs(), progress, lock), "hmsim-study-" + study.name());
        t.setDaemon(true);
        t.start();
        return ex;
    }

    /** Runs the study on the calling thread plus workers; returns the exit code. */
    public int run(Study study, RunOptions options, Progress progress) throws InterruptedException {
        StudyExecution ex = new StudyExecution(study, options.out(), options.replaySource());
        ResultsFolder results = new ResultsFolder(options.out(), study, options.replay());
        FolderLock lock = FolderLock.acquire(options.out());
        execute(ex, results, prepareLocked(ex, results, options, lock), options.jobs(), progress, lock);
        return ex.await();
    }

    /** {@link #prepare} under the folder's lock, which is released if preparing fails. */
    private static List<PlannedRun> prepareLocked(StudyExecution ex, ResultsFolder results, RunOptions options, FolderLock lock) {
        try {
            // under the lock, before anything moves: nothing can start writing between the guard's answer and the work
            String refused = options.folderGuard() == null ? null : options.folderGuard().apply(results.dir());
            if (refused != null) throw new org.hmsim.platform.kernel.results.ResultsFolderException(refused);
            return prepare(ex, results, options.resume());
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    /**
     * Before the execution's thread starts, so that what goes wrong here is reported as a bad folder and
     * not recorded as a crash in study.json: sets earlier results aside (or, resuming, reads back the runs
     * they completed) and returns the runs to do.
     */
    private static List<PlannedRun> prepare(StudyExecution ex, ResultsFolder results, boolean resume) {
        // the folder exists and is writable: taking its lock made sure of that
        ex.notes().addAll(EarlierResults.prepare(results.dir(), resume));
        if (resume) ex.notes().addAll(results.loadCompleted());
        List<PlannedRun> todo = new ArrayList<>();
        for (PlannedRun r : ex.study().runs()) {
            if (resume && results.complete(r)) ex.set(r.index(), RunState.RESUMED);
            else todo.add(r);
        }
        return todo;
    }

    /** Runs {@code todo}; releases {@code lock} before the execution counts as ended, so whoever waits for it finds the folder free. */
    private void execute(StudyExecution ex, ResultsFolder results, List<PlannedRun> todo, int maxJobs, Progress progress, FolderLock lock) {
        Study study = ex.study();
        Throwable crash = null;
        try {
            int total = study.runs().size();
            AtomicInteger finished = new AtomicInteger(total - todo.size());
            for (String note : ex.notes()) progress.note(note);
            Provenance.write(ex.out(), study, environment, ex.started(), null, "running", ex.replaySource());
            results.writeTable();
            progress.start(study, total, finished.get());
            AtomicInteger next = new AtomicInteger();
            int jobs = Math.min(maxJobs, Math.max(1, todo.size()));
            List<Thread> workers = new ArrayList<>();
            for (int j = 0; j < jobs; j++) {
                Thread w = new Thread(() -> work(ex, todo, next, finished, results, progress), "hmsim-run-" + (j + 1));
                w.setDaemon(true);
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) w.join();
            if (ex.unwritable() == null) results.writeTable(); // else it failed already: --resume rebuilds it from runs/
        } catch (ResultsWriteException unwritable) { // study.json or runs.csv at the start: the folder filled since it was checked
            ex.unwritable(unwritable);
        } catch (Throwable t) {
            crash = t;
        } finally {
            progress.close();
            try {
                Provenance.write(ex.out(), study, environment, ex.started(), Instant.now(), endStatus(ex, crash), ex.replaySource());
            } catch (ResultsWriteException unwritable) {
                // study.json stays "running"; no process holds the folder any more, which status and report tell apart
                ex.unwritable(unwritable);
            } catch (RuntimeException e) {
                if (crash == null) crash = e;
            }
            lock.close(); // before finish: a next command waiting for this execution must find the folder free
            ex.finish(crash);
        }
    }

    /** study.json's status at the end; a folder that could not be written says which file and why, as the console does. */
    private static String endStatus(StudyExecution ex, Throwable crash) {
        if (crash != null) return "crashed: " + crash;
        if (ex.unwritable() != null) return "stopped: " + ex.unwritable().getMessage();
        return ex.stopRequested() ? "stopped" : "finished";
    }

    private void work(StudyExecution ex, List<PlannedRun> todo, AtomicInteger next, AtomicInteger finished,
                      ResultsFolder results, Progress progress) {
        while (!ex.stopRequested() && ex.unwritable() == null) {
            int i = next.getAndIncrement();
            if (i >= todo.size()) return;
            PlannedRun run = todo.get(i);
            ex.set(run.index(), RunState.RUNNING);
            long t0 = System.nanoTime();
            Throwable error;
            try {
                error = worker.run(ex.study(), run, results);
            } catch (ResultsWriteException unwritable) {
                // the folder, not the run, is at fault: every later run would fail the same way (a full disk marked 14 runs
                // FAILED in 0.0 s); this one stays pending for --resume, and no other starts
                results.unbegin(run);
                ex.set(run.index(), RunState.PENDING);
                ex.unwritable(unwritable);
                return;
            }
            if (error instanceof org.hmsim.platform.machine.RunAbortedException) { // the container is stopping: no row, --resume redoes it
                ex.interruptedByShutdown(); // even if the kernel has not asked yet (bundles leave before it): study.json says "stopped"
                ex.set(run.index(), RunState.PENDING);
                return;
            }
            try {
                results.finished(run);
            } catch (ResultsWriteException unwritable) { // runs.csv: the run's own files are whole, --resume rebuilds the table
                ex.unwritable(unwritable);
            } catch (RuntimeException e) {
                if (error == null) error = e;
            }
            ex.set(run.index(), error == null ? RunState.DONE : RunState.FAILED);
            progress.finished(run, error == null, error, System.nanoTime() - t0, finished.incrementAndGet(), ex.study().runs().size());
        }
    }
}
