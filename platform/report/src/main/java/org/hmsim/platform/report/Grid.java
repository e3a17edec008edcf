package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The numbers behind a figure: a value per (series, category), both in insertion order. Bars: categories
 * on the axis, one colour per series; lines: categories are x values; stacks: series are the layers.
 */
public final class Grid {
    private final Map<String, Map<String, Double>> bySeries = new LinkedHashMap<>();
    private final List<String> categories = new ArrayList<>();
    /** The spread over seeds of some values (series -> category -> {least, greatest}). */
    private final Map<String, Map<String, double[]>> ranges = new LinkedHashMap<>();

    public void put(String series, String category, double value) {
        if (!categories.contains(category)) categories.add(category);
        bySeries.computeIfAbsent(series, k -> new LinkedHashMap<>()).put(category, value);
    }

    /**
     * Whether the figure has a place for this value, even one with no number (a failed run's, NaN): such a
     * place is marked as missing, where a pair the study never ran is simply absent.
     */
    public boolean declared(String series, String category) {
        Map<String, Double> m = bySeries.get(series);
        return m != null && m.containsKey(category);
    }

    /** Whether some declared place has no number (a failed run, or a value whose baseline run failed). */
    public boolean anyMissing() {
        for (Map<String, Double> m : bySeries.values())
            for (Double v : m.values()) if (v == null || v.isNaN()) return true;
        return false;
    }

    /** The value, or NaN when absent. */
    public double get(String series, String category) {
        Map<String, Double> m = bySeries.get(series);
        Double v = m == null ? null : m.get(category);
        return v == null ? Double.NaN : v;
    }

    /** The spread over seeds behind a value; ignored when null. */
    public void putRange(String series, String category, double[] range) {
        if (range != null) ranges.computeIfAbsent(series, k -> new LinkedHashMap<>()).put(category, range.clone());
    }

    /** {least, greatest} over the seeds behind a value, or null when it is not a mean over several seeds. */
    public double[] range(String series, String category) {
        Map<String, double[]> m = ranges.get(series);
        double[] r = m == null ? null : m.get(category);
        return r == null ? null : r.clone();
    }

    public boolean hasRanges() { return !ranges.isEmpty(); }

    public List<String> series() { return List.copyOf(bySeries.keySet()); }

    public List<String> categories() { return List.copyOf(categories); }

    public boolean isEmpty() { return bySeries.isEmpty(); }
}
