package org.hmsim.platform.kernel.results;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hmsim.platform.report.Report;

/**
 * The results an earlier execution left in a results folder. hmsim moves or removes only the entries it
 * writes itself ({@link #OWN}, previous/), and only when everything in them is its own: a folder whose
 * hmsim-named entries hold anything else, or that has them without a study.json (or a batch job/) to say
 * hmsim wrote them, is refused with a one-line error naming one such file, before anything changes.
 * Other files next to the results are never touched.
 *
 * <p>A new execution (not --resume) sets the earlier results aside into previous/, replacing older ones
 * there, so they survive until new results supersede them: a run that then fails, breaks off or is
 * killed costs nothing. The entries go one by one (study.json last) into {@value #STAGING}, which is then
 * renamed previous/; if that is interrupted, the next execution into the folder finishes it. Earlier
 * results in which no run ended (a study stopped at once) hold nothing worth keeping: they are removed
 * and previous/ stays as it was, so two false starts in a row do not push real results out.
 */
public final class EarlierResults {
    public static final String PREVIOUS = "previous";
    private static final String STAGING = ".previous.new", SUPERSEDED = ".previous.old";
    private static final String RUNS = "runs", JOB = "job", COMPARE = "compare";
    /** What hmsim writes into a results folder, in the order it is set aside: study.json last, so it claims whatever is left behind. */
    private static final List<String> OWN = List.of(ResultsFolder.TABLE, Report.HTML, Report.FIGURES, COMPARE, RUNS, JOB,
            ResultsFolder.PROVENANCE);
    private static final Set<String> RUN_FILES = Set.of(ResultsFolder.CONFIG, ResultsFolder.STATS, ResultsFolder.SERIES,
            ResultsFolder.ERROR, SwapFiles.SWAPS, ResultsFolder.DAMAGED);
    private static final Pattern FIGURE = Pattern.compile("(a-|b-)?fig-.+\\.(svg|png)(\\.tmp)?");
    private static final Pattern RUN_ID = Pattern.compile("[0-9]+");
    private static final String RESTARTABLE = "; nothing is lost: the next hmsim run into this folder finishes the move";

    private EarlierResults() {}

    /**
     * Refuses a folder hmsim must not write into: under the names hmsim uses it holds a file hmsim did not
     * write, or a folder a set-aside would move or remove but cannot (read-only).
     */
    public static void check(Path dir) {
        if (!Files.isDirectory(dir)) return;
        Path foreign = foreign(dir);
        if (foreign != null)
            throw new ResultsFolderException(dir + " holds files hmsim did not write, e.g. " + aFileIn(foreign) + (claimed(dir) ? ""
                    : " (there is no study.json that says hmsim wrote it)") + "; hmsim changes nothing there: move them away or choose another --out");
        Path locked = readOnly(dir);
        if (locked != null)
            throw new ResultsFolderException("cannot move or remove the earlier results in " + dir + ": " + locked
                    + " is read-only; nothing was changed");
    }

    /**
     * Prepares {@code dir} for an execution: finishes a set-aside that was interrupted and, unless resuming,
     * sets the earlier results aside. Returns what it did as lines to show (none if there was nothing).
     */
    public static List<String> prepare(Path dir, boolean resume) {
        if (!Files.isDirectory(dir)) return List.of();
        check(dir);
        removeSuperseded(dir);
        boolean interrupted = Files.isDirectory(dir.resolve(STAGING), NOFOLLOW_LINKS);
        if (resume && !interrupted) return List.of();
        if (!interrupted && !anyRunEnded(dir)) return removeOwn(dir);
        boolean replacing = Files.exists(dir.resolve(PREVIOUS), NOFOLLOW_LINKS);
        setAside(dir);
        return List.of((interrupted ? "finished an interrupted move: " : "") + "earlier results moved to " + dir.resolve(PREVIOUS)
                + (replacing ? " (replacing the ones there before)" : ""));
    }

