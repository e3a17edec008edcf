package org.hmsim.platform.stats;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A statistics histogram backed by HdrHistogram; values above the declared maximum are clamped. A total
 * over other histograms ({@link #addPart}) reads as its own counts plus theirs, merged when read: the
 * same counts, percentiles and maximum as recording every value twice, at one record per value.
 */
final class HdrHistogramStat implements org.hmsim.api.stats.Histogram {
    private final Histogram h;
    private final long max;
    private final List<HdrHistogramStat> parts = new ArrayList<>(0);

    HdrHistogramStat(long maxValue) {
        this.max = Math.max(2, maxValue);
        this.h = new Histogram(this.max, 3);
    }

    /** {@code p} counts into this histogram too (read-time merge); false if it cannot (different range). */
    boolean addPart(HdrHistogramStat p) {
        if (p == this || p.max != max) return false;
        for (HdrHistogramStat q : parts) if (q == p) return true;
        parts.add(p);
        return true;
    }

    private Histogram view() {
        flush();
        if (parts.isEmpty()) return h;
        Histogram m = h.copy();
        for (HdrHistogramStat p : parts) m.add(p.view());
        return m;
    }

    /**
     * Values not yet in {@link #h}. A histogram of a wide range spans a large counts array, and one record
     * in the middle of a simulation step is a cache miss; recorded in batches, the misses overlap. The
     * histogram's state does not depend on the order its values arrive in.
     */
    private final long[] pending = new long[256];
    private int nPending;

    @Override
    public void record(long value) {
        if (nPending == pending.length) flush();
        pending[nPending++] = value;
    }

    private void flush() {
        for (int i = 0; i < nPending; i++) h.recordValue(Math.max(0, Math.min(max, pending[i])));
        nPending = 0;
    }

    @Override
    public long count() { return view().getTotalCount(); }

    @Override
    public double mean() { return mean(view()); }

    @Override
    public long percentile(double p) { return percentile(view(), p); }

    @Override
    public long max() { return max(view()); }

    private static double mean(Histogram v) { return v.getTotalCount() == 0 ? 0 : v.getMean(); }

    private static long percentile(Histogram v, double p) { return v.getTotalCount() == 0 ? 0 : v.getValueAtPercentile(p); }

    private static long max(Histogram v) { return v.getTotalCount() == 0 ? 0 : v.getMaxValue(); }

    /**
     * Puts the count, mean, median, 99th percentile and maximum under {@code name.count}, {@code .mean}, {@code .p50},
     * {@code .p99} and {@code .max}, all read from one {@link #view()}: every run's final snapshot reads all five, and a
     * total over parts copies and merges its histograms on each read.
     */
    void putSummary(Map<String, Double> out, String name) {
        Histogram v = view();
        out.put(name + ".count", (double) v.getTotalCount());
        out.put(name + ".mean", mean(v));
        out.put(name + ".p50", (double) percentile(v, 50));
        out.put(name + ".p99", (double) percentile(v, 99));
        out.put(name + ".max", (double) max(v));
    }
}
