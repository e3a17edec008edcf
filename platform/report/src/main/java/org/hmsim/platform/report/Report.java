package org.hmsim.platform.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code hmsim report RESULTS_DIR}: reads a results folder and writes {@code report.html} (self-contained)
 * and every figure as {@code figures/<id>.svg} and {@code .png} (docs/reports.md).
 */
public final class Report {
    public static final String HTML = "report.html";
    public static final String FIGURES = "figures";

    /** What was written. */
    public record Summary(Path html, List<Path> figureFiles, int figures, int failedRuns, List<String> warnings) {}

    private Report() {}

    /** Writes the report of {@code resultsDir} into {@code outDir} (usually the same folder). */
    public static Summary write(Path resultsDir, Path outDir) { return write(resultsDir, outDir, null); }

    /**
     * As {@link #write(Path, Path)}, with {@code figures} (a study's {@code report:} list, as study.json records it) in
     * place of the list the results folder recorded; null: the recorded one.
     */
    public static Summary write(Path resultsDir, Path outDir, List<Object> figures) { return write(resultsDir, outDir, figures, null); }

    /**
     * As {@link #write(Path, Path, List)}, with {@code statusNow} (the study's status as the caller found it, e.g.
     * "interrupted" where no process holds the folder of a study.json left "running") in place of study.json's; null:
     * study.json's.
     */
    public static Summary write(Path resultsDir, Path outDir, List<Object> figures, String statusNow) {
        Render.headless();
        Results r = Results.load(resultsDir, statusNow);
        Planner planner = new Planner();
        return write(r, outDir, planner, planner.figures(r, planner.specs(r, figures == null ? r.reportSpecs() : figures)));
    }

    private static Summary write(Results r, Path outDir, Planner planner, List<Figure> figures) {
        Map<String, String> svgs = writeFigures(outDir, figures);
        List<Path> files = new ArrayList<>();
        for (Figure f : figures)
            for (String ext : f.files()) files.add(outDir.resolve(FIGURES).resolve(f.id() + "." + ext));
        Html h = new Html().open("hmsim report: " + r.name());
        h.h(1, null, "hmsim report: " + r.name());
        h.p("sub", subtitle(r));
        contents(h, r, figures);
        h.h(2, "figures", "Figures");
        if (figures.isEmpty()) h.p("note", "No figure: no run finished with metrics.");
        for (Figure f : figures) h.figure(f, svgs.get(f.id()), true);
        // a partial folder (a study stopped or still running) says so first: its figures leave the other runs out
        List<String> warnings = new ArrayList<>(r.notes());
        warnings.addAll(planner.warnings());
        warnings(h, warnings);
        runsTable(h, r);
        failures(h, r);
        provenance(h, r);
        Path html = outDir.resolve(HTML);
        write(html, h.close().getBytes(StandardCharsets.UTF_8));
        return new Summary(html, files, figures.size(), r.errors().size(), List.copyOf(warnings));
    }

    static String subtitle(Results r) {
        long ok = r.runs().stream().filter(Run::ok).count();
        Object shape = r.study().get("shape");
        return (shape != null ? shape + " \u00b7 " : "") + ok + " ok, " + (r.runs().size() - ok) + " failed"
                + (r.study().get("status") != null ? " \u00b7 study " + r.study().get("status") : "") + " \u00b7 " + r.dir().toAbsolutePath().normalize();
    }

    private static void contents(Html h, Results r, List<Figure> figures) {
        StringBuilder b = new StringBuilder("<nav><a href=\"#figures\">Figures</a> (" + figures.size() + ") \u00b7 <a href=\"#runs\">Runs</a> ("
                + r.runs().size() + ")");
        if (!r.errors().isEmpty()) b.append(" \u00b7 <a href=\"#failed\">Failed runs</a> (").append(r.errors().size()).append(')');
        b.append(" \u00b7 <a href=\"#provenance\">Provenance</a></nav>\n");
        h.raw(b.toString());
    }

    static void warnings(Html h, List<String> warnings) {
        if (warnings.isEmpty()) return;
        h.h(2, "warnings", "Warnings");
        for (String w : warnings) h.p("note", w);
    }

    /** Every run: its varied configuration columns and all its metrics; sortable. */
    static void runsTable(Html h, Results r) {
        h.h(2, "runs", "Runs");
        h.p("sub", "Click a column header to sort. All columns of runs.csv but the configuration columns that are the same in every run.");
        List<String> cols = new ArrayList<>();
        for (String c : r.configColumns()) if (r.changing().contains(c) || c.equals("workload")) cols.add(c);
        List<String> head = new ArrayList<>(List.of("run", "status"));
        head.addAll(cols);
        head.addAll(r.metrics());
        List<List<String>> rows = new ArrayList<>();
        List<String> classes = new ArrayList<>();
        for (Run run : r.runs()) {
            List<String> row = new ArrayList<>(List.of(run.id(), run.ok() ? "ok" : "failed"));
            for (String c : cols) row.add(run.value(c));
            for (String m : r.metrics()) row.add(Numbers.show(run.metric(m)));
            rows.add(row);
            classes.add(run.ok() ? "" : "failed");
        }
        h.table("runs-table", head, rows, classes);
    }

    static void failures(Html h, Results r) {
        if (r.errors().isEmpty()) return;
        h.h(2, "failed", "Failed runs");
        for (Map.Entry<String, String> e : r.errors().entrySet()) {
            Run run = r.run(e.getKey());
            h.h(3, "failed-" + e.getKey(), "run " + e.getKey() + (run == null ? "" : " \u2014 " + Planner.label(r, run)));
            h.pre("error", e.getValue());
        }
    }

