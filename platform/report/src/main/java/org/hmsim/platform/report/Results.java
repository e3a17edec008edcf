package org.hmsim.platform.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A results folder as the report reads it from disk (README "Results"): runs.csv, study.json and the
 * run folders. Only files are read, never the kernel, so any folder written by any hmsim version that
 * keeps this layout can be reported on.
 */
public final class Results {
    private final Path dir;
    private final List<String> header;
    private final List<String> configColumns;
    private final List<String> metrics;
    private final List<Run> runs;
    private final Map<String, Object> study;
    private final Map<String, String> errors;
    private final List<String> notes;

    private Results(Path dir, List<String> header, List<String> configColumns, List<String> metrics, List<Run> runs,
                    Map<String, Object> study, Map<String, String> errors, List<String> notes) {
        this.dir = dir;
        this.header = header;
        this.configColumns = configColumns;
        this.metrics = metrics;
        this.runs = runs;
        this.study = study;
        this.errors = errors;
        this.notes = notes;
    }

    /** Reads {@code dir}; throws BadResultsException when it is not a results folder or its runs.csv is damaged. */
    public static Results load(Path dir) { return load(dir, null); }

    /**
     * As {@link #load(Path)}, with {@code statusNow} in place of the status study.json records (null: that one): a
     * study.json left "running" by an execution that was killed is out of date, which only the caller can tell (from
     * the folder's lock); the report then says what the study is, and says why in a note.
     */
    public static Results load(Path dir, String statusNow) {
        Path table = dir.resolve("runs.csv");
        if (!Files.isRegularFile(table))
            throw new BadResultsException(dir + " is not a results folder: it has no runs.csv");
        CsvTable t = CsvTable.readRuns(table);
        List<String> header = t.header();
        if (header.isEmpty()) throw new BadResultsException(table + ": empty, not an hmsim runs.csv");
        int first = header.indexOf("workload"), seed = header.indexOf("seed");
        if (header.indexOf("run") != 0 || first < 0)
            throw new BadResultsException(table + ": not an hmsim runs.csv (its header starts " + header + ")");
        // Configuration columns run from workload to seed; every column after seed is a metric.
        int lastConfig = seed >= 0 ? seed : first;
        List<String> config = List.copyOf(header.subList(first, lastConfig + 1));
        List<String> metrics = List.copyOf(header.subList(lastConfig + 1, header.size()));
        List<Run> runs = new ArrayList<>();
        int status = header.indexOf("status");
        for (int r = 0; r < t.rows().size(); r++) {
            List<String> row = t.rows().get(r);
            if (row.isEmpty() || row.size() == 1 && row.get(0).isEmpty()) continue;
            Map<String, String> c = new LinkedHashMap<>();
            for (int i = first; i <= lastConfig; i++) c.put(header.get(i), i < row.size() ? row.get(i) : "");
            Map<String, Double> m = new LinkedHashMap<>();
            for (int i = lastConfig + 1; i < header.size() && i < row.size(); i++) {
                String cell = row.get(i);
                double v = Numbers.parse(cell);
                // hmsim writes a metric as a number, NaN, or nothing (a failed run): anything else is damage, which
                // would otherwise leave the run out of every figure without a word
                if (Double.isNaN(v) && !cell.isBlank() && !cell.trim().equals("NaN"))
                    throw new BadResultsException(table + ": row " + (r + 1) + " (after the header), column " + header.get(i) + ": '" + cell
                            + "' is not a number; the file is damaged (hmsim run STUDY --out DIR --resume rebuilds it from runs/)");
                if (!Double.isNaN(v)) m.put(header.get(i), v);
            }
            boolean ok = status < 0 || status >= row.size() || row.get(status).equals("ok");
            runs.add(new Run(row.get(0), ok, c, m));
        }
        Map<String, Object> study = readStudy(dir.resolve("study.json"));
        List<String> notes = new ArrayList<>();
        if (statusNow != null && !study.isEmpty() && !statusNow.equals(study.get("status"))) {
            notes.add("study.json says the study is " + study.get("status") + ", but no hmsim process is writing " + dir
                    + " any more: it was " + statusNow + " (killed, or its disk full); hmsim run STUDY --out " + dir + " --resume continues it");
            study = new LinkedHashMap<>(study);
            study.put("status", statusNow);
        }
        notes.addAll(missingRows(dir, table, runs, study));
        String stale = staleRow(dir, header, t.rows());
        if (stale != null) throw new BadResultsException(stale);
        return new Results(dir, header, config, metrics, List.copyOf(runs), study, readErrors(dir.resolve("runs")), notes);
    }

