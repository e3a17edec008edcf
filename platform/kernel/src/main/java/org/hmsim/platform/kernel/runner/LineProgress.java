package org.hmsim.platform.kernel.runner;

import java.io.PrintStream;
import java.util.Locale;
import org.hmsim.platform.traces.TraceException;
import org.hmsim.platform.workloads.file.WorkloadFileException;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/**
 * One plain line per finished run, for logs and pipes: {@code [3/12] 0003 stream placement=ratio ok 1.2s};
 * with {@code eta}, the estimated time left is appended (the fallback when the terminal bar cannot load).
 */
public final class LineProgress implements Progress {
    private final PrintStream out;
    private final boolean eta;
    private long startNanos;
    private int startDone;

    public LineProgress(PrintStream out) { this(out, false); }

    public LineProgress(PrintStream out, boolean eta) {
        this.out = out;
        this.eta = eta;
    }

    @Override
    public synchronized void note(String line) {
        out.println(line);
        out.flush();
    }

    @Override
    public synchronized void start(Study study, int total, int alreadyDone) {
        startNanos = System.nanoTime();
        startDone = alreadyDone;
        out.println("study " + study.name() + ": " + study.shape()
                + (alreadyDone > 0 ? " (" + alreadyDone + " already done, resuming)" : ""));
        out.flush();
    }

    @Override
    public synchronized void finished(PlannedRun run, boolean ok, Throwable error, long wallNanos, int done, int total) {
        String l = line(run, ok, error, wallNanos, done, total);
        if (eta && done > startDone && done < total) {
            // Runs finished in this execution so far predict the rest (all jobs busy).
            long left = (System.nanoTime() - startNanos) / (done - startDone) * (total - done) / 1_000_000_000L;
            l += String.format(Locale.ROOT, "  ETA %d:%02d:%02d", left / 3600, left / 60 % 60, left % 60);
        }
        out.println(l);
        out.flush();
    }

    static String line(PlannedRun run, boolean ok, Throwable error, long wallNanos, int done, int total) {
        String s = String.format(Locale.ROOT, "[%d/%d] %s %s %s %.1fs", done, total, run.id(), run.label(), ok ? "ok" : "FAILED", wallNanos / 1e9);
        if (!ok && error != null) s += ": " + describe(error);
        return s;
    }

    /**
     * A failed run's cause in one line. Errors in the user's input found only while running (a workload
     * file's expression dividing by zero, a trace damaged past its header) carry file:line: field: in their
     * message and need no Java class name; anything else is named by its class.
     */
    static String describe(Throwable error) {
        if ((error instanceof WorkloadFileException || error instanceof TraceException
                || error instanceof PoliciesAtStart.PolicyUninstalledException) && error.getMessage() != null)
            return error.getMessage();
        return error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
    }
}
