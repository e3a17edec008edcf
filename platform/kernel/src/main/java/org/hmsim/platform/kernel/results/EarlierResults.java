package org.hmsim.platform.kernel.results;

import static java.nio.file.LinkOption.NOFOLLOW_LINKS;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.io.Reader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.hmsim.platform.report.Report;

/**
 * The results an earlier execution left in a results folder. hmsim moves or removes only the entries it
 * writes itself ({@link #OWN}, previous/, {@value #STAGING}, {@value #SUPERSEDED}), and only when everything
 * in them is its own: a folder whose hmsim-named entries hold anything else, or that has them without a
 * study.json that is hmsim's (a JSON object naming the study and its SHA-256) or a batch job/ manifest to
 * say hmsim wrote them, is refused with a one-line error naming one such file, before anything changes.
 * previous/ and the two staging folders must each pass the same check, by their own study.json. Other
 * files next to the results are never touched; the lock files ({@link #LOCKS}) count as hmsim's.
 *
 * <p>A new execution (not --resume) sets the earlier results aside into previous/, replacing older ones
 * there, so they survive until new results supersede them: a run that then fails, breaks off or is
 * killed costs nothing. The entries go one by one (study.json last) into {@value #STAGING}, which is then
 * renamed previous/; if that is interrupted, the next execution into the folder finishes it. An entry that
 * was written again meanwhile ({@code collect} rewrites runs.csv) and is also in {@value #STAGING} is
 * dropped if both are the same, else kept there under a number ({@code runs.csv.1}). Earlier results that
 * hold nothing (no row in runs.csv, no run that ended, no report: a study stopped at once) are removed and
 * previous/ stays as it was, so two false starts in a row do not push real results out; so are earlier
 * results whose runs all failed when previous/ holds a run that succeeded, so two failing executions in a
 * row do not either. Earlier results of an execution that did not finish, with fewer runs that succeeded than
 * previous/ holds, are not set aside at all: the new execution is refused (resume, or remove one of the two).
 */