    /**
     * What runs.csv lacks of the runs study.json lists. A run's row is written when it ends, so a finished study has one
     * per run, and a row missing there, or for a run whose stats.json is in runs/, is a file cut short at a line break
     * (which no row's width shows) or out of date: refused, as the report would leave those runs out without a word
     * and compare would call them moved. A study stopped, still running or collected incomplete lacks the runs that did
     * not end: said in a note, which the report shows.
     */
    private static List<String> missingRows(Path dir, Path table, List<Run> rows, Map<String, Object> study) {
        if (!(study.get("runs") instanceof Number n) || n.intValue() < 1) return List.of(); // not a folder hmsim wrote
        Set<String> have = new LinkedHashSet<>();
        for (Run r : rows) have.add(r.id());
        int total = n.intValue();
        List<String> missing = new ArrayList<>(), ended = new ArrayList<>();
        for (int i = 1; i <= total; i++) {
            String id = runId(i, total);
            if (have.contains(id)) continue;
            missing.add(id);
            if (Files.isRegularFile(dir.resolve("runs").resolve(id).resolve("stats.json"))) ended.add(id);
        }
        if (missing.isEmpty()) return List.of();
        Object status = study.get("status");
        boolean finished = "finished".equals(status);
        if (finished || !ended.isEmpty())
            throw new BadResultsException(table + ": no row for run(s) " + listed(finished ? missing : ended) + " of the " + total + " runs study.json lists"
                    + (finished ? " (the study finished)" : ", which ended (their stats.json is in runs/)")
                    + ": the file is cut short or out of date (hmsim collect " + dir + ", or hmsim run STUDY --out " + dir
                    + " --resume, rebuilds it from runs/)");
        return List.of("runs.csv has rows for " + (total - missing.size()) + " of the " + total + " runs study.json lists (the study's status: "
                + status + "); not in it: " + listed(missing));
    }

    /**
     * The first row of {@code dir}'s runs.csv that is not the run its id names, said in one line (row, run, column, what
     * the run's config.json records and what the row holds), or null; a damaged file gives a {@link BadResultsException}.
     * Only missing rows were caught: a runs.csv copied from the same study with its sweep reordered passed, and the report
     * drew run 0001's series (local) under the row's label (ratio). Each row is checked against what runs/ID/config.json
     * records of that run: its seed, machine, sweep values, the workload its label begins with and its policies' names.
     */
    public static String staleRow(Path dir) {
        Path table = dir.resolve("runs.csv");
        if (!Files.isRegularFile(table)) return null;
        CsvTable t = CsvTable.readRuns(table);
        return staleRow(dir, t.header(), t.rows());
    }

    private static String staleRow(Path dir, List<String> header, List<List<String>> rows) {
        for (int r = 0; r < rows.size(); r++) {
            List<String> row = rows.get(r);
            if (row.isEmpty() || row.get(0).isEmpty()) continue;
            Map<String, Object> config = readConfig(dir.resolve("runs").resolve(row.get(0)).resolve("config.json"));
            if (config == null || !row.get(0).equals(config.get("run"))) continue; // none, or damaged: --resume and collect name it
            for (int c = 1; c < header.size() && c < row.size(); c++) {
                String expected = recordedFor(header.get(c), row.get(c), config);
                if (expected != null)
                    return dir.resolve("runs.csv") + ": row " + (r + 1) + " (after the header), run " + row.get(0) + ", column " + header.get(c)
                            + ": runs/" + row.get(0) + "/config.json records " + expected + ", the row holds '" + row.get(c)
                            + "': the file is out of date or another folder's (hmsim collect " + dir + ", or hmsim run STUDY --out " + dir
                            + " --resume, rebuilds it from runs/)";
            }
        }
        return null;
    }

    /**
     * What {@code config} records for runs.csv's {@code column} when the row's {@code cell} is not it, else null. A policy's
     * or workload's label carries its given parameters as written ({@code ratio(fast_percent=70)}, sizes as {@code 16KB}),
     * config.json the resolved ones: only the name is compared, the swept values have their own columns.
     */
    private static String recordedFor(String column, String cell, Map<String, Object> config) {
        if (column.equals("seed")) return sameNumber(config.get("seed"), cell) ? null : String.valueOf(config.get("seed"));
        if (column.equals("machine")) return differs(at(config, "machine", "name"), cell);
        if (column.equals("workload")) {
            // by the workload's name, as the slots are: its parameters are written as each build labelled them (1e3 was
            // 1000.0 before 2026-11-27), and a folder collected by another build could never be reported (a review)
            Object name = at(config, "workload", "name");
            if (name instanceof String w) return cell.equals(w) || cell.startsWith(w + "(") || cell.startsWith(w + " ") ? null : "workload " + w;
            Object label = config.get("label"); // a mix's workload: its label, then the swept values and seed, space-separated
            return !(label instanceof String l) || l.equals(cell) || l.startsWith(cell + " ") ? null : "label '" + l + "'";
        }
        if (column.startsWith("slot.")) {
            Object name = at(config, "policies", column.substring("slot.".length()), "name");
            return name == null || cell.equals(name) || cell.startsWith(name + "(") || cell.startsWith(name + "@") ? null : "policy " + name;
        }
        return config.get("sweep") instanceof Map<?, ?> sweep && sweep.containsKey(column) ? differs(sweep.get(column), cell) : null;
    }

