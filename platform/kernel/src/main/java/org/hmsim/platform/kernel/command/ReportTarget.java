package org.hmsim.platform.kernel.command;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.EarlierResults;

/**
 * Where {@code report} and {@code compare} may write report.html and figures/: a folder, or a path that can
 * become one, and never inside the parts of a results folder that hmsim owns (a report in runs/0001 would
 * make the folder refuse its next {@code run}).
 */
final class ReportTarget {
    private ReportTarget() {}

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
        return null;
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
