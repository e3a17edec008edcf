package org.hmsim.platform.kernel.results;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.report.Csv;

/**
 * The results folder of a study (DESIGN §8):
 * <pre>
 * study.json                provenance
 * runs.csv                  one row per finished run, rebuilt from the per-run files
 * runs/&lt;run&gt;/config.json    the fully resolved configuration (written when the run starts)
 * runs/&lt;run&gt;/timeseries.csv per-epoch statistics
 * runs/&lt;run&gt;/stats.json     metrics and every statistic; written last: a run is complete iff it exists
 * runs/&lt;run&gt;/error.txt      the stack trace of a failed run
 * previous/                 the results of the execution before (EarlierResults)
 * </pre>
 * runs.csv is always built from what is on disk, so a resumed study yields the same bytes as an
 * uninterrupted one. Thread-safe.
 */
public final class ResultsFolder {
    public static final String STATS = "stats.json";
    /** What each statistic of stats.json is (written before it). */
    public static final String STAT_DOCS = "statistics.csv";
    public static final String CONFIG = "config.json";
    public static final String SERIES = "timeseries.csv";
    public static final String ERROR = "error.txt";
    /** A run that reached max_time: its statistics and series up to the limit (it has no result). */
    public static final String PARTIAL_STATS = "partial-stats.json", PARTIAL_SERIES = "partial-timeseries.csv";
    public static final String TABLE = "runs.csv";
    public static final String PROVENANCE = "study.json";
    /** What a --resume renames a stats.json it cannot read back to. */
    public static final String DAMAGED = "stats.json.damaged";
    /** A damaged config.json or timeseries.csv that --resume set aside (with the run's stats.json, as {@link #DAMAGED}). */
    public static final String CONFIG_DAMAGED = "config.json.damaged", SERIES_DAMAGED = "timeseries.csv.damaged";
    /** stats.json's count of the data rows of timeseries.csv. */
    static final String SERIES_ROWS = "series_rows";

    private final Path dir;
    private final Study study;
    /** The metrics of each finished run as read back from disk (null metrics = failed), by run index. */
    private final Map<Integer, Map<String, Object>> rows = new TreeMap<>();

    public ResultsFolder(Path dir, Study study) { this(dir, study, Map.of()); }

    /** {@code replay}: the swaps each run replays (--replay-swaps), recorded in its config.json and compared on --resume. */
    public ResultsFolder(Path dir, Study study, Map<String, List<org.hmsim.platform.machine.ScriptedSwap>> replay) {
        this.dir = dir;
        this.study = study;
        this.replay = replay;
    }

    private final Map<String, List<org.hmsim.platform.machine.ScriptedSwap>> replay;

    /** The swaps {@code run} replays (--replay-swaps), empty if none: one source for the run and its config.json. */
    public List<org.hmsim.platform.machine.ScriptedSwap> replayOf(PlannedRun run) { return replay.getOrDefault(run.id(), List.of()); }

    public Path dir() { return dir; }

    public Path runDir(PlannedRun run) { return dir.resolve("runs").resolve(run.id()); }

    /** Whether the run finished successfully earlier (its stats.json exists). */
    public boolean complete(PlannedRun run) { return Files.isRegularFile(runDir(run).resolve(STATS)); }

