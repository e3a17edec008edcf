package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Computes the numbers of bar, line and stacked figures from a results folder: grouping, seed averaging,
 * normalisation to a baseline, geometric means. Drawing is {@link Charts}' job.
 */
public final class FigureData {
    public static final String GEOMEAN = "geomean";

    /**
     * @param grid the values
     * @param valueLabel the value axis' label, with its unit
     * @param baseline how the baseline is described ("placement=local"), null when not normalised
     * @param notes what the reader should know (a missing metric, a baseline not found)
     */
    public record Computed(Grid grid, String valueLabel, String baseline, List<String> notes) {
        public boolean normalised() { return baseline != null; }
    }

    private FigureData() {}

    /**
     * Bars of {@code metric}: one category per value of {@code by}, one series per combination of the
     * other varied columns; normalised per {@code spec.normalise()}; plus a geometric-mean category.
     */
    public static Computed bars(Results r, String metric, FigureSpec spec) {
        List<String> notes = new ArrayList<>();
        String by = byColumn(r, spec.by(), notes);
        Cells cells = new Cells(r, metric, "seed".equals(by));
        Baseline b = baseline(r, cells, by, spec.normalise(), notes);
        boolean invert = spec.invert() != null ? spec.invert() : Maths.isTime(metric);
        Grid g = new Grid();
        List<String> except = by == null ? List.of() : List.of(by);
        if (!cells.keys().isEmpty())
            for (List<String> key : cells.allKeys()) g.put(cells.label(key, except), category(r, cells, key, by), Double.NaN);
        for (List<String> key : cells.keys()) {
            String category = category(r, cells, key, by);
            String series = cells.label(key, except);
            double v = cells.mean(key);
            if (b != null) v = cells.normalisedMean(key, b.of(key), invert);
            g.put(series, category, v);
            g.putRange(series, category, cells.range(key, b == null ? null : b.of(key), invert));
        }
        if (b != null && spec.geomean() && g.categories().size() > 1)
            addGeomean(g, by == null ? "group" : Columns.shortName(by), b.set.get(by), notes);
        if (g.isEmpty()) notes.add("no ok run has the metric " + metric);
        else if (b == null && Charts.allZero(g)) notes.add(metric + " is 0 in every run shown");
        if (g.anyMissing()) notes.add("\u00d7: no value (the run failed, or the run it is relative to did" + (zeroBaseline(cells, b) ? ", or that run's value is 0" : "") + ")");
        leftOut(r, notes);
        fewerSeeds(cells, notes);
        return new Computed(g, valueLabel(metric, b, invert), b == null ? null : b.text, notes);
    }

    /**
     * Where a configuration goes on the category or x axis: its value of {@code by} (the study's name when there is
     * no {@code by}; the column's only value where the configuration lacks it).
     */
    private static String category(Results r, Cells cells, List<String> key, String by) {
        return by == null ? r.name() : cells.get(key, by).isEmpty() ? r.values(by).get(0) : cells.get(key, by);
    }

    /**
     * The geomean group, over only the categories where every series has a value: a series missing a workload
     * (its run failed) would otherwise be averaged over other workloads than its neighbours and look better or
     * worse for it. A note names the categories left out.
     */
    static void addGeomean(Grid g, String byName, String baselineCategory, List<String> notes) {
        List<String> common = new ArrayList<>(), left = new ArrayList<>();
        // the baseline's own category (by: the normalised column) is 1.0 by definition: it only pulled the mean to 1
        for (String cat : g.categories()) if (!cat.equals(baselineCategory)) (everySeriesHas(g, cat) ? common : left).add(cat);
        if (!left.isEmpty())
            notes.add("geomean over the " + common.size() + " of " + g.categories().size() + " " + byName
                    + "s every series has a value for (left out: " + String.join(", ", left) + ")");
        if (common.isEmpty()) return;
        for (String s : g.series()) g.put(s, GEOMEAN, Maths.geomean(common.stream().mapToDouble(c -> g.get(s, c)).toArray()));
    }

    private static boolean everySeriesHas(Grid g, String category) {
        for (String s : g.series()) {
            double v = g.get(s, category);
            if (!(v > 0) || Double.isInfinite(v)) return false;
        }
        return true;
    }

    /** Failed runs have no metrics: a figure without them must say so, or a workload just vanishes from it. */
    static void leftOut(Results r, List<String> notes) {
        List<String> failed = r.runs().stream().filter(x -> !x.ok()).map(x -> x.id()).toList();
        if (!failed.isEmpty())
            notes.add("left out: " + failed.size() + " failed run" + (failed.size() == 1 ? "" : "s") + " (" + String.join(", ", failed.size() > 6
                    ? failed.subList(0, 6) : failed) + (failed.size() > 6 ? ", ..." : "") + "; see Failed runs)");
    }

