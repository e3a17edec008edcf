package org.hmsim.platform.kernel.runner;

import java.io.PrintStream;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/**
 * A terminal progress bar with ETA (me.tongfei:progressbar, embedded in the kernel bundle). We give it
 * the width ourselves so it never opens a jline terminal; it still needs jline's character-width table
 * ({@code org.jline.utils}, from the {@code org.jline} bundle, an optional import). Without jline the
 * study reports plain lines with an ETA instead. Failed runs are printed above the bar as they happen.
 */
public final class BarProgress implements Progress {
    private final PrintStream out;
    private final int width;
    private ProgressBar bar;
    private int failed;

    public BarProgress(PrintStream out, int width) {
        this.out = out;
        this.width = width;
    }

    /** A bar if the library loads here, else plain lines. */
    public static Progress create(PrintStream out) {
        int width = 100;
        try {
            String cols = System.getenv("COLUMNS");
            if (cols != null) width = Math.max(40, Integer.parseInt(cols.trim()));
        } catch (NumberFormatException ignored) {
            // keep the default
        }
        try {
            Class.forName("me.tongfei.progressbar.ProgressBar", true, BarProgress.class.getClassLoader());
            Class.forName("org.jline.utils.WCWidth", true, BarProgress.class.getClassLoader());
            return new BarProgress(out, width);
        } catch (ClassNotFoundException | LinkageError e) {
            return new LineProgress(out, true);
        }
    }

    @Override
    public synchronized void note(String line) {
        out.println(line);
        out.flush();
    }

    @Override
    public synchronized void start(Study study, int total, int alreadyDone) {
        out.println("study " + study.name() + ": " + study.shape()
                + (alreadyDone > 0 ? " (" + alreadyDone + " already done, resuming)" : ""));
        bar = new ProgressBarBuilder()
                .setTaskName(study.name())
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUnit(" runs", 1)
                .setUpdateIntervalMillis(500)
                .setConsumer(new ConsoleProgressBarConsumer(out, width))
                .build();
        bar.stepTo(alreadyDone);
    }

    @Override
    public synchronized void finished(PlannedRun run, boolean ok, Throwable error, long wallNanos, int done, int total) {
        if (bar == null) return;
        if (!ok) {
            failed++;
            out.print("\r");
            out.println(LineProgress.line(run, ok, error, wallNanos, done, total));
            bar.setExtraMessage(failed + " failed");
        }
        bar.stepTo(done);
    }

    @Override
    public synchronized void close() {
        if (bar != null) bar.close();
        bar = null;
    }
}