    private static void setAside(Path dir) {
        Path staging = dir.resolve(STAGING), previous = dir.resolve(PREVIOUS);
        try {
            Files.createDirectories(staging);
        } catch (IOException e) {
            throw new ResultsFolderException("cannot create " + staging + ": " + ResultsFolder.reason(e, staging) + "; nothing was changed");
        }
        for (String e : OWN) if (Files.exists(dir.resolve(e), NOFOLLOW_LINKS)) move(dir.resolve(e), staging.resolve(e));
        if (Files.exists(previous, NOFOLLOW_LINKS)) move(previous, dir.resolve(SUPERSEDED));
        move(staging, previous);
        removeSuperseded(dir);
    }

    /** The results previous/ held before the last set-aside; only an interrupted or failed removal leaves them. */
    private static void removeSuperseded(Path dir) {
        try {
            removeTree(dir.resolve(SUPERSEDED));
        } catch (ResultsFolderException e) {
            throw new ResultsFolderException(e.getMessage() + "; it holds results that previous/ no longer needs: remove it by hand");
        }
    }

    private static void move(Path from, Path to) {
        try {
            if (Files.exists(to, NOFOLLOW_LINKS)) throw new FileAlreadyExistsException(to.toString());
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new ResultsFolderException("cannot move " + from + " to " + to + ": " + ResultsFolder.reason(e, from) + RESTARTABLE);
        }
    }

    private static List<String> removeOwn(Path dir) {
        boolean any = false;
        for (String e : OWN) {
            if (!Files.exists(dir.resolve(e), NOFOLLOW_LINKS)) continue;
            removeTree(dir.resolve(e));
            any = true;
        }
        if (!any) return List.of();
        return List.of("no run of the earlier execution in " + dir + " had ended: its files were removed"
                + (Files.exists(dir.resolve(PREVIOUS)) ? " (" + dir.resolve(PREVIOUS) + " stays as it was)" : ""));
    }

