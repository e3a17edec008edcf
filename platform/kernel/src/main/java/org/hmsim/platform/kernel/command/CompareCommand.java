package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hmsim.platform.report.BadResultsException;
import org.hmsim.platform.report.Compare;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code compare DIR_A DIR_B [--tolerance 0.02] [--out DIR]}: both folders' figures side by side and a table
 * of per-run, per-metric differences. Exit code 0: nothing moved beyond the tolerance; 1: something moved
 * (a metric, a run's status, a run present on one side only); 2: bad input.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, description = "Compares two results folders: figures side by side, differences beyond a tolerance flagged. "
        + "Exit code 0 = nothing moved, 1 = something moved, 2 = bad input.")
final class CompareCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "DIR_A", description = "the reference results folder (before)")
    Path a;

    @Parameters(index = "1", paramLabel = "DIR_B", description = "the results folder to compare with it (after)")
    Path b;

    @Option(names = "--tolerance", paramLabel = "REL", converter = Fraction.class,
            description = "relative change that counts as moved: 0.02 or 2%% (the default)")
    double tolerance = Compare.DEFAULT_TOLERANCE;

    /** A fraction as a number or a percentage ({@code 5%} = 0.05), as study files write them (a trial's {@code --tolerance 5%} was "not a double"). */
    static final class Fraction implements picocli.CommandLine.ITypeConverter<Double> {
        @Override
        public Double convert(String v) {
            String t = v.trim();
            try {
                return t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100 : Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw new picocli.CommandLine.TypeConversionException("'" + v + "' is not a fraction: 0.02 or 2%");
            }
        }
    }

    @Option(names = "--over-seeds", description = "with replicated seeds: compare each configuration's median over its seeds, "
            + "moved only where A's and B's ranges over the seeds do not overlap (a change within the seeds' own spread is not one)")
    boolean overSeeds;

    @Option(names = "--out", paramLabel = "DIR", description = "where to write report.html and figures/ (default: DIR_B/compare)")
    Path out;

    CompareCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        PrintStream o = ctx.out(), e = ctx.err();
        Path da = a.toAbsolutePath().normalize(), db = b.toAbsolutePath().normalize();
        Path dir = out != null ? out.toAbsolutePath().normalize() : db.resolve("compare");
        // checked first, as report does: a run that has set DIR_B's earlier results aside leaves no runs.csv until its first run ends
        Path locked = ReportTarget.lockedBy(dir);
        if (locked != null) {
            e.println(ReportTarget.busy("compare", locked));
            return Commands.BAD_INPUT;
        }
        for (Path d : new Path[] {da, db})
            if (!Files.isRegularFile(d.resolve("runs.csv"))) {
                e.println("compare: " + d + " is not a results folder (no runs.csv)");
                return Commands.BAD_INPUT;
            }
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            e.println("--tolerance: must be a finite number >= 0 (0.02 or 2%)");
            return Commands.BAD_INPUT;
        }
        String problem = out == null ? null : ReportTarget.problem(dir);  // compare's report goes beside neither folder's own
        if (problem != null) {
            e.println("compare: " + problem);
            return Commands.BAD_INPUT;
        }
        Thread t = Thread.currentThread();
        ClassLoader before = t.getContextClassLoader();
        t.setContextClassLoader(CompareCommand.class.getClassLoader());
        Compare.Outcome c;
        try {
            c = Compare.write(da, db, tolerance, dir, overSeeds);
        } catch (BadResultsException bad) {
            e.println("compare: " + bad.getMessage());
            return Commands.BAD_INPUT;
        } catch (java.io.UncheckedIOException io) {
            e.println("compare: " + ReportTarget.failure(io));
            return Commands.BAD_INPUT; // not 1, which says something moved
        } finally {
            t.setContextClassLoader(before);
        }
        for (String n : c.notes()) e.println("warning: " + n);
        for (Compare.Diff d : c.diffs())
            if (d.moved())
                o.println("moved: run" + (overSeeds ? "s " : " ") + (d.runA().isEmpty() ? "-" : d.runA()) + "/" + (d.runB().isEmpty() ? "-" : d.runB()) + " "
                        + d.label() + " " + d.metric() + (d.metric().startsWith("(") ? "" : ": " + (overSeeds ? "median " : "") + show(d.a()) + " -> " + show(d.b())
                        + " (" + pct(d.relative()) + (d.spread().isEmpty() ? "" : "; over the seeds " + d.spread().replace(" | ", " against ")) + ")"));
        o.println("compare: " + c.moved() + " of " + c.diffs().size() + " differences beyond " + pct(tolerance).replace("+", "") + "; report: " + c.html());
        if (!overSeeds && c.seeds() > 1)
            o.println("note: " + c.seeds() + " seeds per configuration, compared seed by seed: --over-seeds compares each configuration's"
                    + " median over its seeds and counts a change only where it leaves the seeds' spread");
        // nothing compared is no change found: a script reading exit 1 as "something moved" was told so (a trial)
        if (c.nothingCompared()) return Commands.BAD_INPUT;
        return c.anyMoved() ? 1 : Commands.OK;
    }

    private static String show(double v) { return Double.isNaN(v) ? "missing" : Double.toString(v); }

    private static String pct(double r) {
        if (Double.isNaN(r)) return "n/a";
        if (Double.isInfinite(r)) return r > 0 ? "+inf" : "-inf";
        return String.format(java.util.Locale.ROOT, "%+.2f %%", r * 100);
    }
}
