package org.hmsim.platform.kernel.runner;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.hmsim.platform.kernel.study.Study;

/**
 * A study being run (or last run): the state of each run, cancellation, and the exit code once done.
 * {@link #stop()} lets the running simulations finish and starts no new one.
 */
public final class StudyExecution {
    /** Exit codes of {@code hmsim run}; UNWRITABLE is that of an --out that cannot be written before anything ran. */
    public static final int OK = 0, UNWRITABLE = 2, FAILED_RUNS = 3, STOPPED = 4;

    private final Study study;
    private final Path out;
    private final AtomicReferenceArray<RunState> states;
    private final AtomicBoolean stopRequested = new AtomicBoolean();
    private final CountDownLatch done = new CountDownLatch(1);
    private final Instant started = Instant.now();
    private volatile Instant ended;
    private volatile Throwable crash;
    private final List<String> notes = new CopyOnWriteArrayList<>();
    /** What the shell's {@code sim:run} does once the study has ended (its summary and report), or null. */
    private volatile Thread afterRun;

    /** The results folder whose swaps this execution replays ({@code --replay-swaps}), or null. */
    private final String replaySource;

    StudyExecution(Study study, Path out, String replaySource) {
        this.study = study;
        this.out = out;
        this.replaySource = replaySource;
        this.states = new AtomicReferenceArray<>(study.runs().size());
        for (int i = 0; i < states.length(); i++) states.set(i, RunState.PENDING);
    }

    public Study study() { return study; }

    public Path out() { return out; }

    public String replaySource() { return replaySource; }

    public Instant started() { return started; }

    /** What preparing the results folder did (earlier results set aside, damaged files redone): lines to show. */
    public List<String> notes() { return notes; }

    public RunState state(int runIndex) { return states.get(runIndex); }

    void set(int runIndex, RunState s) { states.set(runIndex, s); }

    /** Asks the study to stop after the runs in flight; returns false if it had already ended. */
    public boolean stop() {
        stopRequested.set(true);
        return !isDone();
    }

    public boolean stopRequested() { return stopRequested.get(); }

    private volatile boolean interrupted;

    /** Whether the container stopped under this study (its runs in flight were aborted), as opposed to a sim:stop. */
    public boolean interrupted() { return interrupted; }

    /** A run of this study was aborted because the container is stopping (its bundles may leave before the kernel). */
    void interruptedByShutdown() {
        interrupted = true;
        stop();
    }

    /**
     * {@link #stop()}, and the runs in flight end at their next safe point without a result (the container is
     * stopping: their code is going away); they are left for --resume. Returns false if the study had already ended.
     */
    public boolean abort() {
        boolean inFlight = stop();
        if (inFlight) interrupted = true; // a study that had ended long before keeps its own exit code
        LiveSwaps.abortAll();
        return inFlight;
    }

    public boolean isDone() { return done.getCount() == 0; }

    private final java.util.concurrent.atomic.AtomicReference<org.hmsim.platform.kernel.results.ResultsWriteException> unwritable =
            new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * The results folder could not be written: no run starts after this, and the first such error is the one reported
     * (the workers still writing meet the same full disk).
     */
    void unwritable(org.hmsim.platform.kernel.results.ResultsWriteException e) { unwritable.compareAndSet(null, e); }

    /** The write that stopped the study because its results folder could not be written, or null. */
    public org.hmsim.platform.kernel.results.ResultsWriteException unwritable() { return unwritable.get(); }

    void finish(Throwable crash) {
        this.crash = crash;
        this.ended = Instant.now();
        done.countDown();
    }

    public Instant ended() { return ended; }

    /** Waits for the end; returns 0 if every run succeeded, 3 if some failed, 4 if stopped early, 2 if the folder could not be written. */
    public int await() throws InterruptedException {
        done.await();
        return exitCode();
    }

    /**
     * {@code t} writes the summary and report once this execution has ended ({@code sim:run} in the background): a shell
     * script ending right after {@code sim:await} closed the framework while the report was being drawn, and no report
     * was written (found by a design review).
     */
    public void afterRun(Thread t) { afterRun = t; }

    /** Waits for the work {@link #afterRun} named, if any, at most {@code millis} (0: without limit); returns whether it is done. */
    public boolean awaitAfterRun(long millis) throws InterruptedException {
        Thread t = afterRun;
        if (t == null) return true;
        t.join(millis);
        return !t.isAlive();
    }

    /** Waits at most {@code timeout} for the end; returns whether it came. */
    public boolean await(long timeout, TimeUnit unit) throws InterruptedException { return done.await(timeout, unit); }

    public int exitCode() {
        if (crash != null) return 1;
        if (unwritable() != null) return UNWRITABLE;
        if (count(RunState.FAILED) > 0) return FAILED_RUNS;
        if (count(RunState.PENDING) > 0 || count(RunState.RUNNING) > 0) return STOPPED;
        return OK;
    }

    /** Why the execution itself (not a run) broke, or null. */
    public Throwable crash() { return crash; }

    public int count(RunState s) {
        int n = 0;
        for (int i = 0; i < states.length(); i++) if (states.get(i) == s) n++;
        return n;
    }

    /** {@code 7 done, 1 failed, 2 running, 2 pending}. */
    public String summary() {
        int done = count(RunState.DONE) + count(RunState.RESUMED);
        return done + " done, " + count(RunState.FAILED) + " failed, " + count(RunState.RUNNING) + " running, "
                + count(RunState.PENDING) + " pending";
    }
}
