package org.hmsim.platform.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's timeseries.csv (cumulative counters at the end of each epoch, docs/metrics.md) and the live
 * swaps performed during it (runs/&lt;id&gt;/swaps.csv: sim_time_ns, wall_time, slot, from, to, ...).
 */
public record TimeSeries(double[] timeNs, Map<String, double[]> columns, List<Swap> swaps) {

    /** A policy swap at simulated time {@code timeNs}. */
    public record Swap(double timeNs, String slot, String from, String to) {
        public String label() { return slot + ": " + from + " \u2192 " + to; }
    }

    /** Reads the series of one run folder; null if it has no timeseries.csv. */
    static TimeSeries read(Path runDir) {
        Path f = runDir.resolve("timeseries.csv");
        if (!Files.isRegularFile(f)) return null;
        CsvTable t = CsvTable.read(f);
        if (t.header().isEmpty()) return null;
        double[] time = column(t, 0);
        Map<String, double[]> cols = new LinkedHashMap<>();
        for (int c = 1; c < t.header().size(); c++) cols.put(t.header().get(c), column(t, c));
        return new TimeSeries(time, cols, swaps(runDir.resolve("swaps.csv")));
    }

    /**
     * What is wrong with a run folder's timeseries.csv and swaps.csv, one line per file (its first bad place): a row
     * of another length than the header, a cell that is not a number, a file that cannot be read. The figures skip
     * such cells and rows; the report says so instead of drawing less without a word (found by an audit).
     */
    static List<String> problems(Path runDir) {
        List<String> out = new ArrayList<>();
        Path series = runDir.resolve("timeseries.csv"), swaps = runDir.resolve("swaps.csv");
        if (Files.isRegularFile(series)) firstProblem(series, null).ifPresent(out::add);
        if (Files.isRegularFile(swaps)) firstProblem(swaps, "sim_time_ns").ifPresent(out::add);
        return out;
    }

    /** The first bad row of {@code f}: every cell must be a number, or ({@code numeric} given) that column's. */
    private static java.util.Optional<String> firstProblem(Path f, String numeric) {
        CsvTable t;
        try {
            t = CsvTable.read(f);
        } catch (RuntimeException e) {
            return java.util.Optional.of("cannot read " + f + ": " + e.getMessage() + " (left out of the figures)");
        }
        int only = numeric == null ? -1 : t.column(numeric);
        for (int i = 0; i < t.rows().size(); i++) {
            List<String> row = t.rows().get(i);
            String where = f + " line " + (i + 2);
            if (numeric == null && row.size() != t.header().size())
                return java.util.Optional.of(where + ": " + row.size() + " cells under a header of " + t.header().size() + " (left out of the figures)");
            for (int c = 0; c < row.size(); c++)
                if ((numeric == null || c == only) && notANumber(row.get(c)))
                    return java.util.Optional.of(where + ": " + t.header().get(Math.min(c, t.header().size() - 1)) + " is '" + row.get(c)
                            + "', not a number (left out of the figures)");
        }
        return java.util.Optional.empty();
    }

    /** Text that is no number; hmsim writes a gauge's NaN or infinity as such, which are numbers here. */
    private static boolean notANumber(String cell) {
        String t = cell.trim();
        return Double.isNaN(Numbers.parse(t)) && !t.equalsIgnoreCase("nan");
    }

    static List<Swap> swaps(Path f) {
        List<Swap> out = new ArrayList<>();
        if (!Files.isRegularFile(f)) return out;
        CsvTable t;
        try {
            t = CsvTable.read(f);
        } catch (RuntimeException unreadable) { // said by problems(); the series is still drawn
            return out;
        }
        int time = t.column("sim_time_ns"), slot = t.column("slot"), from = t.column("from"), to = t.column("to");
        if (time < 0) return out;
        for (List<String> r : t.rows()) {
            double at = Numbers.parse(cell(r, time));
            if (Double.isFinite(at)) out.add(new Swap(at, cell(r, slot), cell(r, from), cell(r, to)));
        }
        return out;
    }

    private static String cell(List<String> row, int i) { return i >= 0 && i < row.size() ? row.get(i) : ""; }

    private static double[] column(CsvTable t, int c) {
        double[] v = new double[t.rows().size()];
        for (int i = 0; i < v.length; i++) v[i] = Numbers.parse(cell(t.rows().get(i), c));
        return v;
    }

    /**
     * The rate of a cumulative counter per epoch: (v[i] - v[i-1]) / (t[i] - t[i-1]), the first epoch
     * against time 0 and value 0. Bytes per ns are GB/s.
     */
    public static double[] rate(double[] timeNs, double[] cumulative) {
        double[] r = new double[cumulative.length];
        double t0 = 0, v0 = 0;
        for (int i = 0; i < r.length; i++) {
            double dt = timeNs[i] - t0;
            r[i] = dt > 0 ? (cumulative[i] - v0) / dt : Double.NaN;
            t0 = timeNs[i];
            v0 = cumulative[i];
        }
        return r;
    }

    /** Per-epoch hit rate from cumulative hits and misses: Δhits / (Δhits + Δmisses); NaN in an epoch with no access. */
    public static double[] hitRate(double[] hits, double[] misses) {
        double[] r = new double[hits.length];
        double h0 = 0, m0 = 0;
        for (int i = 0; i < r.length; i++) {
            double dh = hits[i] - h0, dm = misses[i] - m0;
            r[i] = dh + dm > 0 ? dh / (dh + dm) : Double.NaN;
            h0 = hits[i];
            m0 = misses[i];
        }
        return r;
    }
}
