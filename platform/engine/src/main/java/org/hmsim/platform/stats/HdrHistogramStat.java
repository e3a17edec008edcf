package org.hmsim.platform.stats;

import java.util.ArrayList;
import java.util.List;
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
    public double mean() {
        Histogram v = view();
        return v.getTotalCount() == 0 ? 0 : v.getMean();
    }

    @Override
    public long percentile(double p) {
        Histogram v = view();
        return v.getTotalCount() == 0 ? 0 : v.getValueAtPercentile(p);
    }

    @Override
    public long max() {
        Histogram v = view();
        return v.getTotalCount() == 0 ? 0 : v.getMaxValue();
    }
}