    /**
     * Creates {@code dir} if needed and makes sure files can be written into it, before anything runs: a
     * path that is a file, cannot be created, or is read-only gives a one-line error that names it.
     */
    public static void ensureWritable(Path dir) {
        if (Files.exists(dir) && !Files.isDirectory(dir)) throw new ResultsFolderException(dir + " is a file, not a folder");
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, ".hmsim-write-test", ".tmp"));
        } catch (IOException e) {
            throw new ResultsFolderException("cannot write into " + dir + ": " + reason(e, dir));
        }
    }

    /** Why a file operation on {@code named} failed, in one line; the file at fault only if it is another one. */
    public static String reason(IOException e, Path named) {
        String file = e instanceof FileSystemException f ? f.getFile() : null;
        String at = file == null || Path.of(file).equals(named) ? "" : " (" + file + ")";
        if (e instanceof AccessDeniedException) return "permission denied" + at;
        if (e instanceof NoSuchFileException) return "no such file or folder" + at;
        if (e instanceof FileAlreadyExistsException) return "already exists" + at;
        if (e instanceof FileSystemException f && f.getReason() != null) return f.getReason() + at;
        return String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString());
    }

    /** Whether the run failed (its error.txt exists and it has no stats.json). */
    public boolean failed(PlannedRun run) { return !complete(run) && Files.isRegularFile(runDir(run).resolve(ERROR)); }

    /** Whether the run ended, successfully or not: what a batch task leaves behind when it is done with a run. */
    public boolean ended(PlannedRun run) { return complete(run) || failed(run); }

    /**
     * Reads back every run that ended, failed ones included, exactly as {@link #finished} records them:
     * runs.csv assembled from the folder after a batch execution equals the one a local execution wrote.
     */
    public synchronized void loadEnded() {
        rows.clear();
        for (PlannedRun r : study.runs()) {
            if (complete(r)) rows.put(r.index(), readChecked(r));
            else if (failed(r)) rows.put(r.index(), null);
        }
    }

    /**
     * A run found done in the folder, checked as {@code --resume} checks it: its config.json, stats.json and timeseries.csv
     * (a damaged or missing series is named here too, so collect does not assemble a folder whose report would lack it).
     */
    private Map<String, Object> readChecked(PlannedRun run) {
        Map<?, ?> stats = readStats(run);
        checkSeries(run, stats.get(SERIES_ROWS));
        return metricsOf(stats, runDir(run).resolve(STATS));
    }

    /**
     * Reads back the runs an earlier execution completed (for --resume). A stats.json that cannot be read
     * back does not count: it is renamed {@value #DAMAGED} (kept for a look; nothing reads it) so that the
     * run is done again. Returns one line per such run.
     */
    public synchronized List<String> loadCompleted() {
        List<String> notes = new ArrayList<>();
        for (PlannedRun r : study.runs()) {
            if (!complete(r)) continue;
            try {
                rows.put(r.index(), readChecked(r)); // a run without its series is not done either (a bad-input review)
            } catch (ResultsFolderException e) {
                notes.add(setAsideDamaged(r, e));
            }
        }
        return notes;
    }

    /**
     * The run's stats.json no longer counts (the run is done again); the file found damaged (stats.json, config.json or
     * timeseries.csv) is kept beside it as {@code <name>.damaged} for a look, the run's stats.json is set aside the same
     * way. A file found missing leaves only stats.json to set aside.
     */
    private String setAsideDamaged(PlannedRun run, ResultsFolderException why) {
        Path stats = runDir(run).resolve(STATS);
        Path bad = why.file() != null && why.file().getParent() != null && why.file().getParent().equals(stats.getParent()) ? why.file() : stats;
        boolean missing = !Files.exists(bad, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        Path kept = (missing ? stats : bad).resolveSibling((missing ? stats : bad).getFileName() + ".damaged");
        try {
            if (!missing) Files.move(bad, kept, StandardCopyOption.REPLACE_EXISTING);
            if (!bad.equals(stats)) Files.move(stats, stats.resolveSibling(DAMAGED), StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new ResultsFolderException("cannot rename " + bad + " to " + kept.getFileName() + ": " + reason(e, bad));
        }
        // a missing file leaves the run's stats.json whole but no longer the run's record: "set aside", not "damaged" (a trial)
        return why.getMessage() + ": run " + run.id() + " runs again (" + (missing ? "its stats.json, intact but incomplete without it, is set aside as"
                : "the file is kept as") + " " + kept.getFileName() + ")";
    }

    /**
     * A finished run's timeseries.csv as its run wrote it, or {@link ResultsFolderException} naming it: there, ended by a
     * line break, a header that starts with {@code time_ns}, rows of numbers no wider than the header (a statistic sampled
     * from the middle of a run on has no cell in the rows before it), and as many rows as stats.json records
     * ({@code series_rows}; one an earlier hmsim wrote has none, and a file of such a run cut exactly at a line
     * break passes).
     */
    private void checkSeries(PlannedRun run, Object recordedRows) {
        Path f = runDir(run).resolve(SERIES);
        if (!Files.isRegularFile(f)) throw new ResultsFolderException(f + " is missing", f);
        long rows = 0;
        // line by line: a long run's series holds a row per epoch, and a resume reads every run's
        try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(f);
             java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(Files.newInputStream(f),
                     java.nio.charset.StandardCharsets.UTF_8.newDecoder()))) {
            if (ch.size() == 0) throw ResultsFolderException.damaged(f, "it is empty");
            java.nio.ByteBuffer last = java.nio.ByteBuffer.allocate(1);
            ch.position(ch.size() - 1).read(last);
            if (last.get(0) != '\n') throw ResultsFolderException.damaged(f, "it does not end with a line break: cut short");
            List<String> head = null;
            for (String line; (line = in.readLine()) != null; ) {
                if (line.isEmpty()) continue; // as Csv.parse reads it
                List<String> cells = cells(f, line);
                if (head == null) {
                    if (!cells.get(0).equals("time_ns")) throw ResultsFolderException.damaged(f, "its header does not start with time_ns");
                    head = cells;
                    continue;
                }
                rows++;
                if (cells.size() > head.size())
                    throw ResultsFolderException.damaged(f, "row " + rows + " (after the header) has " + cells.size() + " cells, the header " + head.size());
                for (int c = 0; c < cells.size(); c++)
                    if (!isNumber(cells.get(c)))
                        throw ResultsFolderException.damaged(f, "row " + rows + " (after the header), column " + head.get(c) + ": '" + cells.get(c) + "' is not a number");
            }
            if (head == null) throw ResultsFolderException.damaged(f, "it holds no header");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw ResultsFolderException.damaged(f, "it is not text (UTF-8)");
        } catch (IOException e) {
            throw ResultsFolderException.damaged(f, "it cannot be read: " + reason(e, f));
        }
        if (recordedRows instanceof Number n && n.longValue() != rows)
            throw ResultsFolderException.damaged(f, "it has " + rows + " rows, stats.json records " + n.longValue() + (rows < n.longValue() ? ": cut short" : ""));
    }

    /** One line's cells: split at commas, or read as CSV where a header cell is quoted. */
    private static List<String> cells(Path f, String line) {
        if (line.indexOf('"') < 0) return java.util.Arrays.asList(line.split(",", -1));
        try {
            List<List<String>> rows = Csv.parse(line + "\n");
            return rows.isEmpty() ? List.of("") : rows.get(0);
        } catch (UncheckedIOException e) {
            throw ResultsFolderException.damaged(f, e.getMessage());
        }
    }

    /** A cell as {@link Csv#number} writes it (NaN and infinities included: a sampled ratio may be one). */
    private static boolean isNumber(String cell) {
        if (cell.isEmpty() || Character.isWhitespace(cell.charAt(0)) || Character.isWhitespace(cell.charAt(cell.length() - 1))) return false;
        try {
            Double.parseDouble(cell);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * Why the runs this folder completed are not runs of the study as it is now, or null: a completed run's
     * config.json differs from its plan, study.json records another hash of the study file, or another hmsim build
     * ({@code env} is this one). The timing model is in the kernel bundle, whose version only study.json
     * records: a resume after rebuilding it mixed two builds' runs under the new build's name (an artifact-evaluation trial).
     * The build is told by what study.json records of it (the kernel's version, to the minute, and the commit it was
     * built from with its -dirty flag) and by the bundles the runs' policies came from (their config.json): a policy
     * bundle rebuilt since (its version qualifier is its build time) was called "another version of" the unchanged study.
     */
    public String resumeConflict(Environment env) {
        String conflict = conflict(false);
        if (conflict != null) return conflict;
        List<String> build = new ArrayList<>();
        String recorded = Provenance.buildDifference(dir, env);
        if (recorded != null) build.add(recorded);
        BundleChange bundle = changedBundle();
        if (bundle != null && !bundle.rebuilt() && build.isEmpty())
            return dir + " holds runs made with other bundles (" + bundle.said() + "): its runs and this installation's would be mixed";
        if (bundle != null) build.add(bundle.said()); // a full rebuild names the kernel and a policy's bundle
        return build.isEmpty() ? null : dir + " holds runs of another hmsim build (" + String.join("; ", build) + "): its runs and this build's would be mixed";
    }

    /** How a run's policy bundle changed: {@code rebuilt} when it is another build of the same bundle and release. */
    private record BundleChange(String said, boolean rebuilt) {}

    /**
     * The first completed run whose policy came from another bundle than it would now, or null: the study did not change,
     * what runs it did. A bundle of the same name and release (major.minor.micro) is another build of it.
     */
    private BundleChange changedBundle() {
        for (PlannedRun r : study.runs()) {
            String changed = complete(r) ? changedConfig(r, k -> !isBundleKey(k)) : null;
            if (changed == null) continue;
            String slot = changed.substring("policies.".length(), changed.indexOf(".bundle:"));
            Slot planned = Slot.byId(slot);
            if (planned == null || r.policies().get(planned) == null) return new BundleChange("run " + r.id() + ": " + changed, false);
            String recorded = recordedBundle(r, slot), current = r.policies().get(planned).entry().bundle();
            String[] then = bundleOf(recorded), now = bundleOf(current);
            if (then[0].equals(now[0]) && release(then[1]).equals(release(now[1])))
                return new BundleChange("bundle " + now[0] + ", whose " + slot + " policy run " + r.id() + " used: " + then[1] + " then, " + now[1] + " now", true);
            return new BundleChange("run " + r.id() + "'s " + slot + " policy came from " + recorded + " then, " + current + " now", false);
        }
        return null;
    }

    private static boolean isBundleKey(String k) { return k.startsWith("policies.") && k.endsWith(".bundle"); }

    /** The bundle run {@code run}'s config.json records for the policy of {@code slot}. */
    private String recordedBundle(PlannedRun run, String slot) {
        Map<String, String> then = new LinkedHashMap<>();
        flatten("", Json.read(runDir(run).resolve(CONFIG)), then);
        return String.valueOf(then.get("policies." + slot + ".bundle"));
    }

    /** {@code symbolic-name version} as its two parts (the version "" where there is none, as for {@code classpath}). */
    private static String[] bundleOf(String bundle) {
        int space = bundle.indexOf(' ');
        return space < 0 ? new String[] {bundle, ""} : new String[] {bundle.substring(0, space), bundle.substring(space + 1)};
    }

    /** An OSGi version without its qualifier: {@code 0.1.0} of {@code 0.1.0.202611300450}. */
    private static String release(String version) {
        String[] parts = version.split("\\.", 4);
        return String.join(".", java.util.Arrays.asList(parts).subList(0, Math.min(3, parts.length)));
    }

    /**
     * As {@link #resumeConflict(Environment)} without the build, for {@code collect}, which assembles what the runs recorded: the swaps a run
     * replayed (--replay-swaps) are part of what it recorded, not of the plan, and the bundles the policies came from
     * (whose versions carry a build time) may have been rebuilt since, so neither is compared; the policies' names,
     * versions and parameters are.
     */
    public String collectConflict() { return conflict(true); }

    private String conflict(boolean collecting) {
        // the bundles the policies came from are the build's, not the study's: compared after it (changedBundle)
        java.util.function.Predicate<String> ignored = collecting ? RECORDED : ResultsFolder::isBundleKey;
        for (PlannedRun r : study.runs()) {
            String changed = complete(r) ? changedConfig(r, ignored) : null;
            if (changed != null) return dir + " holds results of another version of " + study.display() + " (run " + r.id() + ": " + changed + ")";
        }
        String sha = Provenance.recordedSha(dir);
        if (sha == null || sha.equals(study.sha256())) return null;
        return dir + " holds results of another version of " + study.display() + " (the file changed since: SHA-256 "
                + sha.substring(0, Math.min(12, sha.length())) + "... then, " + study.sha256().substring(0, 12) + "... now)";
    }

    /**
     * How the configuration an earlier execution recorded for {@code run} (its config.json) differs from
     * the run as planned now ({@code workload.params.elements: 4096 then, 8192 now}), or null if it does not
     * or there is nothing readable to compare. The paths the study wrote ({@code machine.file},
     * {@code workload.origin}) are left out: naming the same study another way does not change a run; so
     * is the label, which only repeats what changed.
     */
    public String changedConfig(PlannedRun run) { return changedConfig(run, k -> false); }

    /** What a run recorded rather than planned: the swaps it replayed, the bundles (rebuilt with another build time) its policies came from. */
    private static final java.util.function.Predicate<String> RECORDED =
            k -> k.startsWith("replayed_swaps") || (k.startsWith("policies.") && k.endsWith(".bundle"));

    /**
     * Why the run this folder recorded under {@code run}'s id is another run than {@code run}, or null: --replay-swaps
     * replays the swaps recorded beside it into {@code run}, and swaps taken in one run mean nothing in another (a run id
     * is only a position in a study's plan). Compared as collect compares, and without the study's name, which names no run.
     * Without a config.json of that run there is nothing to match the swaps by: that is refused too.
     */
    public String replayMismatch(PlannedRun run) {
        Path f = runDir(run).resolve(CONFIG);
        if (!Files.isRegularFile(f)) return f + " is missing, so the swaps recorded beside it cannot be matched to run " + run.id() + " of " + study.display();
        if (!run.id().equals(Json.read(f).get("run"))) return f + " is not run " + run.id() + "'s configuration (not as hmsim wrote it)";
        String changed = changedConfig(run, RECORDED.or("study"::equals));
        return changed == null ? null : f + " records another run under id " + run.id() + " than " + study.display() + " plans (" + changed
                + "): its swaps would be replayed into another run";
    }

    /** As {@link #changedConfig(PlannedRun)}, not comparing the keys {@code ignored} accepts. */
    private String changedConfig(PlannedRun run, java.util.function.Predicate<String> ignored) {
        Path f = runDir(run).resolve(CONFIG);
        if (!Files.isRegularFile(f)) return null;
        Map<String, String> then = new LinkedHashMap<>(), now = new LinkedHashMap<>();
        try {
            flatten("", Json.read(f), then);
        } catch (ResultsFolderException damaged) {
            return null;
        }
        if (!run.id().equals(then.get("run"))) return null; // not a config.json hmsim wrote for this run: damaged, redone (readMetrics)
        flatten("", Json.parse(Json.write(config(run))), now);
        // the resolved machine follows from the tree: not compared, so folders written before it was recorded still match
        java.util.function.Predicate<String> left = ignored.or(List.of("label", "machine.file", "workload.origin")::contains)
                .or(k -> k.startsWith("machine.resolved."));
        then.keySet().removeIf(left);
        now.keySet().removeIf(left);
        Map<String, String> all = new LinkedHashMap<>(now);
        then.forEach(all::putIfAbsent);
        for (String k : all.keySet())
            if (!java.util.Objects.equals(then.get(k), now.get(k)))
                return k + ": " + difference(then.get(k), now.get(k));
        return null;
    }

    private static void flatten(String prefix, Map<?, ?> m, Map<String, String> out) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            String k = prefix + e.getKey();
            if (e.getValue() instanceof Map<?, ?> inner) flatten(k + ".", inner, out);
            else out.put(k, String.valueOf(e.getValue()));
        }
    }

    /** "4096 then, 8192 now"; for long values (a machine's pool list) the part around where they first differ. */
    private static String difference(String then, String now) {
        if (then == null || now == null || (then.length() <= 60 && now.length() <= 60)) return shown(then) + " then, " + shown(now) + " now";
        int i = 0;
        while (i < then.length() && i < now.length() && then.charAt(i) == now.charAt(i)) i++;
        int from = Math.max(0, i - 30);
        return around(then, from) + " then, " + around(now, from) + " now";
    }

    private static String around(String v, int from) {
        int to = Math.min(v.length(), from + 60);
        return (from > 0 ? "..." : "") + v.substring(from, to) + (to < v.length() ? "..." : "");
    }

    private static String shown(String v) {
        if (v == null) return "(none)";
        return v.length() <= 60 ? v : v.substring(0, 57) + "...";
    }

    /** A run starts: its old error (if any) goes, its configuration is written. */
    public void begin(PlannedRun run) {
        for (String old : List.of(ERROR, PARTIAL_STATS, PARTIAL_SERIES)) remove(runDir(run).resolve(old));
        AtomicFiles.write(runDir(run).resolve(CONFIG), Json.write(config(run)));
    }

    /**
     * A run the study stopped at because the folder could not be written: its config.json goes if it can, so that status,
     * like the run's console, calls it pending (begun and never ended reads as a killed run). On a full disk a removal
     * still works; under a folder made read-only it does not, and status then calls the run interrupted, which --resume
     * runs again all the same.
     */
    public void unbegin(PlannedRun run) {
        try {
            Files.deleteIfExists(runDir(run).resolve(CONFIG));
        } catch (IOException | RuntimeException e) {
            // best effort: the error that stopped the study is the one to report
        }
    }

    /** Removes {@code f} if it is there; a folder that refuses it is the folder's fault, as a failed write is. */
    private static void remove(Path f) {
        try {
            Files.deleteIfExists(f);
        } catch (IOException e) {
            throw new ResultsWriteException("cannot remove", f, e);
        }
    }

    /** A run succeeded: time series first, stats.json last (it marks the run complete). */
    public void success(PlannedRun run, RunResult r) {
        describe(run, r);
        write(run, r, SERIES, STATS);
    }

    /** statistics.csv: what each statistic of stats.json is, as its component describes it (units of one kind in one row). */
    private void describe(PlannedRun run, RunResult r) {
        if (r.statDocs().isEmpty()) return;
        Csv docs = new Csv();
        docs.row(List.of("statistic", "description"));
        for (Map.Entry<String, String> e : r.statDocs().entrySet()) docs.row(List.of(e.getKey(), e.getValue()));
        AtomicFiles.write(runDir(run).resolve(STAT_DOCS), docs.toString());
    }

    /** Files of a run's statistics: the series, then the statistics (the latter marks a complete run when it is stats.json). */
    private void write(PlannedRun run, RunResult r, String seriesFile, String statsFile) {
        Csv series = new Csv();
        List<String> head = new ArrayList<>();
        head.add("time_ns");
        head.addAll(r.seriesNames());
        series.row(head);
        for (double[] row : r.seriesRows()) {
            List<String> cells = new ArrayList<>(row.length);
            for (double v : row) cells.add(Csv.number(v));
            series.row(cells);
        }
        AtomicFiles.write(runDir(run).resolve(seriesFile), series.toString());
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("run", run.id());
        stats.put("sim_time_ps", r.simTimePs());
        stats.put("events", r.events());
        stats.put("memory_requests", r.memoryRequests());
        stats.put(SERIES_ROWS, r.seriesRows().size()); // --resume finds a series cut at a line break by it
        stats.put("metrics", r.metrics());
        stats.put("stats", new TreeMap<>(r.stats()));
        AtomicFiles.write(runDir(run).resolve(statsFile), Json.write(stats));
    }

    /** A run failed: its stack trace goes to error.txt, and what it simulated before (if anything) beside it. */
    public void failure(PlannedRun run, Throwable t) {
        // a run stopped by max_time keeps its statistics up to the limit beside the error, under names that do not mark it complete
        if (t instanceof org.hmsim.platform.machine.SimTimeLimitException limit && limit.partial() != null)
            write(run, limit.partial(), PARTIAL_SERIES, PARTIAL_STATS);
        // any other failure mid-simulation keeps them too (a trial's run failed 48 us in and kept nothing)
        var failed = org.hmsim.platform.machine.RunFailureContext.of(t);
        if (failed != null && failed.partial() != null) write(run, failed.partial(), PARTIAL_SERIES, PARTIAL_STATS);
        AtomicFiles.write(runDir(run).resolve(ERROR), "run " + run.id() + " (" + run.label() + ") failed:\n" + describe(t, failed));
    }

    /**
     * A workload file's error met as the run built or ran it (an index out of range at some thread) is the user's input,
     * located at its file, line and field: said as such, with when it happened, not as a 30-line stack trace (a trial).
     * Anything else keeps its stack trace, which is what a plugin's author or we need.
     */
    private static String describe(Throwable t, org.hmsim.platform.machine.RunFailureContext context) {
        for (Throwable c = t; c != null; c = c.getCause())
            if (c instanceof org.hmsim.platform.workloads.file.WorkloadFileException input)
                return input.getMessage() + "\n" + (context == null ? "" : context.getMessage() + "\n");
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** Records a finished run from its files and rewrites runs.csv. */
    public synchronized void finished(PlannedRun run) {
        rows.put(run.index(), complete(run) ? readMetrics(run) : null);
        writeTable();
    }

    /**
     * A finished run's metrics. Its config.json must be there and readable too (what the run was is checked against
     * the study from it on --resume and collect); a stats.json without metrics ({@code {}}) is damaged as well.
     */
    private Map<String, Object> readMetrics(PlannedRun run) { return metricsOf(readStats(run), runDir(run).resolve(STATS)); }

    /** A finished run's stats.json, once its config.json is known to be the run's. */
    private Map<?, ?> readStats(PlannedRun run) {
        Path config = runDir(run).resolve(CONFIG), stats = runDir(run).resolve(STATS);
        if (!Files.isRegularFile(config)) throw new ResultsFolderException(config + " is missing, so run " + run.id() + " cannot be checked against the study");
        if (!run.id().equals(Json.read(config).get("run"))) // {} or another run's: not what hmsim wrote for this run
            throw new ResultsFolderException(config + " is not run " + run.id() + "'s configuration, so the run cannot be checked against the study");
        Map<?, ?> read = Json.read(stats);
        // another run's stats.json copied in (a trial merging folders put seed 1's numbers in seed 2's row): it says whose it is
        if (read.get("run") instanceof String owner && !owner.equals(run.id()))
            throw ResultsFolderException.damaged(stats, "it is run " + owner + "'s, not run " + run.id() + "'s");
        return read;
    }

    /** The metrics of a stats.json read from {@code stats}. */
    private static Map<String, Object> metricsOf(Map<?, ?> read, Path stats) {
        Object m = read.get("metrics");
        if (!(m instanceof Map<?, ?> given) || given.isEmpty()) throw ResultsFolderException.damaged(stats, "it holds no metrics");
        for (Map.Entry<?, ?> e : given.entrySet()) // runs.csv and every figure read them as numbers
            if (!(e.getValue() instanceof Number))
                throw ResultsFolderException.damaged(stats, "metric " + e.getKey() + " is " + Json.describe(e.getValue()) + ", not a number");
        @SuppressWarnings("unchecked")
        Map<String, Object> metrics = (Map<String, Object>) given;
        return metrics;
    }

    /** runs.csv: one row per finished run, in run order; metric columns in first-seen order. */
    public synchronized void writeTable() {
        List<String> metricColumns = new ArrayList<>();
        for (Map<String, Object> m : rows.values())
            if (m != null) for (String k : m.keySet()) if (!metricColumns.contains(k)) metricColumns.add(k);
        List<String> head = new ArrayList<>(List.of("run", "status", "workload", "machine"));
        for (Slot s : Slot.values()) head.add("slot." + s.id());
        head.addAll(study.sweepColumns());
        head.add("seed");
        head.addAll(metricColumns);
        Csv csv = new Csv().row(head);
        for (Map.Entry<Integer, Map<String, Object>> e : rows.entrySet()) {
            PlannedRun r = study.runs().get(e.getKey());
            Map<String, Object> m = e.getValue();
            List<String> row = new ArrayList<>(List.of(r.id(), m == null ? "failed" : "ok", r.workload().label(), r.machine().label()));
            for (Slot s : Slot.values()) row.add(r.policies().get(s).label());
            for (String c : study.sweepColumns()) row.add(r.sweepValues().getOrDefault(c, ""));
            row.add(Long.toString(r.seed()));
            for (String c : metricColumns) row.add(m == null ? "" : Csv.number(m.get(c)));
            csv.row(row);
        }
        AtomicFiles.write(dir.resolve(TABLE), csv.toString());
    }

    /**
     * SHA-256 of each workload file or trace the runs read, computed once per execution. Concurrent: the
     * run workers write their runs' config.json in parallel (a HashMap here failed a run with
     * ConcurrentModificationException under --jobs 2).
     */
    private final Map<String, String> fileShas = new java.util.concurrent.ConcurrentHashMap<>();

    /** The SHA-256 of the file {@code origin} names, or null if it names no file (a built-in or a bundle's workload). */
    private String fileSha(String origin) {
        if (origin == null) return null;
        return fileShas.computeIfAbsent(origin, o -> {
            Path f;
            try {
                f = Path.of(o);
            } catch (java.nio.file.InvalidPathException notAPath) {
                return null;
            }
            if (!Files.isRegularFile(f)) return null;
            try {
                return Sha256.ofFile(f);
            } catch (IOException e) {
                return null;
            }
        });
    }

    /**
     * The machine as the run simulates it, every default filled in (an energy trial could not tell which pJ per byte a run
     * had taken from the file's tree, which holds only what was written): the parsed records, in the model's units
     * (ps, bytes, bytes per second, MHz, pJ).
     */
    private static Map<String, Object> resolved(org.hmsim.platform.machine.MachineConfig m) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("gpus", m.gpus());
        r.put("page_bytes", m.pageBytes());
        r.put("gpu", m.gpu());
        r.put("gpu_energy", m.gpuEnergy());
        r.put("pools", m.pools());
        r.put("links", m.links());
        r.put("uvm", m.uvm());
        r.put("cpu", m.cpu());
        r.put("watchdog_ps", m.watchdogPs());
        return r;
    }

    /** The fully resolved configuration of a run. */
    private Map<String, Object> config(PlannedRun run) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("run", run.id());
        c.put("label", run.label());
        c.put("study", study.name());
        c.put("seed", run.seed());
        c.put("epoch_ps", study.epochPs());
        c.put("max_time_ps", study.maxTimePs());
        c.put("sweep", run.sweepValues());
        Map<String, Object> machine = new LinkedHashMap<>();
        machine.put("name", run.machine().label());
        machine.put("file", run.machine().file());
        machine.put("tree", run.machine().tree());
        machine.put("resolved", resolved(run.machine().config()));
        c.put("machine", machine);
        Map<String, Object> workload = new LinkedHashMap<>();
        workload.put("name", run.workload().entry().name());
        workload.put("origin", run.workload().entry().origin());
        workload.put("params", run.workload().params().asMap());
        // a workload file or trace can change under the same name and parameters: its contents identify the run too
        String sha = fileSha(run.workload().entry().origin());
        if (sha != null) workload.put("file_sha256", sha);
        // a mix's programs, each as a workload is recorded: a changed program (or its file) is a changed run
        if (run.workload().entry().provider() instanceof org.hmsim.platform.kernel.registry.WorkloadRegistry.MixProvider mix) {
            Map<String, Object> programs = new LinkedHashMap<>();
            for (int p = 0; p < mix.programs().size(); p++) {
                var program = mix.programs().get(p);
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("name", program.entry().name());
                one.put("params", program.params().asMap());
                String programSha = fileSha(program.entry().origin());
                if (programSha != null) one.put("file_sha256", programSha);
                programs.put("p" + p, one);
            }
            workload.put("programs", programs);
        }
        c.put("workload", workload);
        Map<String, Object> policies = new LinkedHashMap<>();
        for (Slot s : Slot.values()) {
            PolicyChoice p = run.policies().get(s);
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("name", p.entry().name());
            e.put("version", p.entry().version());
            e.put("bundle", p.entry().bundle());
            e.put("params", p.params().asMap());
            policies.put(s.id(), e);
        }
        c.put("policies", policies);
        // swaps replayed from another folder's records (--replay-swaps) make another run: --resume must see them
        List<org.hmsim.platform.machine.ScriptedSwap> replayed = replayOf(run);
        if (!replayed.isEmpty()) c.put("replayed_swaps", replayed.stream().map(ResultsFolder::replayed).toList());
        return c;
    }

    /** {@code epoch 3: replacement -> srrip {rrpv_bits=2}}, parameters in name order. */
    private static String replayed(org.hmsim.platform.machine.ScriptedSwap s) {
        StringBuilder b = new StringBuilder(s.when().name().toLowerCase(java.util.Locale.ROOT)).append(' ').append(s.value())
                .append(": ").append(s.slot().id()).append(" ->");
        for (org.hmsim.platform.machine.ScriptedSwap.Choice c : s.to()) {
            b.append(' ').append(c.policy());
            if (!c.params().isEmpty()) b.append(' ').append(new java.util.TreeMap<>(c.params()));
        }
        return b.toString();
    }
}
