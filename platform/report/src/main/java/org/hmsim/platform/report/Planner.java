package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Decides the figures of a report: those the study's {@code report:} names, or the defaults
 * (docs/reports.md): per-metric bars by workload and policy normalised to the study's baseline with a
 * geometric mean, absolute hit rates and bandwidths, traffic shares, lines over every swept numeric
 * parameter, and the time series of every run.
 */
public final class Planner {
    /** Time series figures drawn when a timeseries figure names no runs: more would bury the rest of the report. */
    public static final int MAX_SERIES = 16;

    private final List<String> warnings = new ArrayList<>();

    /** Problems met while planning (an unreadable spec, a metric no run has); shown in the report. */
    public List<String> warnings() { return warnings; }

    /** The study's figures, or the defaults when it names none. */
    public List<FigureSpec> specs(Results r) { return specs(r, r.reportSpecs()); }

    /** The figures of {@code raw} (a {@code report:} list as study.json records it), or the defaults if it is empty. */
    public List<FigureSpec> specs(Results r, List<Object> raw) {
        if (raw.isEmpty()) return defaults(r);
        List<FigureSpec> out = new ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            try {
                out.add(FigureSpec.parseRecorded(raw.get(i)));
            } catch (FigureSpecException e) {
                warnings.add("report[" + i + "]" + (e.key().isEmpty() ? "" : "." + e.key()) + ": " + e.getMessage());
            }
        }
        return out;
    }

    /** The figures when the study names none. */
    public static List<FigureSpec> defaults(Results r) {
        List<String> varied = new ArrayList<>(r.varying());
        varied.remove("seed");
        boolean baseline = varied.stream().anyMatch(c -> !c.equals("workload") && !c.equals("machine"));
        List<FigureSpec> out = new ArrayList<>();
        for (String m : List.of("sim_time_ns", "ipc", "energy_uj"))
            if (r.metrics().contains(m)) out.add(FigureSpec.bars(m, baseline));
        for (String m : List.of("l1_hit_rate", "l2_hit_rate", "pool.*.bandwidth_gbps"))
            for (String metric : r.metricsMatching(m)) out.add(FigureSpec.bars(metric, false));
        List<String> bytes = r.metricsMatching("pool.*.bytes");
        if (bytes.size() > 1)
            out.add(new FigureSpec(FigureSpec.Kind.STACKED, List.of("pool.*.bytes"), "workload", null, null, null, false, true, List.of(), "Traffic share per pool"));
        for (String x : r.sweepColumns()) {
            List<String> values = r.values(x);
            if (values.size() < 2 || values.stream().anyMatch(v -> Double.isNaN(Numbers.leading(v)))) continue;
            for (String m : List.of("sim_time_ns", "pool.*.bandwidth_gbps"))
                for (String metric : r.metricsMatching(m))
                    out.add(new FigureSpec(FigureSpec.Kind.LINE, List.of(metric), "workload", x, null, null, false, false, List.of(), null));
        }
        out.add(new FigureSpec(FigureSpec.Kind.TIMESERIES, List.of(), "workload", null, null, null, false, false, List.of(), null));
        return out;
    }

    /** Builds the figures of {@code specs} on {@code r}. */
    public List<Figure> figures(Results all, List<FigureSpec> specs) {
        List<Figure> out = new ArrayList<>();
        for (int i = 0; i < specs.size(); i++) {
            FigureSpec s = specs.get(i);
            Results r = where(all, s, i);
            String prefix = String.format(Locale.ROOT, "fig-%02d-%s", i + 1, s.kind().name().toLowerCase(Locale.ROOT));
            switch (s.kind()) {
                case BAR, LINE -> {
                    List<String> metrics = expand(r, s.metrics(), i);
                    for (String m : metrics) out.add(s.kind() == FigureSpec.Kind.BAR ? bar(r, s, m, id(prefix, m, metrics.size())) : line(r, s, m, id(prefix, m, metrics.size())));
                }
                case STACKED -> {
                    List<String> metrics = expand(r, s.metrics(), i);
                    if (!metrics.isEmpty()) out.add(stacked(r, s, metrics, prefix));
                }
                case TIMESERIES -> out.addAll(timeSeries(r, s, prefix, i));
            }
        }
        return out;
    }

    /**
     * The runs a figure draws: those whose every column named in {@code where:} has one of the given
     * values (matched as normalise_to's values: exactly, as a number, or by policy name), and the runs of
     * the figure's baseline ({@code normalise_to}'s values, where:'s on the other columns), so a figure can
     * draw CODA alone and still be normalised to FGP-Only (the baseline shows as its 1.0 bars).
     */
    private Results where(Results r, FigureSpec s, int index) {
        if (s.where().isEmpty()) return r;
        Map<String, Set<String>> keep = new LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : s.where().entrySet()) {
            String col = Columns.resolve(r, e.getKey());
            if (col == null) {
                warnings.add("report[" + index + "].where: no column " + e.getKey() + " in runs.csv; the condition is ignored");
                continue;
            }
            Set<String> values = new LinkedHashSet<>();
            for (String v : e.getValue()) {
                String m = Columns.match(r, col, v);
                if (m == null) warnings.add("report[" + index + "].where: " + e.getKey() + " has no value " + v + " (values: " + r.values(col) + ")");
                else values.add(m);
            }
            keep.put(col, values);
        }
        // The baseline's runs: normalise_to's values on its columns, where:'s on the others.
        Map<String, Set<String>> base = new LinkedHashMap<>(keep);
        if (s.normalise() != null)
            for (Map.Entry<String, String> e : s.normalise().values().entrySet()) {
                String col = Columns.resolve(r, e.getKey());
                String m = col == null ? null : Columns.match(r, col, e.getValue());
                if (m != null && base.containsKey(col)) base.put(col, Set.of(m));
            }
        return r.filtered(run -> matches(run, keep) || matches(run, base));
    }

    /** A caption assembled from sentences some of which are empty: single spaces, none at the ends. */
    private static String tidy(String caption) { return caption.replaceAll("\\s{2,}", " ").trim(); }

    /** The figure's where: filter in words, so a caption read alone says which runs it shows. */
    private static String whereNote(Results r, FigureSpec s) {
        List<String> parts = new ArrayList<>();
        // only the conditions where() applied (an unknown column or value was warned about and ignored)
        s.where().forEach((k, v) -> {
            String col = Columns.resolve(r, k);
            List<String> known = col == null ? List.of() : v.stream().filter(x -> Columns.match(r, col, x) != null).toList();
            if (!known.isEmpty()) parts.add(k + " = " + String.join(" or ", known));
        });
        if (parts.isEmpty()) return "";
        return (s.normalise() != null ? " Runs shown (and their baseline's): " : " Runs shown: ") + String.join(", ", parts) + ".";
    }

    private static boolean matches(Run run, Map<String, Set<String>> keep) {
        return keep.entrySet().stream().allMatch(e -> e.getValue().contains(run.value(e.getKey())));
    }

    private static String id(String prefix, String metric, int n) {
        return prefix + "-" + metric.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private List<String> expand(Results r, List<String> patterns, int index) {
        List<String> out = new ArrayList<>();
        for (String p : patterns) {
            List<String> m = r.metricsMatching(p);
            if (m.isEmpty()) warnings.add("report[" + index + "]: no metric " + p + " in runs.csv");
            for (String s : m) if (!out.contains(s)) out.add(s);
        }
        return out;
    }

    private Figure bar(Results r, FigureSpec s, String metric, String id) {
        FigureData.Computed c = FigureData.bars(r, metric, s);
        String byName = s.by();
        String title = s.title() != null ? s.title()
                : c.normalised() && c.valueLabel().startsWith("speedup") ? "Speedup (" + metric + ") by " + byName
                : c.normalised() ? metric + " normalised, by " + byName : metric + " by " + byName;
        String caption = (c.normalised() ? "Each bar relative to the same " + byName + " with " + c.baseline()
                + (c.valueLabel().startsWith("speedup") ? " (baseline time / time: higher is faster)" : "")
                + (c.grid().categories().contains(FigureData.GEOMEAN) ? "; geomean: geometric mean over the " + byName + "s" : "") + ". "
                : "Absolute values. ") + seedNote(r, c) + whereNote(r, s);
        return new Figure(id, title, tidy(caption), Charts.bars(title, byName, c), 1000, 520, c, byName, c.notes());
    }

    private Figure line(Results r, FigureSpec s, String metric, String id) {
        FigureData.Computed c = FigureData.lines(r, metric, s);
        String x = Columns.resolve(r, s.x());
        List<String> cats = c.grid().categories();
        double[] xs = new double[cats.size()];
        for (int i = 0; i < xs.length; i++) xs[i] = Numbers.inUnitOf(cats.get(i), cats.get(0)); // one unit on the axis, the first value's
        String unit = cats.isEmpty() ? "" : Numbers.unit(cats.get(0));
        String xName = x == null ? s.x() : x;
        // the axis says the parameter as the title and legends do (fast_percent, not policies.placement.fast_percent);
        // the figure's CSV keeps the whole column name
        String xLabel = (x == null ? s.x() : Columns.shortName(x, r.varying())) + (unit.isEmpty() ? "" : " (" + unit + ")");
        String title = s.title() != null ? s.title() : metric + " over " + (x == null ? s.x() : Columns.shortName(x));
        String caption = (c.normalised() ? "Relative to " + c.baseline() + ". " : "") + "One line per combination of the other varied columns. " + seedNote(r, c) + whereNote(r, s);
        return new Figure(id, title, tidy(caption), Charts.lines(title, xLabel, c, xs), 1000, 520, c, xName, c.notes());
    }

    private Figure stacked(Results r, FigureSpec s, List<String> metrics, String prefix) {
        FigureData.Computed c = FigureData.stacks(r, metrics, s);
        String title = s.title() != null ? s.title() : (s.shares() ? "Shares of " : "") + String.join(" + ", metrics);
        String caption = (s.shares() ? "Each bar splits its total (" + String.join(" + ", metrics) + ") into shares. " : "Stacked values. ") + seedNote(r) + whereNote(r, s);
        String axis = stackAxis(r, s.by());
        return new Figure(prefix + "-" + metrics.get(0).replaceAll("[^A-Za-z0-9_.-]", "_"), title, tidy(caption),
                Charts.stacks(title, axis, c, s.shares()), 1000, 560, c, axis, c.notes());
    }

    /**
     * What a stacked figure's bars are, for its axis label: one bar per configuration ({@link FigureData#stacks}),
     * named by its {@code by} value, by the other varied columns, or both. A study of one workload has bars
     * "fast_percent=0", "fast_percent=10", …: labelling that axis "workload" would misname them.
     */
    static String stackAxis(Results r, String byName) {
        String by = Columns.resolve(r, byName);
        List<String> varied = new ArrayList<>(r.varying());
        varied.remove("seed");
        boolean byVaries = by != null && varied.remove(by);
        if (varied.isEmpty()) return byName;
        return byVaries ? byName + " \u00b7 configuration" : "configuration";
    }

    private List<Figure> timeSeries(Results r, FigureSpec s, String prefix, int index) {
        List<Figure> out = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        if (s.runs().isEmpty()) {
            List<Run> ok = r.okRuns();
            runs.addAll(ok.subList(0, Math.min(ok.size(), MAX_SERIES)));
            if (ok.size() > MAX_SERIES)
                warnings.add("time series are shown for the first " + MAX_SERIES + " of " + ok.size() + " runs; name others with {kind: timeseries, runs: [\"" + ok.get(ok.size() - 1).id() + "\"]}");
        }
        for (String want : s.runs()) {
            Run run = r.run(want);
            if (run == null) for (Run x : r.runs()) if (Columns.namesRun(want, x.id())) run = x;
            if (run == null) warnings.add("report[" + index + "].runs: no run " + want);
            else if (!runs.contains(run)) runs.add(run); // "0001" and 1 name the same run
        }
        if (!s.metrics().isEmpty()) return sampledSeries(r, s, prefix, index, runs);
        for (Run run : runs) {
            warnings.addAll(r.seriesProblems(run.id()));
            TimeSeries ts = r.series(run.id());
            if (ts == null || ts.timeNs().length == 0) continue;
            String label = label(r, run);
            String title = (s.title() != null ? s.title() + ": " : "") + "run " + run.id() + " \u2014 " + label;
            String caption = "Bandwidth per pool (difference of the cumulative bytes per epoch over the epoch) and L1/L2 hit rate per epoch."
                    + (ts.swaps().isEmpty() ? "" : " Red lines: live policy swaps (" + ts.swaps().size() + ").");
            out.add(new Figure(prefix + "-run" + run.id(), title, caption, Charts.timeSeries(title, ts), 1000, 600, null, null, List.of()));
        }
        return out;
    }

    /**
     * A timeseries figure with {@code metrics:}: those columns of timeseries.csv ({@code *} for any part), every selected
     * run in one chart (a line per run and column), as a rate per microsecond or as sampled levels.
     */
    private List<Figure> sampledSeries(Results r, FigureSpec s, String prefix, int index, List<Run> runs) {
        List<Charts.Line> lines = new ArrayList<>();
        java.util.Set<String> found = new java.util.LinkedHashSet<>(), drawn = new java.util.HashSet<>();
        if (runs.isEmpty()) {
            warnings.add("report[" + index + "]: no run to draw" + (s.where().isEmpty() ? "" : " (where: leaves none)"));
            return List.of();
        }
        for (Run run : runs) {
            warnings.addAll(r.seriesProblems(run.id()));
            TimeSeries ts = r.series(run.id());
            if (ts == null || ts.timeNs().length == 0) {
                warnings.add("report[" + index + "]: run " + run.id() + " has no time series");
                continue;
            }
            for (String want : s.metrics())
                for (Map.Entry<String, double[]> c : ts.columns().entrySet()) {
                    if (!Results.matches(want, c.getKey())) continue;
                    found.add(c.getKey());
                    if (!drawn.add(run.id() + "\n" + c.getKey())) continue; // a run or column named twice: drawn once
                    double[] y = s.rate() ? perUs(TimeSeries.rate(ts.timeNs(), c.getValue())) : c.getValue();
                    String name = "run " + run.id() + " " + label(r, run) + (s.metrics().size() > 1 || want.contains("*") ? " \u2014 " + c.getKey() : "");
                    lines.add(new Charts.Line(name, ts.timeNs(), y));
                }
        }
        for (String want : s.metrics())
            if (found.stream().noneMatch(c -> Results.matches(want, c))) warnings.add("report[" + index + "]: no series " + want + " in the runs' timeseries.csv");
        if (lines.isEmpty()) return List.of();
        String what = String.join(", ", found);
        String title = s.title() != null ? s.title() : what + (s.rate() ? " per µs" : "") + " over simulated time";
        String caption = (s.rate() ? "Change of each cumulative counter over an epoch, divided by the epoch's length in µs. "
                : "Each value as sampled at the end of every epoch. ") + whereNote(r, s);
        return List.of(new Figure(prefix + "-" + s.metrics().get(0).replaceAll("[^A-Za-z0-9_.-]", "_"), title, tidy(caption),
                Charts.sampled(title, lines, yLabel(found, s.rate())), 1000, 560, null, null, List.of()));
    }

    /**
     * The y axis of a sampled chart: the statistic it draws, or, of several (whose names the legend gives per line),
     * "value": four names joined ran off a 560-pixel axis (found by a researcher's trial).
     */
    static String yLabel(java.util.Set<String> drawn, boolean rate) {
        String what = drawn.size() == 1 ? drawn.iterator().next() : "value (statistic in the legend)";
        return rate ? what + " per µs" : what;
    }

    private static double[] perUs(double[] perNs) {
        double[] r = new double[perNs.length];
        for (int i = 0; i < r.length; i++) r[i] = perNs[i] * 1000;
        return r;
    }

    /** A run's label: the workload and the varied values. */
    static String label(Results r, Run run) { return label(r, run, "workload"); }

    /** The run's workload and its values of the study's varying columns but {@code leftOut} (a comparison over seeds leaves the seed out). */
    static String label(Results r, Run run, String... leftOut) {
        java.util.Set<String> skip = new java.util.HashSet<>(List.of(leftOut));
        skip.add("workload");
        StringBuilder b = new StringBuilder(run.value("workload"));
        for (String c : r.varying()) if (!skip.contains(c)) b.append(' ').append(Columns.label(c, run.value(c)));
        return b.toString();
    }

    private static String seedNote(Results r) {
        int seeds = r.values("seed").size();
        return seeds > 1 ? "Mean over " + seeds + " seeds." : "";
    }

    /** The seed note of a bar or line figure, saying what its whiskers are. */
    private static String seedNote(Results r, FigureData.Computed c) {
        if (!c.grid().hasRanges()) return seedNote(r);
        return seedNote(r) + " Whiskers: the least and greatest value over the seeds"
                + (c.normalised() ? " (each seed relative to the baseline run of the same seed)" : "") + ".";
    }
}