    private static void removeTree(Path root) {
        if (!Files.exists(root, NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        } catch (IOException e) {
            throw new ResultsFolderException("cannot remove " + root + ": " + ResultsFolder.reason(e, root));
        }
    }

    private static boolean anyRunEnded(Path dir) {
        Path runs = dir.resolve(RUNS);
        if (!Files.isDirectory(runs, NOFOLLOW_LINKS)) return false;
        for (Path run : children(runs))
            if (Files.isRegularFile(run.resolve(ResultsFolder.STATS)) || Files.isRegularFile(run.resolve(ResultsFolder.ERROR))) return true;
        return false;
    }

    /** Whether hmsim says it wrote {@code dir}: by its study.json, or a batch submission's manifest. */
    private static boolean claimed(Path dir) {
        return Files.isRegularFile(dir.resolve(ResultsFolder.PROVENANCE), NOFOLLOW_LINKS)
                || Files.isRegularFile(dir.resolve(JOB).resolve("job.properties"), NOFOLLOW_LINKS);
    }

    /** The first file among hmsim's entries of {@code dir} that hmsim did not write, or null. */
    static Path foreign(Path dir) {
        boolean claimed = claimed(dir);
        for (String e : OWN) {
            Path p = dir.resolve(e);
            if (!Files.exists(p, NOFOLLOW_LINKS)) continue;
            Path f = claimed ? foreignIn(p) : p;
            if (f != null) return f;
        }
        for (String held : List.of(PREVIOUS, STAGING)) {
            Path f = foreignHeld(dir.resolve(held));
            if (f != null) return f;
        }
        return null;
    }

    /** previous/ (or a set-aside in progress): nothing but hmsim's entries, each its own. */
    private static Path foreignHeld(Path held) {
        if (!Files.exists(held, NOFOLLOW_LINKS)) return null;
        if (!Files.isDirectory(held, NOFOLLOW_LINKS)) return held;
        for (Path c : children(held)) {
            Path f = OWN.contains(name(c)) ? foreignIn(c) : c;
            if (f != null) return f;
        }
        return null;
    }

    private static Path foreignIn(Path p) {
        return switch (name(p)) {
            case RUNS -> foreignRuns(p);
            case Report.FIGURES -> firstNot(p, f -> Files.isRegularFile(f, NOFOLLOW_LINKS) && FIGURE.matcher(name(f)).matches());
            case COMPARE -> firstNot(p, f -> name(f).equals(Report.FIGURES) ? foreignIn(f) == null
                    : name(f).startsWith(Report.HTML) && Files.isRegularFile(f, NOFOLLOW_LINKS));
            case JOB -> Files.isRegularFile(p.resolve("job.properties"), NOFOLLOW_LINKS) ? null : p;
            default -> Files.isRegularFile(p, NOFOLLOW_LINKS) ? null : p;
        };
    }

    private static Path foreignRuns(Path runs) {
        if (!Files.isDirectory(runs, NOFOLLOW_LINKS)) return runs;
        for (Path run : children(runs)) {
            if (!Files.isDirectory(run, NOFOLLOW_LINKS) || !RUN_ID.matcher(name(run)).matches()) return run;
            Path f = firstNot(run, c -> Files.isRegularFile(c, NOFOLLOW_LINKS) && (RUN_FILES.contains(name(c)) || temporary(name(c))));
            if (f != null) return f;
        }
        return null;
    }

    /** {@code dir} itself if it is not a folder, else its first entry that is not {@code ok}, else null. */
    private static Path firstNot(Path dir, Predicate<Path> ok) {
        if (!Files.isDirectory(dir, NOFOLLOW_LINKS)) return dir;
        for (Path c : children(dir)) if (!ok.test(c)) return c;
        return null;
    }

    /**
     * The first folder a set-aside would have to change but cannot, or null. Moving a folder rewrites
     * its {@code ..} entry and removing one its entries, so each must be writable, not only {@code dir}.
     */
    private static Path readOnly(Path dir) {
        if (!Files.isWritable(dir)) return dir;
        List<String> changed = new ArrayList<>(OWN);
        changed.addAll(List.of(PREVIOUS, STAGING));
        for (String e : changed) {
            if (!Files.isDirectory(dir.resolve(e), NOFOLLOW_LINKS)) continue;
            try (Stream<Path> s = Files.walk(dir.resolve(e))) {
                Path locked = s.filter(p -> Files.isDirectory(p, NOFOLLOW_LINKS) && !Files.isWritable(p)).findFirst().orElse(null);
                if (locked != null) return locked;
            } catch (IOException ex) {
                throw new ResultsFolderException("cannot read " + dir.resolve(e) + ": " + ResultsFolder.reason(ex, dir.resolve(e)));
            }
        }
        return null;
    }

    /** A file to name for a foreign entry: the entry, or for a folder the first file in it. */
    private static Path aFileIn(Path entry) {
        if (!Files.isDirectory(entry, NOFOLLOW_LINKS)) return entry;
        try (Stream<Path> s = Files.walk(entry)) {
            return s.filter(p -> !Files.isDirectory(p, NOFOLLOW_LINKS)).sorted().findFirst().orElse(entry);
        } catch (IOException e) {
            return entry;
        }
    }

    /** AtomicFiles' temporary files ({@code .stats.json123.tmp}), which a killed process may leave. */
    private static boolean temporary(String name) { return name.startsWith(".") && name.endsWith(".tmp"); }

    private static String name(Path p) { return p.getFileName().toString(); }

    private static List<Path> children(Path dir) {
        try (Stream<Path> s = Files.list(dir)) {
            return s.sorted().toList();
        } catch (IOException e) {
            throw new ResultsFolderException("cannot read " + dir + ": " + ResultsFolder.reason(e, dir));
        }
    }
}