public final class EarlierResults {
    public static final String PREVIOUS = "previous";
    private static final String STAGING = ".previous.new", SUPERSEDED = ".previous.old";
    private static final String RUNS = "runs", JOB = "job", COMPARE = "compare";
    /** What hmsim writes into a results folder, in the order it is set aside: study.json last, so it claims whatever is left behind. */
    private static final List<String> OWN = List.of(ResultsFolder.TABLE, Report.HTML, Report.FIGURES, COMPARE, RUNS, JOB,
            ResultsFolder.PROVENANCE);
    /** The parts of a results folder that hmsim writes: no other results folder may lie inside one. */
    private static final Set<String> PARTS = Set.of(RUNS, PREVIOUS, Report.FIGURES, COMPARE, JOB, STAGING, SUPERSEDED);
    /** Lock files of hmsim (a run's, collect's): its own wherever they are. */
    static final Set<String> LOCKS = Set.of(".hmsim.lock", ".assemble.lock");
    /** The files whose presence says hmsim wrote a folder: removed last. */
    private static final Set<String> CLAIMS = Set.of(ResultsFolder.PROVENANCE, "job.properties");
    private static final Pattern NUMBERED = Pattern.compile("(.+)\\.([0-9]+)");
    private static final Set<String> RUN_FILES = Set.of(ResultsFolder.CONFIG, ResultsFolder.STATS, ResultsFolder.SERIES, ResultsFolder.STAT_DOCS,
            ResultsFolder.ERROR, ResultsFolder.PARTIAL_STATS, ResultsFolder.PARTIAL_SERIES, SwapFiles.SWAPS, ResultsFolder.DAMAGED,
            ResultsFolder.CONFIG_DAMAGED, ResultsFolder.SERIES_DAMAGED);
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
            throw new ResultsFolderException(dir + " holds files hmsim did not write, e.g. " + aFileIn(foreign) + whyUnclaimed(dir, foreign)
                    + "; hmsim changes nothing there: move them away or choose another --out");
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
        if (!interrupted && !holdsResults(dir)) return removeOwn(dir);
        if (!interrupted && !succeeded(dir) && succeeded(dir.resolve(PREVIOUS))) return dropFailed(dir);
        if (!interrupted) refuseToPushOutMore(dir);
        boolean replacing = Files.exists(dir.resolve(PREVIOUS), NOFOLLOW_LINKS);
        List<String> notes = new ArrayList<>();
        notes.add((interrupted ? "finished an interrupted move: " : "") + "earlier results moved to " + dir.resolve(PREVIOUS)
                + (replacing ? " (replacing the ones there before)" : ""));
        notes.addAll(setAside(dir));
        return notes;
    }

    /** Whether a set-aside into previous/ was cut short in {@code dir}: part of the earlier results are in {@value #STAGING}. */
    public static boolean moveInterrupted(Path dir) {
        return Files.isDirectory(dir.resolve(STAGING), NOFOLLOW_LINKS);
    }

    /**
     * An --out that lies inside a part hmsim writes of another results folder ({@code P/runs}, {@code
     * P/previous}, ...): a run there would make P a folder hmsim refuses. Returns why, or null.
     */
    public static String insideAnother(Path dir) {
        for (Path a = dir.toAbsolutePath().normalize(); a != null && a.getParent() != null; a = a.getParent()) {
            Path claim = a.getParent().resolve(ResultsFolder.PROVENANCE);
            if (PARTS.contains(name(a)) && Files.exists(claim, NOFOLLOW_LINKS))
                return dir + " lies within " + name(a) + "/ of the results folder " + a.getParent() + " (see " + claim
                        + "), which hmsim writes; hmsim changes nothing there: choose another --out";
        }
        return null;
    }

    private static List<String> setAside(Path dir) {
        Path staging = dir.resolve(STAGING), previous = dir.resolve(PREVIOUS);
        try {
            Files.createDirectories(staging);
        } catch (IOException e) {
            throw new ResultsFolderException("cannot create " + staging + ": " + ResultsFolder.reason(e, staging) + "; nothing was changed");
        }
        List<String> notes = new ArrayList<>();
        for (String e : OWN) if (Files.exists(dir.resolve(e), NOFOLLOW_LINKS)) moveIn(dir.resolve(e), staging, e, notes);
        if (Files.exists(previous, NOFOLLOW_LINKS)) move(previous, dir.resolve(SUPERSEDED));
        move(staging, previous);
        removeSuperseded(dir);
        return notes;
    }

    /**
     * Moves {@code from} into {@code staging} as {@code name}. If an interrupted move left one there already,
     * the same content is dropped; other content is kept too, under the first free {@code name.N}.
     */
    private static void moveIn(Path from, Path staging, String name, List<String> notes) {
        Path to = staging.resolve(name);
        if (!Files.exists(to, NOFOLLOW_LINKS)) {
            move(from, to);
        } else if (same(from, to)) {
            removeTree(from);
        } else {
            int n = 1;
            while (Files.exists(staging.resolve(name + "." + n), NOFOLLOW_LINKS)) n++;
            move(from, staging.resolve(name + "." + n));
            notes.add(from + " differs from the one the interrupted move had set aside: both are kept, it as "
                    + staging.resolveSibling(PREVIOUS).resolve(name + "." + n));
        }
    }

    /** Whether two files, or two folders file by file, hold the same. */
    private static boolean same(Path a, Path b) {
        try {
            if (Files.isRegularFile(a, NOFOLLOW_LINKS) && Files.isRegularFile(b, NOFOLLOW_LINKS)) return Files.mismatch(a, b) == -1;
            if (!Files.isDirectory(a, NOFOLLOW_LINKS) || !Files.isDirectory(b, NOFOLLOW_LINKS)) return false;
            List<Path> inA = relative(a), inB = relative(b);
            if (!inA.equals(inB)) return false;
            for (Path r : inA) {
                boolean dirA = Files.isDirectory(a.resolve(r), NOFOLLOW_LINKS);
                if (dirA != Files.isDirectory(b.resolve(r), NOFOLLOW_LINKS)) return false;
                if (!dirA && !same(a.resolve(r), b.resolve(r))) return false;
            }
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static List<Path> relative(Path root) throws IOException {
        try (Stream<Path> s = Files.walk(root)) {
            return s.map(root::relativize).sorted().toList();
        }
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

    /**
     * Earlier results whose runs all failed, while previous/ holds results that did not: the failed ones are
     * removed (each run's error.txt said why when it failed), so two failing executions in a row cannot push
     * good results out of previous/.
     */
    private static List<String> dropFailed(Path dir) {
        for (String e : OWN) removeTree(dir.resolve(e));
        return List.of("no run of the earlier execution in " + dir + " succeeded: its files were removed (" + dir.resolve(PREVIOUS)
                + ", whose runs did, stays as it was)");
    }

    /**
     * Refuses to set aside the results of an execution that did not finish when previous/ holds more runs that succeeded:
     * they would replace those (a trial's two interrupted re-runs without --resume pushed a finished 12-run study out of
     * previous/ with 7 runs). Whoever meant to go on resumes; whoever meant to start over removes one of the two.
     */
    private static void refuseToPushOutMore(Path dir) {
        Object status = statusOf(dir);
        if ("finished".equals(status)) return;
        int here = succeededRuns(dir), kept = succeededRuns(dir.resolve(PREVIOUS));
        if (kept <= here) return;
        throw new ResultsFolderException(dir + " holds an execution that did not finish (" + (status == null ? "no status" : status) + ", " + here
                + " run" + (here == 1 ? "" : "s") + " with results) and " + dir.resolve(PREVIOUS) + " one with more (" + kept + "), which a new"
                + " execution would replace: run with --resume to finish the first, or remove one of them to start over; nothing was changed");
    }

    /** study.json's status of the execution in {@code dir} ("finished", "stopped", "running", ...), or null if unreadable. */
    private static Object statusOf(Path dir) {
        try {
            return Json.read(dir.resolve(ResultsFolder.PROVENANCE)).get("status");
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** Runs in {@code dir} whose stats.json is there (or was set aside as damaged). */
    private static int succeededRuns(Path dir) {
        Path runs = dir.resolve(RUNS);
        if (!Files.isDirectory(runs, NOFOLLOW_LINKS)) return 0;
        int n = 0;
        for (Path run : children(runs))
            for (String f : List.of(ResultsFolder.STATS, ResultsFolder.DAMAGED))
                if (Files.exists(run.resolve(f), NOFOLLOW_LINKS)) {
                    n++;
                    break;
                }
        return n;
    }

    /**
     * Whether results in {@code dir} hold a run that succeeded (its stats.json, or one set aside as damaged),
     * or, without runs/ (a collected table, a report), any results at all. When unsure (unreadable), they do.
     */
    private static boolean succeeded(Path dir) {
        if (!Files.isDirectory(dir, NOFOLLOW_LINKS)) return false;
        Path runs = dir.resolve(RUNS);
        if (!Files.isDirectory(runs, NOFOLLOW_LINKS)) return holdsResults(dir);
        try {
            for (Path run : children(runs))
                for (String f : List.of(ResultsFolder.STATS, ResultsFolder.DAMAGED))
                    if (Files.exists(run.resolve(f), NOFOLLOW_LINKS)) return true;
        } catch (ResultsFolderException unreadable) {
            return true;
        }
        return false;
    }

    /** Removes a tree, the files that say hmsim wrote it (and their folders) last: a removal cut short leaves it claimed. */
    private static void removeTree(Path root) {
        if (!Files.exists(root, NOFOLLOW_LINKS)) return;
        try (Stream<Path> s = Files.walk(root)) {
            List<Path> all = s.sorted(Comparator.reverseOrder()).toList();
            Set<Path> last = new HashSet<>();
            for (Path p : all)
                if (CLAIMS.contains(name(p)) && !Files.isDirectory(p, NOFOLLOW_LINKS))
                    for (Path a = p; a != null && a.startsWith(root); a = a.getParent()) last.add(a);
            for (Path p : all) if (!last.contains(p)) Files.delete(p);
            for (Path p : all) if (last.contains(p)) Files.delete(p);
        } catch (IOException e) {
            throw new ResultsFolderException("cannot remove " + root + ": " + ResultsFolder.reason(e, root));
        }
    }

    /**
     * Whether the earlier results hold anything worth keeping: a row of runs.csv, a run that ended (or whose
     * stats.json was set aside as damaged), a report or a comparison. When unsure (unreadable), they do.
     */
    private static boolean holdsResults(Path dir) {
        Path table = dir.resolve(ResultsFolder.TABLE);
        if (Files.isRegularFile(table, NOFOLLOW_LINKS)) {
            try (Stream<String> lines = Files.lines(table)) {
                if (lines.skip(1).anyMatch(l -> !l.isBlank())) return true;
            } catch (IOException | java.io.UncheckedIOException e) {
                return true;
            }
        }
        if (Files.exists(dir.resolve(Report.HTML), NOFOLLOW_LINKS)) return true;
        for (String e : List.of(Report.FIGURES, COMPARE))
            if (Files.isDirectory(dir.resolve(e), NOFOLLOW_LINKS) && !children(dir.resolve(e)).isEmpty()) return true;
        Path runs = dir.resolve(RUNS);
        if (!Files.isDirectory(runs, NOFOLLOW_LINKS)) return false;
        for (Path run : children(runs))
            for (String f : List.of(ResultsFolder.STATS, ResultsFolder.ERROR, ResultsFolder.DAMAGED))
                if (Files.exists(run.resolve(f), NOFOLLOW_LINKS)) return true;
        return false;
    }

    /** Whether hmsim says it wrote {@code dir}: by its study.json, or a batch submission's manifest. */
    private static boolean claimed(Path dir) {
        return ownStudyJson(dir.resolve(ResultsFolder.PROVENANCE)) || ownManifest(dir.resolve(JOB).resolve("job.properties"));
    }

    /**
     * Why hmsim's files around {@code foreign} are not known as its own, where that is the cause: the folder's
     * study.json, or that of the earlier results ({@code previous/}) it lies in, is absent or damaged.
     */
    private static String whyUnclaimed(Path dir, Path foreign) {
        for (String held : List.of(PREVIOUS, SUPERSEDED)) {
            Path h = dir.resolve(held);
            if (foreign.startsWith(h) && !foreign.equals(h))
                return claimed(h) ? "" : " in " + held + "/" + unclaimedBecause(h.resolve(ResultsFolder.PROVENANCE));
        }
        return claimed(dir) ? "" : unclaimedBecause(dir.resolve(ResultsFolder.PROVENANCE));
    }

    /** Why {@code f} (study.json) does not show that hmsim wrote the folder: absent, or there but damaged. */
    private static String unclaimedBecause(Path f) {
        if (!Files.exists(f, NOFOLLOW_LINKS)) return " (there is no study.json that says hmsim wrote it)";
        try {
            Json.read(f);
            return " (its study.json is not one hmsim wrote: it lacks the study's name or SHA-256)";
        } catch (RuntimeException damaged) {
            return " (" + damaged.getMessage() + ", so nothing shows that hmsim wrote the folder)";
        }
    }

    /** A study.json hmsim wrote: a JSON object with the study's name and the SHA-256 of its file. */
    private static boolean ownStudyJson(Path f) {
        if (!Files.isRegularFile(f, NOFOLLOW_LINKS)) return false;
        try {
            Map<String, Object> m = Json.read(f);
            return m.get("study") instanceof String name && !name.isEmpty() && m.get("study_sha256") instanceof String sha && !sha.isEmpty();
        } catch (RuntimeException damaged) {
            return false;
        }
    }

    /** A batch submission's job.properties: it names the executor and the study's SHA-256. */
    private static boolean ownManifest(Path f) {
        if (!Files.isRegularFile(f, NOFOLLOW_LINKS)) return false;
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(f)) {
            p.load(r);
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return p.getProperty("executor") != null && p.getProperty("sha256") != null;
    }

    /** The first file among hmsim's entries of {@code dir} that hmsim did not write, or null. */
    static Path foreign(Path dir) {
        boolean claimed = claimed(dir);
        for (String e : OWN) {
            Path p = dir.resolve(e);
            if (!Files.exists(p, NOFOLLOW_LINKS)) continue;
            Path f = claimed ? foreignIn(p, e) : p;
            if (f != null) return f;
        }
        for (String held : List.of(PREVIOUS, STAGING, SUPERSEDED)) {
            Path f = foreignHeld(dir, held);
            if (f != null) return f;
        }
        return null;
    }

    /**
     * previous/ (or a set-aside in progress, or a superseded previous/): nothing but hmsim's entries (kept
     * under a number after a clash: runs.csv.1) and lock files, each its own, claimed by its own study.json;
     * a set-aside in progress moves study.json last, so until then the folder's study.json claims it.
     */
    private static Path foreignHeld(Path dir, String name) {
        Path held = dir.resolve(name);
        if (!Files.exists(held, NOFOLLOW_LINKS)) return null;
        if (!Files.isDirectory(held, NOFOLLOW_LINKS)) return held;
        boolean claimed = claimed(held) || name.equals(STAGING) && claimed(dir);
        for (Path c : children(held)) {
            if (LOCKS.contains(name(c)) && Files.isRegularFile(c, NOFOLLOW_LINKS)) continue;
            String own = ownName(name(c));
            Path f = own != null && claimed ? foreignIn(c, own) : c;
            if (f != null) return f;
        }
        return null;
    }

    /** The entry of {@link #OWN} a held entry is ({@code runs.csv}, or {@code runs.csv.1} kept after a clash), or null. */
    private static String ownName(String name) {
        if (OWN.contains(name)) return name;
        Matcher m = NUMBERED.matcher(name);
        return m.matches() && OWN.contains(m.group(1)) ? m.group(1) : null;
    }

    private static Path foreignIn(Path p, String entry) {
        return switch (entry) {
            case RUNS -> foreignRuns(p);
            case Report.FIGURES -> firstNot(p, f -> Files.isRegularFile(f, NOFOLLOW_LINKS) && Report.isFigureFile(name(f).replaceFirst("\\.tmp$", "")));
            case COMPARE -> firstNot(p, f -> name(f).equals(Report.FIGURES) ? foreignIn(f, Report.FIGURES) == null
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
        changed.addAll(List.of(PREVIOUS, STAGING, SUPERSEDED));
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
