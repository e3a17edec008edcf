package org.hmsim.platform.kernel.command;

import java.awt.AWTError;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.results.FolderLock;
import org.hmsim.platform.kernel.results.ResultsFolderException;
import org.hmsim.platform.report.BadResultsException;
import org.hmsim.platform.report.Report;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code report RESULTS_DIR [--out DIR]}: report.html and figures/ from a results folder (docs/reports.md). */
@Command(name = "report", mixinStandardHelpOptions = true, description = "Writes report.html (self-contained) and figures/*.svg, *.png from a results folder.")
final class ReportCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "RESULTS_DIR", description = "a results folder (with runs.csv)")
    Path results;

    @Option(names = "--out", paramLabel = "DIR", description = "where to write report.html and figures/ (default: RESULTS_DIR)")
    Path out;

    @Option(names = "--figures", paramLabel = "STUDY", description = "draw the report: list of this study file (validated) instead of the one"
            + " the results recorded: a figure added or changed after the runs, without running them again")
    Path figures;

    ReportCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        Path dir = results.toAbsolutePath().normalize();
        Path to = out == null ? dir : out.toAbsolutePath().normalize();
        // as collect: a run writing there sets the folder's report aside when it starts and writes its own when it ends
        // (a report drawn meanwhile was mixed into its results or replaced; found by a bad-input review); checked first, as
        // a run that has set the earlier results aside leaves no runs.csv until its first run ends
        Path locked = ReportTarget.lockedBy(to);
        if (locked != null) {
            ctx.err().println(busy(locked));
            return Commands.BAD_INPUT;
        }
        if (!Files.isRegularFile(dir.resolve("runs.csv"))) {
            ctx.err().println("report: " + dir + " is not a results folder (no runs.csv)");
            return Commands.BAD_INPUT;
        }
        List<Object> drawn = null;
        if (figures != null) {
            try {
                drawn = figuresOf(dir);
            } catch (org.hmsim.platform.kernel.study.StudyException e) {
                ctx.err().println(e.getMessage());
                return Commands.BAD_INPUT;
            } catch (IllegalArgumentException e) {
                ctx.err().println("report: --figures " + figures + ": " + e.getMessage());
                return Commands.BAD_INPUT;
            }
        }
        String problem = out == null ? null : ReportTarget.problem(to, dir);
        if (problem != null) {
            ctx.err().println("report: " + problem);
            return Commands.BAD_INPUT;
        }
        Report.Summary s;
        String statusNow = FolderStatus.interrupted(dir); // before this command takes the lock below
        // into its own results folder the report holds the folder's lock while it writes, so that a run cannot start
        // there meanwhile and set its half-written figures aside (or keep them beside its own results)
        FolderLock lock = null;
        try {
            if (to.equals(dir)) lock = FolderLock.acquire(dir);
        } catch (ResultsFolderException cannot) {
            if (FolderLock.held(dir)) { // a run took it since the check above
                ctx.err().println(busy(dir));
                return Commands.BAD_INPUT;
            } // else the folder cannot take the lock file (read-only): the write below says so as it always did
        }
        try {
            s = write(dir, to, drawn, statusNow);
        } catch (BadResultsException bad) {
            ctx.err().println("report: " + bad.getMessage());
            return Commands.BAD_INPUT;
        } catch (UncheckedIOException io) {
            ctx.err().println("report: " + ReportTarget.failure(io));
            return Commands.BAD_INPUT; // report exits 0 or 2 (reports.md); a folder it cannot write is the --out given
        } finally {
            if (lock != null) lock.close();
        }
        for (String w : s.warnings()) ctx.err().println("warning: " + w);
        ctx.out().println("report: " + s.html() + " (" + s.figures() + " figures" + (s.failedRuns() > 0 ? ", " + s.failedRuns() + " failed runs" : "") + ")");
        return Commands.OK;
    }

    private static String busy(Path dir) { return ReportTarget.busy("report", dir); }

    /**
     * The report: list of the --figures study, validated as run would validate it (each figure against the runs the study
     * plans), for the results of that study: editing report: and running report again drew the recorded figures, and
     * --resume refused the edited file (a paper-figures trial).
     */
    private List<Object> figuresOf(Path dir) throws org.hmsim.platform.kernel.study.StudyException {
        org.hmsim.platform.kernel.study.Study s = ctx.kernel().validate(figures);
        String recorded = org.hmsim.platform.kernel.results.Provenance.recordedStudy(dir);
        if (recorded != null && !recorded.equals(s.name()))
            throw new IllegalArgumentException("it is study " + s.name() + ", the results are study " + recorded + "'s");
        if (s.report().isEmpty()) throw new IllegalArgumentException("it has no report: list (the default figures need no --figures)");
        // an edited sweep or workload list draws nothing new: the figures are the folder's runs (a newcomer expected otherwise)
        String shape = org.hmsim.platform.kernel.results.Provenance.recordedShape(dir);
        if (shape != null && !shape.equals(s.shape()))
            ctx.err().println("note: " + figures + " now plans " + s.shape() + "; " + dir + " holds " + shape
                    + ": the figures draw the runs the folder holds (run the study to get the others)");
        return s.report();
    }

    /**
     * Draws the report with the kernel bundle's class loader as the thread's context loader: AWT and
     * ImageIO look services up through it, and a Gogo or worker thread may carry another one.
     */
    static Report.Summary write(Path dir, Path out) { return write(dir, out, null, null); }

    /**
     * {@code figures}: a report: list in place of the recorded one (null: the recorded one); {@code statusNow}: the study's
     * status in place of study.json's, which a killed execution left "running" (null: study.json's).
     */
    static Report.Summary write(Path dir, Path out, List<Object> figures, String statusNow) {
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(ReportCommand.class.getClassLoader());
        try {
            return Report.write(dir, out, figures, statusNow);
        } finally {
            t.setContextClassLoader(before);
        }
    }

    /**
     * The report written at the end of {@code hmsim run}: a problem drawing it is a warning, never a
     * change of the study's exit code (the results are complete without it).
     */
    static void afterRun(Path dir, PrintStream o, PrintStream e) {
        if (!Files.isRegularFile(dir.resolve("runs.csv"))) return;
        // under the folder's lock, as sim:report takes it: a report command or a new run in the same folder meanwhile
        // mixed its figures with these (a review saw fig-05's .tmp vanish and report.html missing)
        String statusNow = FolderStatus.interrupted(dir); // this execution's study.json may not have been rewritten
        FolderLock lock = null;
        try {
            lock = FolderLock.acquire(dir);
        } catch (ResultsFolderException busy) {
            if (FolderLock.held(dir)) {
                e.println("warning: no report written: " + dir + " is in use by another command since the study ended (hmsim report " + dir + " writes it)");
                return;
            } // else a folder that takes no lock file (read-only): the write below says why
        }
        try {
            Report.Summary s = write(dir, dir, null, statusNow);
            for (String w : s.warnings()) e.println("warning: report: " + w);
            o.println("report: " + s.html());
        } catch (RuntimeException | LinkageError | AWTError ex) {
            e.println("warning: the report could not be written (hmsim report " + dir + " retries): " + ex);
        } finally {
            if (lock != null) lock.close();
        }
        o.flush();
    }
}