    /** The recorded value where it is not {@code cell}, else (or where nothing is recorded) null. */
    private static String differs(Object recorded, String cell) {
        return recorded == null || recorded.toString().equals(cell) || sameNumber(recorded, cell) ? null : "'" + recorded + "'";
    }

    private static boolean sameNumber(Object recorded, String cell) {
        if (!(recorded instanceof Number n)) return recorded == null;
        try {
            return n.doubleValue() == Double.parseDouble(cell);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** The value at {@code path} in a JSON tree, or null. */
    private static Object at(Map<String, Object> tree, String... path) {
        Object o = tree;
        for (String k : path) o = o instanceof Map<?, ?> m ? m.get(k) : null;
        return o;
    }

    /** Reads every run's config.json of a study (thread-safe once made). */
    private static final ObjectMapper CONFIGS = new ObjectMapper();

    /** A run's config.json as a tree, or null where there is none or it cannot be read. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> readConfig(Path f) {
        if (!Files.isRegularFile(f)) return null;
        try {
            return CONFIGS.readValue(f.toFile(), Map.class);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The id of run {@code n} (from 1) of a study of {@code total} runs: zero-padded to 4 digits, or to the width of {@code total}. */
    public static String runId(int n, int total) {
        return String.format("%0" + Math.max(4, Integer.toString(total).length()) + "d", n);
    }

    /** The run ids runs.csv has rows for, in its order; a damaged file gives a {@link BadResultsException} that names it. */
    public static List<String> runIds(Path table) {
        List<String> ids = new ArrayList<>();
        for (List<String> row : CsvTable.readRuns(table).rows()) ids.add(row.get(0));
        return ids;
    }

    /** The first ten ids, and how many more: a message stays one readable line for a study of thousands of runs. */
    public static String listed(List<String> ids) {
        String first = String.join(", ", ids.subList(0, Math.min(10, ids.size())));
        return ids.size() <= 10 ? first : first + " and " + (ids.size() - 10) + " more";
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> readStudy(Path f) {
        if (!Files.isRegularFile(f)) return Map.of();
        // a damaged study.json is refused as collect and status refuse it: a report without its provenance said nothing
        Object o;
        try {
            o = new ObjectMapper().readValue(f.toFile(), Object.class);
        } catch (IOException e) {
            String first = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            throw new BadResultsException(f + " is damaged (" + first + "); hmsim collect DIR --study FILE writes it again");
        }
        if (!(o instanceof Map<?, ?> m)) throw new BadResultsException(f + " is damaged (not a JSON object); hmsim collect DIR --study FILE writes it again");
        return (Map<String, Object>) m;
    }

    /** Every runs/&lt;id&gt;/error.txt, by run id in order (also runs missing from runs.csv). */
    private static Map<String, String> readErrors(Path runsDir) {
        Map<String, String> out = new LinkedHashMap<>();
        if (!Files.isDirectory(runsDir)) return out;
        try (Stream<Path> s = Files.list(runsDir)) {
            for (Path run : s.sorted().toList()) {
                Path e = run.resolve("error.txt");
                if (Files.isRegularFile(e)) out.put(run.getFileName().toString(), Files.readString(e, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    public Path dir() { return dir; }

    /** The study's name from study.json, else the folder's name. */
    public String name() {
        Object n = study.get("study");
        return n != null ? n.toString() : dir.toAbsolutePath().normalize().getFileName().toString();
    }

    public List<String> header() { return header; }

    /** workload, machine, slot.&lt;slot&gt;..., the swept parameters, seed. */
    public List<String> configColumns() { return configColumns; }

    /** Sweep columns: configuration columns that are neither workload, machine, seed nor a slot. */
    public List<String> sweepColumns() {
        List<String> out = new ArrayList<>();
        for (String c : configColumns)
            if (!c.equals("workload") && !c.equals("machine") && !c.equals("seed") && !c.startsWith("slot.")) out.add(c);
        return out;
    }

    public List<String> metrics() { return metrics; }

    public List<Run> runs() { return runs; }

    public List<Run> okRuns() { return runs.stream().filter(Run::ok).toList(); }

    /** study.json as a tree (empty when the folder has none). */
    public Map<String, Object> study() { return study; }

    /** The figures the study asked for (study.json's {@code report}); empty for defaults. */
    @SuppressWarnings("unchecked")
    public List<Object> reportSpecs() {
        Object r = study.get("report");
        return r instanceof List<?> l ? (List<Object>) l : List.of();
    }

    /** What the folder lacks of its study (a study stopped or still running: the runs that did not end); empty if nothing. */
    public List<String> notes() { return notes; }

    /** Error text of every failed run, by id. */
    public Map<String, String> errors() { return errors; }

    /** A run's time series and swaps; null when it has none. */
    public TimeSeries series(String runId) { return TimeSeries.read(dir.resolve("runs").resolve(runId)); }

    /** What is wrong with a run's timeseries.csv and swaps.csv (one line per damaged file; empty if nothing). */
    List<String> seriesProblems(String runId) { return TimeSeries.problems(dir.resolve("runs").resolve(runId)); }

    /** The distinct values of a configuration column among the ok runs, in run order. */
    public List<String> values(String column) {
        Set<String> s = new LinkedHashSet<>();
        for (Run r : okRuns()) s.add(r.value(column));
        return List.copyOf(s);
    }

    /** Configuration columns with more than one value among the ok runs. */
    public List<String> changing() {
        List<String> out = new ArrayList<>();
        for (String c : configColumns) if (values(c).size() > 1) out.add(c);
        return out;
    }

    /**
     * What the study varied: the changing columns, without a slot column that only mirrors a swept
     * parameter of its policy ({@code slot.placement = ratio(fast_percent=50)} beside
     * {@code policies.placement.fast_percent = 50}): figures group by the swept value.
     */
    public List<String> varying() {
        List<String> changing = changing(), out = new ArrayList<>();
        for (String c : changing) {
            boolean mirror = false;
            if (c.startsWith("slot."))
                for (String other : changing)
                    if (!other.startsWith("slot.") && !other.equals("workload") && !other.equals("machine") && !other.equals("seed")
                            && oneToOne(c, List.of(other))) mirror = true;
            if (c.startsWith("slot.") && !mirror) mirror = mirrorsItsParameters(c, changing);
            if (!mirror) out.add(c);
        }
        return out;
    }

    /**
     * Whether a slot column mirrors two or more swept parameters of its policy together ({@code etc(ratio=1.5,
     * declared_ratios=true)} beside {@code policies.compression.ratio} and {@code …declared_ratios}): it matches
     * neither alone, and kept as a dimension it made every line of a line figure a single point.
     */
    private boolean mirrorsItsParameters(String slotColumn, List<String> changing) {
        String prefix = "policies." + slotColumn.substring("slot.".length()) + ".";
        List<String> params = changing.stream().filter(o -> o.startsWith(prefix)).toList();
        return params.size() > 1 && oneToOne(slotColumn, params);
    }

    /** Whether each value of a goes with one combination of values of bs and the other way round, over the ok runs. */
    private boolean oneToOne(String a, List<String> bs) {
        Map<String, String> ab = new LinkedHashMap<>(), ba = new LinkedHashMap<>();
        for (Run r : okRuns()) {
            String va = r.value(a), vb = String.join("\u0000", bs.stream().map(r::value).toList());
            if (!vb.equals(ab.computeIfAbsent(va, k -> vb)) || !va.equals(ba.computeIfAbsent(vb, k -> va))) return false;
        }
        return true;
    }

    /** Metric names matching a pattern with {@code *} wildcards ({@code pool.*.bytes}), in column order. */
    public List<String> metricsMatching(String pattern) {
        if (!pattern.contains("*")) return metrics.contains(pattern) ? List.of(pattern) : List.of();
        return metrics.stream().filter(m -> matches(pattern, m)).toList();
    }

    /** Whether {@code name} is {@code pattern}, where {@code *} stands for any one part between dots. */
    static boolean matches(String pattern, String name) {
        if (!pattern.contains("*")) return pattern.equals(name);
        return name.matches(("\\Q" + pattern + "\\E").replace("*", "\\E[^.]*\\Q"));
    }

    /** The same folder with only the runs {@code keep} accepts (a figure's {@code where:}). */
    public Results filtered(java.util.function.Predicate<Run> keep) {
        return new Results(dir, header, configColumns, metrics, runs.stream().filter(keep).toList(), study, errors, notes);
    }

    /** A run by id, or null. */
    public Run run(String id) {
        for (Run r : runs) if (r.id().equals(id)) return r;
        return null;
    }
}