    /** Lines of {@code metric} over the swept column {@code spec.x()}, one line per combination of the other varied columns. */
    public static Computed lines(Results r, String metric, FigureSpec spec) {
        List<String> notes = new ArrayList<>();
        String x = Columns.resolve(r, spec.x());
        Cells cells = new Cells(r, metric, "seed".equals(x));
        Grid g = new Grid();
        if (x == null) {
            notes.add("x: no column " + spec.x() + " in runs.csv (its configuration columns: " + r.configColumns() + ")");
            return new Computed(g, Maths.axisLabel(metric), null, notes);
        }
        Baseline b = baseline(r, cells, x, spec.normalise(), notes);
        boolean invert = spec.invert() != null ? spec.invert() : Maths.isTime(metric);
        // the study's order of lines and x values, whichever runs failed (as bars)
        if (!cells.keys().isEmpty())
            for (List<String> key : cells.allKeys()) g.put(cells.label(key, List.of(x)), category(r, cells, key, x), Double.NaN);
        for (List<String> key : cells.keys()) {
            double v = cells.mean(key);
            if (b != null) v = cells.normalisedMean(key, b.of(key), invert);
            String series = cells.label(key, List.of(x)), at = category(r, cells, key, x);
            g.put(series, at, v);
            g.putRange(series, at, cells.range(key, b == null ? null : b.of(key), invert));
        }
        if (g.isEmpty()) notes.add("no ok run has the metric " + metric);
        if (g.anyMissing()) notes.add("\u00d7 at the axis's foot: no value (the run failed, or the run it is relative to did"
                + (zeroBaseline(cells, b) ? ", or that run's value is 0" : "") + ")");
        leftOut(r, notes);
        fewerSeeds(cells, notes);
        hiddenLines(g, notes);
        return new Computed(g, valueLabel(metric, b, invert), b == null ? null : b.text, notes);
    }

    /**
     * Lines with the same value at every x are drawn one over the other, so the legend names a line the figure does not
     * show (etc-footprint: two models with one series; found by a reports review): the caption says which coincide.
     */
    static void hiddenLines(Grid g, List<String> notes) {
        List<String> series = g.series();
        boolean[] said = new boolean[series.size()];
        for (int i = 0; i < series.size(); i++) {
            if (said[i]) continue;
            List<String> same = new ArrayList<>(List.of(series.get(i)));
            for (int j = i + 1; j < series.size(); j++)
                if (!said[j] && sameLine(g, series.get(i), series.get(j))) {
                    same.add(series.get(j));
                    said[j] = true;
                }
            if (same.size() > 1) notes.add(String.join(", ", same) + ": the same value at every point, drawn one over the other");
        }
    }

    private static boolean sameLine(Grid g, String a, String b) {
        boolean any = false;
        for (String c : g.categories()) {
            double va = g.get(a, c), vb = g.get(b, c);
            if (Double.isNaN(va) != Double.isNaN(vb) || !Double.isNaN(va) && va != vb) return false;
            any |= !Double.isNaN(va);
        }
        return any;
    }

    /** Whether a baseline configuration's value is 0, which no ratio can be taken to (a trial's × read as failed runs). */
    private static boolean zeroBaseline(Cells cells, Baseline b) {
        if (b == null) return false;
        for (List<String> key : cells.keys()) if (cells.mean(b.of(key)) == 0) return true;
        return false;
    }

    /** The caption's "mean over N seeds" is not true of a configuration one of whose replicas failed: say so. */
    static void fewerSeeds(Cells cells, List<String> notes) {
        int n = cells.shortOfSeeds();
        if (n > 0) notes.add(n + " configuration" + (n == 1 ? " is a mean" : "s are means") + " over fewer seeds (a run failed)"
                + "; a value relative to a baseline takes the baseline over the same seeds");
    }

    /**
     * Stacks of several metrics, one bar per configuration (the {@code by} value first): as shares of
     * the bar's total when {@code spec.shares()}.
     */
    public static Computed stacks(Results r, List<String> metrics, FigureSpec spec) {
        List<String> notes = new ArrayList<>();
        String by = byColumn(r, spec.by(), notes);
        Grid g = new Grid();
        List<Cells> all = new ArrayList<>();
        for (String m : metrics) all.add(new Cells(r, m, "seed".equals(by)));
        if (all.isEmpty()) {
            notes.add("no metric matches");
            return new Computed(g, "", null, notes);
        }
        Cells first = all.get(0);
        for (List<String> key : first.keys()) {
            String byValue = by == null ? "" : first.get(key, by);
            String rest = first.label(key, by == null ? List.of() : List.of(by));
            String category = byValue.isEmpty() ? rest : rest.equals(first.label(List.of(), first.dims)) ? byValue : byValue + " \u00b7 " + rest;
            double total = 0;
            double[] v = new double[all.size()];
            for (int i = 0; i < all.size(); i++) {
                v[i] = all.get(i).mean(key);
                if (!Double.isNaN(v[i])) total += v[i];
            }
            for (int i = 0; i < all.size(); i++) g.put(metrics.get(i), category, spec.shares() ? (total > 0 ? v[i] / total : Double.NaN) : v[i]);
        }
        String unit = Maths.unit(metrics.get(0));
        leftOut(r, notes);
        return new Computed(g, spec.shares() ? "share of the total (0..1)" : unit.isEmpty() ? "value" : unit, null, notes);
    }

