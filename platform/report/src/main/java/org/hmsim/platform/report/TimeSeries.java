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

    static List<Swap> swaps(Path f) {
        List<Swap> out = new ArrayList<>();
        if (!Files.isRegularFile(f)) return out;
        CsvTable t = CsvTable.read(f);
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
