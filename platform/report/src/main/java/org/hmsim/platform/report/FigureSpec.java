package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One figure of a study's {@code report:} list (docs/reports.md):
 *
 * <pre>
 * - {metric: sim_time_ns, normalise_to: {placement: local}, by: workload}        # bars, speedup over local
 * - {metric: pool.gddr.bandwidth_gbps, x: policies.placement.fast_percent}      # a line over a swept parameter
 * - {kind: stacked, metrics: [pool.gddr.bytes, pool.ddr.bytes], by: workload}   # traffic shares
 * - {kind: timeseries, runs: ["0001", "0003"]}                                  # bandwidth and hit rates per epoch
 * - {kind: timeseries, metrics: [uvm.faults], where: {workload: etc-atax}}       # a sampled counter per us, runs overlaid
 * </pre>
 *
 * @param metrics metric names or patterns with {@code *} ({@code pool.*.bytes}); one figure per metric
 *                for bar and line figures, one stack of all of them for stacked figures
 * @param by the configuration column that makes the categories of bar and stacked figures; default workload
 * @param x the swept column of a line figure
 * @param normalise null (absolute values), {@link Baseline#study()} or given values of columns
 * @param invert null: decide by the metric (times become speedups); true/false: force (normalised bar and line figures)
 * @param runs the runs of a timeseries figure (empty: all)
 * @param rate a timeseries figure with metrics: draw each counter's change per microsecond over each epoch (true), or
 *             the value sampled at each epoch's end (false, for levels such as {@code uvm.throttled_sms})
 * @param where the runs a figure draws: column -> the values it keeps (empty: every run). A study that
 *              crosses machines or many sweeps otherwise puts every combination in one figure.
 */
public record FigureSpec(Kind kind, List<String> metrics, String by, String x, Baseline normalise, Boolean invert,
                         boolean geomean, boolean shares, List<String> runs, String title, Map<String, List<String>> where,
                         boolean rate) {

    /** A figure of every run. */
    public FigureSpec(Kind kind, List<String> metrics, String by, String x, Baseline normalise, Boolean invert,
                      boolean geomean, boolean shares, List<String> runs, String title) {
        this(kind, metrics, by, x, normalise, invert, geomean, shares, runs, title, Map.of(), true);
    }

    public enum Kind {
        BAR, LINE, STACKED, TIMESERIES;

        String id() { return name().toLowerCase(Locale.ROOT); }
    }

    /**
     * What to normalise to: the study's baseline (the first value of every varied column but the
     * category one), or the given value of some columns, the others staying as they are.
     */
    public record Baseline(boolean study, Map<String, String> values) {
        public static Baseline ofStudy() { return new Baseline(true, Map.of()); }
    }

    public static final List<String> KEYS = List.of("kind", "metric", "metrics", "by", "x", "normalise_to", "normalize_to",
            "invert", "geomean", "shares", "runs", "title", "where", "rate");

    /** A bar figure of one metric by workload, normalised to the study's baseline when {@code normalise}. */
    public static FigureSpec bars(String metric, boolean normalise) {
        return new FigureSpec(Kind.BAR, List.of(metric), "workload", null, normalise ? Baseline.ofStudy() : null, null, normalise, false, List.of(), null);
    }

    /** Reads one entry of {@code report:} (as plain YAML/JSON: maps, lists, scalars). */
    public static FigureSpec parse(Object entry) throws FigureSpecException {
        return parse(entry, true);
    }

    /**
     * Reads a figure an earlier study.json recorded: {@code by} and {@code invert} where they change nothing were let
     * through before they were refused, and those results must still draw every figure they drew.
     */
    public static FigureSpec parseRecorded(Object entry) throws FigureSpecException {
        return parse(entry, false);
    }

    private static FigureSpec parse(Object entry, boolean strict) throws FigureSpecException {
        if (!(entry instanceof Map<?, ?> raw))
            throw new FigureSpecException("", "a figure is a mapping: {metric: sim_time_ns, by: workload} (see docs/reports.md)");
        Map<String, Object> m = new LinkedHashMap<>();
        List<String> unknown = new ArrayList<>(); // every one in one message (the first hid the others, a paper-figures trial)
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (!KEYS.contains(k)) unknown.add(k);
            else m.put(k, e.getValue());
        }
        if (!unknown.isEmpty())
            throw new FigureSpecException(unknown.get(0), (unknown.size() == 1 ? "unknown key '" + unknown.get(0) + "'"
                    : "unknown keys '" + String.join("', '", unknown) + "'") + " (a figure has " + String.join(", ", KEYS) + ")");
        if (m.containsKey("normalise_to") && m.containsKey("normalize_to"))
            throw new FigureSpecException("normalize_to", "give normalise_to or normalize_to, not both");
        String x = text(m, "x");
        Kind kind = kind(m, x);
        List<String> metrics = metrics(m, kind);
        String by = text(m, "by");
        if (kind == Kind.LINE && x == null) throw new FigureSpecException("", "a line figure needs x: the swept column on the horizontal axis");
        if (kind != Kind.LINE && x != null) throw new FigureSpecException("x", "only a line figure has x (kind: line)");
        String nKey = m.containsKey("normalize_to") ? "normalize_to" : "normalise_to";
        Baseline baseline = baseline(m.get(nKey), nKey);
        if (baseline != null && (kind == Kind.STACKED || kind == Kind.TIMESERIES))
            throw new FigureSpecException(nKey, "a " + kind.id() + " figure is not normalised");
        Boolean invert = bool(m, "invert", null);
        if (strict) refuseIgnored(m, kind, baseline, nKey);
        boolean geomean = bool(m, "geomean", baseline != null && kind == Kind.BAR);
        if (geomean && kind != Kind.BAR) throw new FigureSpecException("geomean", "only bar figures have a geometric-mean group");
        // drawn over normalised values only: a figure without a baseline drew no geomean, and said nothing (review of silent inputs)
        if (strict && geomean && baseline == null)
            throw new FigureSpecException("geomean", "a geometric-mean group is drawn over values normalised to a baseline: give normalise_to");
        boolean shares = bool(m, "shares", kind == Kind.STACKED);
        if (m.containsKey("shares") && kind != Kind.STACKED) throw new FigureSpecException("shares", "only stacked figures show shares");
        List<String> runs = strings(m, "runs", false);
        if (!runs.isEmpty() && kind != Kind.TIMESERIES) throw new FigureSpecException("runs", "only timeseries figures select runs");
        boolean rate = bool(m, "rate", true);
        if (m.containsKey("rate") && (kind != Kind.TIMESERIES || metrics.isEmpty()))
            throw new FigureSpecException("rate", "only a timeseries figure with metrics draws rates or levels");
        return new FigureSpec(kind, metrics, by == null ? "workload" : by, x, baseline, invert, geomean, shares, runs, text(m, "title"), where(m.get("where")), rate);
    }

    /**
     * Refuses {@code by} and {@code invert} where the figure would draw the same without them: the researcher who wrote
     * them expected a change (lines grouped by a column, a ratio turned round) and would not see that none came (an audit).
     */
    private static void refuseIgnored(Map<String, Object> m, Kind kind, Baseline baseline, String nKey) throws FigureSpecException {
        if (m.containsKey("by") && kind == Kind.LINE)
            throw new FigureSpecException("by", "a line figure has no by: it draws one line per combination of the other varied columns (where: picks them)");
        if (m.containsKey("by") && kind == Kind.TIMESERIES)
            throw new FigureSpecException("by", "a timeseries figure has no by: it draws each run (runs: or where: picks them)");
        if (m.containsKey("invert") && (kind == Kind.STACKED || kind == Kind.TIMESERIES))
            throw new FigureSpecException("invert", "a " + kind.id() + " figure is not normalised: there is no ratio to invert");
        if (m.containsKey("invert") && baseline == null)
            throw new FigureSpecException("invert", "invert turns a normalised ratio round, and this figure is not normalised (give " + nKey + ")");
    }

    /** {@code where: {machine: coda, placement: [local, interleave]}}: one value or a list per column. */
    private static Map<String, List<String>> where(Object v) throws FigureSpecException {
        if (v == null) return Map.of();
        if (!(v instanceof Map<?, ?> map) || map.isEmpty())
            throw new FigureSpecException("where", "expected a mapping of columns to values: {machine: coda} or {placement: [local, interleave]}");
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String k = String.valueOf(e.getKey());
            List<String> values = new ArrayList<>();
            if (e.getValue() instanceof List<?> l) {
                for (Object o : l) {
                    if (o == null || o instanceof Map || o instanceof List) throw new FigureSpecException("where." + k, "expected values as runs.csv shows them");
                    values.add(scalarText(o));
                }
            } else if (e.getValue() != null && !(e.getValue() instanceof Map)) {
                values.add(scalarText(e.getValue()));
            }
            if (values.isEmpty()) throw new FigureSpecException("where." + k, "expected a value or a non-empty list of values (as runs.csv shows them)");
            out.put(k, List.copyOf(values));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private static Kind kind(Map<String, Object> m, String x) throws FigureSpecException {
        String k = text(m, "kind");
        if (k == null) return x != null ? Kind.LINE : Kind.BAR;
        for (Kind v : Kind.values()) if (v.id().equals(k)) return v;
        throw new FigureSpecException("kind", "unknown kind '" + k + "' (bar, line, stacked, timeseries)");
    }

    private static List<String> metrics(Map<String, Object> m, Kind kind) throws FigureSpecException {
        boolean one = m.containsKey("metric"), many = m.containsKey("metrics");
        if (kind == Kind.TIMESERIES && !one && !many) return List.of(); // bandwidth per pool and hit rates
        if (one && many) throw new FigureSpecException("metrics", "give metric or metrics, not both");
        if (!one && !many) throw new FigureSpecException("", "a " + kind.id() + " figure needs metric: NAME (or metrics: [A, B]); runs.csv's columns after seed are the metrics");
        List<String> l = one ? List.of(text(m, "metric")) : strings(m, "metrics", true);
        for (String s : l)
            if (!s.matches("[A-Za-z0-9_.*-]+")) throw new FigureSpecException(one ? "metric" : "metrics", "'" + s + "' is not a metric name (letters, digits, . _ - and * for any part)");
        return l;
    }

    private static Baseline baseline(Object v, String key) throws FigureSpecException {
        if (v == null) return null;
        if (v instanceof String s) {
            if (s.equals("baseline")) return Baseline.ofStudy();
            if (s.equals("none")) return null;
            throw new FigureSpecException(key, "'" + s + "': write baseline, none, or a mapping {placement: local}");
        }
        if (!(v instanceof Map<?, ?> map) || map.isEmpty())
            throw new FigureSpecException(key, "expected baseline, none, or a mapping of columns to values: {placement: local}");
        Map<String, String> values = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            String k = String.valueOf(e.getKey());
            if (e.getValue() == null || e.getValue() instanceof Map || e.getValue() instanceof List)
                throw new FigureSpecException(key + "." + k, "expected one value (as runs.csv shows it)");
            values.put(k, scalarText(e.getValue()));
        }
        return new Baseline(false, Map.copyOf(values));
    }

    /** A scalar as runs.csv writes it: whole numbers without a fraction. */
    static String scalarText(Object v) {
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString(d.longValue());
        return String.valueOf(v);
    }

    private static String text(Map<String, Object> m, String key) throws FigureSpecException {
        Object v = m.get(key);
        if (v == null) return null;
        if (v instanceof Map || v instanceof List) throw new FigureSpecException(key, "expected a single value");
        String s = scalarText(v).trim();
        if (s.isEmpty()) throw new FigureSpecException(key, "is empty");
        return s;
    }

    private static Boolean bool(Map<String, Object> m, String key, Boolean def) throws FigureSpecException {
        Object v = m.get(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        throw new FigureSpecException(key, "expected true or false");
    }

    private static List<String> strings(Map<String, Object> m, String key, boolean required) throws FigureSpecException {
        Object v = m.get(key);
        if (v == null) return List.of();
        List<String> out = new ArrayList<>();
        if (v instanceof List<?> l) {
            for (Object o : l) {
                if (o == null || o instanceof Map || o instanceof List) throw new FigureSpecException(key, "expected a list of names");
                out.add(scalarText(o));
            }
        } else if (!(v instanceof Map)) {
            out.add(scalarText(v));
        } else {
            throw new FigureSpecException(key, "expected a list of names");
        }
        if (required && out.isEmpty()) throw new FigureSpecException(key, "the list is empty");
        return List.copyOf(out);
    }
}