    /**
     * The numbers a figure draws, for re-plotting: {@code series,category,value}, and {@code least,greatest}
     * over the seeds where a value is a mean over several (empty otherwise).
     */
    public static String csv(Computed c, String categoryColumn) {
        Csv out = new Csv();
        boolean ranges = c.grid().hasRanges();
        List<String> head = new ArrayList<>(List.of("series", categoryColumn == null || categoryColumn.isEmpty() ? "category" : categoryColumn, c.valueLabel()));
        if (ranges) head.addAll(List.of("least over seeds", "greatest over seeds"));
        out.row(head);
        for (String s : c.grid().series())
            for (String cat : c.grid().categories()) {
                double v = c.grid().get(s, cat);
                if (Double.isNaN(v)) continue;
                List<String> row = new ArrayList<>(List.of(s, cat, Csv.number(v)));
                double[] range = c.grid().range(s, cat);
                if (ranges) row.addAll(range == null ? List.of("", "") : List.of(Csv.number(range[0]), Csv.number(range[1])));
                out.row(row);
            }
        return out.toString();
    }

    private static String byColumn(Results r, String by, List<String> notes) {
        String c = Columns.resolve(r, by);
        if (c == null) notes.add("by: no column " + by + " in runs.csv; one group");
        return c;
    }

    private static String valueLabel(String metric, Baseline b, boolean invert) {
        if (b == null) return Maths.axisLabel(metric);
        // A long baseline ("cta-scheduler=round-robin interleave=fine(granularity=128)") would not fit the
        // rotated axis label; the dashed line at 1.0 and the caption name it in full.
        // The title names the metric; the label stays short enough for the figure's height.
        String over = b.text.length() <= 26 ? b.text : "the baseline";
        return invert ? "speedup over " + over + " (\u00d7)" : metric + " / " + over;
    }

    /** Which configuration a key is compared with: some columns set to their baseline values. */
    static final class Baseline {
        final Map<String, String> set;
        final Cells cells;
        final String text;

        Baseline(Cells cells, Map<String, String> set) {
            this.cells = cells;
            this.set = set;
            List<String> parts = new ArrayList<>();
            set.forEach((c, v) -> parts.add(Columns.shortName(c, cells.dims) + "=" + v));
            this.text = String.join(" ", parts);
        }

        List<String> of(List<String> key) {
            List<String> k = key;
            for (Map.Entry<String, String> e : set.entrySet()) k = cells.with(k, e.getKey(), e.getValue());
            return k;
        }
    }

    /**
     * The baseline of a figure, or null for absolute values. The study's baseline sets every varied
     * column but workload, machine and the figure's own axis column to its first value (the first value
     * the study lists); a baseline that would change nothing gives absolute values.
     */
    static Baseline baseline(Results r, Cells cells, String axis, FigureSpec.Baseline spec, List<String> notes) {
        if (spec == null) return null;
        Map<String, String> set = new LinkedHashMap<>();
        if (spec.study()) {
            for (String d : cells.dims)
                if (!d.equals(axis) && !d.equals("workload") && !d.equals("machine")) set.put(d, r.values(d).get(0));
            if (set.isEmpty()) return null;
            return new Baseline(cells, set);
        }
        for (Map.Entry<String, String> e : new java.util.TreeMap<>(spec.values()).entrySet()) {
            String col = Columns.resolve(r, e.getKey());
            if (col == null) {
                notes.add("normalise_to: no column " + e.getKey() + " in runs.csv; values are not normalised");
                return null;
            }
            String v = Columns.match(r, col, e.getValue());
            if (v == null) {
                notes.add("normalise_to: " + e.getKey() + " has no value " + e.getValue() + " (values: " + r.values(col) + "); values are not normalised");
                return null;
            }
            // a column with one value: every value would be relative to itself, 1.0 (a trial's bars all stood at 1)
            if (!cells.dims.contains(col) && !col.equals("seed")) {
                notes.add("normalise_to: " + e.getKey() + " is " + v + " in every run, so each value would be relative to itself; values are not normalised");
                return null;
            }
            set.put(col, v);
        }
        return new Baseline(cells, set);
    }
}