    /** hmsim version, Java, study file and hash, seeds, status and times, every bundle with its version. */
    static void provenance(Html h, Results r) {
        h.h(2, "provenance", "Provenance");
        Map<String, Object> s = r.study();
        if (s.isEmpty()) {
            h.p("note", "No study.json in " + r.dir() + ": provenance unknown.");
            return;
        }
        StringBuilder b = new StringBuilder("<dl class=\"prov\">\n");
        // source_commit and a resumed folder's executions, first_started and replay_swaps_from were in study.json only (an
        // artifact evaluator's trial); a key an older study.json lacks, or holds empty, is left out
        for (String k : List.of("study", "study_file", "study_sha256", "hmsim_version", "source_commit", "java_version", "java_vendor", "seeds", "runs",
                "shape", "status", "first_started", "started", "finished", "executions", "replay_swaps_from", "swaps", "report")) {
            if (!s.containsKey(k) || s.get(k) == null || "".equals(s.get(k))) continue;
            b.append("<dt>").append(Html.esc(k)).append("</dt><dd>").append(Html.esc(flow(s.get(k)))).append("</dd>\n");
        }
        h.raw(b.append("</dl>\n").toString());
        if (s.get("machine_files") instanceof List<?> machines && !machines.isEmpty()) {
            h.h(3, "machine-files", "Machine files");
            List<List<String>> rows = new ArrayList<>();
            for (Object o : machines)
                if (o instanceof Map<?, ?> m) rows.add(List.of(String.valueOf(m.get("file")), String.valueOf(m.get("sha256"))));
            h.table("machines-table", List.of("file", "SHA-256"), rows, null);
        }
        if (s.get("bundles") instanceof List<?> bundles) {
            h.h(3, "bundles", "Bundles");
            List<List<String>> rows = new ArrayList<>();
            for (Object o : bundles)
                if (o instanceof Map<?, ?> m) rows.add(List.of(String.valueOf(m.get("symbolic_name")), String.valueOf(m.get("version"))));
            h.table("bundles-table", List.of("bundle", "version"), rows, null);
        }
    }

    /** A value of study.json as the study file would write it (YAML flow style), not as Java prints maps. */
    static String flow(Object v) {
        if (v instanceof Map<?, ?> m) {
            List<String> parts = new ArrayList<>();
            m.forEach((k, x) -> parts.add(k + ": " + flow(x)));
            return "{" + String.join(", ", parts) + "}";
        }
        if (v instanceof List<?> l) {
            List<String> parts = new ArrayList<>();
            for (Object x : l) parts.add(flow(x));
            return l.isEmpty() ? "[] (none)" : "[" + String.join(", ", parts) + "]";
        }
        return String.valueOf(v);
    }

    /** The files a report (or compare, a-/b-) writes into figures/: each figure's SVG, PNG and CSV. */
    private static final java.util.regex.Pattern FIGURE_FILE = java.util.regex.Pattern.compile("(a-|b-)?fig-.+\\.(svg|png|csv)");

    /** Whether a file of figures/ is one a report writes (so a later report or run may replace it). */
    public static boolean isFigureFile(String name) { return FIGURE_FILE.matcher(name).matches(); }

    /**
     * Whether {@code html} is a page a report wrote (it carries hmsim's generator mark in its head), so a report may
     * replace it and the figure files beside it; a page of the user's, or one that cannot be read, is not.
     */
    public static boolean isOwnPage(Path html) {
        try (java.io.Reader r = Files.newBufferedReader(html, StandardCharsets.UTF_8)) {
            char[] head = new char[4096];
            int n = r.read(head);
            String h = n > 0 ? new String(head, 0, n) : "";
            // pages from before the mark (2026-11-27) are known by their title
            return h.contains(Html.GENERATOR) || h.contains("<title>hmsim report: ") || h.contains("<title>hmsim compare: ");
        } catch (IOException | UncheckedIOException e) {
            return false; // not UTF-8, unreadable: not ours to replace
        }
    }

    /** PNG files are drawn at this multiple of the figure's size (1500 x 780 pixels for a bar chart). */
    static final double PNG_SCALE = 1.5;

    /**
     * figures/&lt;id&gt;.svg and .png for every figure (figures of an earlier report are removed first);
     * returns each figure's SVG element by id. Figures are drawn in parallel: each has its own chart.
     */
    static Map<String, String> writeFigures(Path outDir, List<Figure> figures) {
        Path dir = outDir.resolve(FIGURES);
        try {
            Files.createDirectories(dir);
            try (Stream<Path> old = Files.list(dir)) {
                for (Path p : old.toList()) {
                    String n = p.getFileName().toString();
                    if (isFigureFile(n)) Files.delete(p);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> svgs = new java.util.concurrent.ConcurrentHashMap<>();
        figures.parallelStream().forEach(f -> {
            String svg = Render.svgElement(f);
            svgs.put(f.id(), svg);
            write(dir.resolve(f.id() + ".svg"), Render.svgDocument(svg).getBytes(StandardCharsets.UTF_8));
            write(dir.resolve(f.id() + ".png"), Render.png(f, PNG_SCALE));
            String csv = f.csv();
            if (csv != null) write(dir.resolve(f.id() + ".csv"), csv.getBytes(StandardCharsets.UTF_8));
        });
        return svgs;
    }

    /** Written to a temporary file and renamed, as every results file (README "Results"). */
    static void write(Path file, byte[] bytes) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            Files.write(tmp, bytes);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            try { // a full disk: leave no half-written .tmp behind (the next report removed it only then)
                Files.deleteIfExists(tmp);
            } catch (IOException ignored) {
                // the write's own failure is the one to report
            }
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
