package org.hmsim.platform.stats;

import org.HdrHistogram.Histogram;

/** A statistics histogram backed by HdrHistogram; values above the declared maximum are clamped. */
final class HdrHistogramStat implements org.hmsim.api.stats.Histogram {
    private final Histogram h;
    private final long max;

    HdrHistogramStat(long maxValue) {
        this.max = Math.max(2, maxValue);
        this.h = new Histogram(this.max, 3);
    }

    @Override
    public void record(long value) { h.recordValue(Math.max(0, Math.min(max, value))); }

    @Override
    public long count() { return h.getTotalCount(); }

    @Override
    public double mean() { return h.getTotalCount() == 0 ? 0 : h.getMean(); }

    @Override
    public long percentile(double p) { return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(p); }

    @Override
    public long max() { return h.getTotalCount() == 0 ? 0 : h.getMaxValue(); }
}
