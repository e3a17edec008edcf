package org.hmsim.platform.kernel.command;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.EarlierResults;
import org.hmsim.platform.kernel.results.FolderLock;
import org.hmsim.platform.report.Report;

/**
 * Where {@code report} and {@code compare} may write report.html and figures/: a folder, or a path that can
 * become one, and never inside the parts of a results folder that hmsim owns (a report in runs/0001 would
 * make the folder refuse its next {@code run}).
 */
final class ReportTarget {
    private ReportTarget() {}

    /**
     * The results folder a running study holds locked that a report into {@code out} would write into, or null. A run
     * sets its folder's report aside when it starts and writes its own when it ends, so a page drawn into it meanwhile is
     * mixed into its results or replaced (found by a bad-input review); {@code compare}'s default {@code DIR_B/compare}
     * lies inside DIR_B, so the folder just above {@code out} counts too.
     */
    static Path lockedBy(Path out) {
        if (FolderLock.held(out)) return out;
        Path above = out.getParent();
        return above != null && FolderLock.held(above) ? above : null;
    }

    /** The one line that refuses to write a report into a folder a run holds, in collect's words. */
    static String busy(String command, Path folder) {
        return command + ": an hmsim run is writing into " + folder + " right now (it holds " + FolderLock.NAME
                + "); nothing was written: draw the " + ("compare".equals(command) ? "comparison" : "report") + " there once that run has ended, or into another --out";
    }

    /** Why {@code out} cannot take a report, or null; checked before anything is written. */
    static String problem(Path out, Path... sources) {
        String inside = EarlierResults.insideAnother(out);
        if (inside != null) return "--out: " + inside;
        // another results folder's report.html and figures/ would be replaced and mixed with these (found by a review)
        if (!java.util.Arrays.asList(sources).contains(out) && (Files.exists(out.resolve("runs.csv")) || Files.exists(out.resolve("study.json"))))
            return "--out: " + out + " is another results folder (it has " + (Files.exists(out.resolve("runs.csv")) ? "runs.csv" : "study.json")
                    + "); its report would be replaced: choose another --out";
        for (Path a = out; a != null; a = a.getParent()) {
            if (!Files.exists(a)) continue;
            if (!Files.isDirectory(a)) return "--out: " + a + " is a file, not a folder; choose another --out";
            break;
        }
        return java.util.Arrays.asList(sources).contains(out) ? null : notOurs(out);
    }

    /**
     * A page or figures of the user's that the report would replace or delete: report.html without hmsim's mark, a
     * file named figures, or figure-named files in figures/ with no report of hmsim's beside them (found by an audit:
     * {@code --out} into an ordinary folder overwrote the user's report.html and deleted their fig-*.png).
     */
    private static String notOurs(Path out) {
        Path html = out.resolve(Report.HTML), figures = out.resolve(Report.FIGURES);
        boolean ours = Files.isRegularFile(html) && Report.isOwnPage(html);
        if (Files.exists(html) && !ours)
            return "--out: " + html + " is not a report hmsim wrote; it would be replaced: move it or choose another --out";
        if (Files.exists(figures) && !Files.isDirectory(figures))
            return "--out: " + figures + " is a file, not a folder; the report writes its figures there: choose another --out";
        if (!ours && Files.isDirectory(figures)) {
            String theirs;
            try {
                theirs = firstFigureFile(figures);
            } catch (UncheckedIOException e) { // an unreadable figures/: named, not an internal error
                return "--out: " + figures + " cannot be read (" + (e.getCause() instanceof java.nio.file.AccessDeniedException
                        ? "permission denied" : e.getCause().getMessage()) + "); choose another --out";
            }
            if (theirs != null)
                return "--out: " + figures.resolve(theirs) + " was not written by an hmsim report (no report.html of hmsim's beside it); "
                        + "the report would replace or delete it: move it or choose another --out";
        }
        return null;
    }

    private static String firstFigureFile(Path figures) {
        try (java.util.stream.Stream<Path> files = Files.list(figures)) {
            return files.map(p -> p.getFileName().toString()).filter(Report::isFigureFile).sorted().findFirst().orElse(null);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A write that failed half-way (disk full, permissions): the reason in one line, no stack trace. */
    static String failure(UncheckedIOException ex) {
        Throwable c = ex.getCause() != null ? ex.getCause() : ex;
        String m = c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
        if (c instanceof java.nio.file.FileSystemException fs) // AccessDeniedException has no reason: its message is the path alone
            m = fs.getFile() + ": " + (fs.getReason() != null ? fs.getReason()
                    : c instanceof java.nio.file.AccessDeniedException ? "permission denied"
                    : c instanceof java.nio.file.NoSuchFileException ? "no such file or folder" : c.getClass().getSimpleName());
        return "cannot write the report: " + m;
    }
}
