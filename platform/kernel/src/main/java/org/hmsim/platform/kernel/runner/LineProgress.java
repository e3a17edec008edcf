package org.hmsim.platform.kernel.runner;

import java.io.PrintStream;
import java.util.Locale;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/** One plain line per finished run, for logs and pipes: {@code [3/12] 0003 stream placement=ratio ok 1.2s}. */
public final class LineProgress implements Progress {
    private final PrintStream out;

    public LineProgress(PrintStream out) { this.out = out; }

    @Override
    public synchronized void start(Study study, int total, int alreadyDone) {
        out.println("study " + study.name() + ": " + study.shape()
                + (alreadyDone > 0 ? " (" + alreadyDone + " already done, resuming)" : ""));
        out.flush();
    }

    @Override
    public synchronized void finished(PlannedRun run, boolean ok, Throwable error, long wallNanos, int done, int total) {
        out.println(line(run, ok, error, wallNanos, done, total));
        out.flush();
    }

    static String line(PlannedRun run, boolean ok, Throwable error, long wallNanos, int done, int total) {
        String s = String.format(Locale.ROOT, "[%d/%d] %s %s %s %.1fs", done, total, run.id(), run.label(), ok ? "ok" : "FAILED", wallNanos / 1e9);
        if (!ok && error != null) s += ": " + error.getClass().getSimpleName() + (error.getMessage() == null ? "" : ": " + error.getMessage());
        return s;
    }
}
