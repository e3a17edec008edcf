package org.hmsim.platform.report;

import java.util.Map;

/** The arithmetic of figures: geometric means, normalisation, and what a metric measures. */
public final class Maths {
    private Maths() {}

    /**
     * The geometric mean of the finite positive values (the usual mean of normalised results: it does
     * not depend on which configuration is the baseline); NaN when there is none.
     */
    public static double geomean(double... values) {
        double logSum = 0;
        int n = 0;
        for (double v : values) {
            if (!(v > 0) || Double.isInfinite(v)) continue;
            logSum += Math.log(v);
            n++;
        }
        return n == 0 ? Double.NaN : Math.exp(logSum / n);
    }

    /** The median of the values (the mean of the middle two for an even count); NaN for none. */
    public static double median(double... values) {
        if (values.length == 0) return Double.NaN;
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        int mid = v.length / 2;
        return v.length % 2 == 1 ? v[mid] : (v[mid - 1] + v[mid]) / 2;
    }

    /**
     * A value relative to its baseline: {@code value / base}, or {@code base / value} when {@code invert}
     * (a time becomes a speedup: 2.0 = twice as fast). NaN when either is missing or the divisor is 0.
     */
    public static double normalise(double value, double base, boolean invert) {
        double num = invert ? base : value, den = invert ? value : base;
        if (Double.isNaN(num) || Double.isNaN(den) || den == 0) return Double.NaN;
        return num / den;
    }

    /**
     * Whether a metric is a time, so that "normalised" means speedup: its name ends in _ps, _ns, _us,
     * _ms or _s, or contains "time" or "latency".
     */
    public static boolean isTime(String metric) {
        String m = metric.toLowerCase(java.util.Locale.ROOT);
        return m.matches(".*_(ps|ns|us|ms|s)") || m.contains("time") || m.contains("latency");
    }

    private static final Map<String, String> UNITS = Map.ofEntries(
            Map.entry("sim_time_ns", "ns"), Map.entry("kernels", "count"), Map.entry("warp_instructions", "count"),
            Map.entry("ipc", "warp instr / GPU cycle"), Map.entry("line_requests", "count"),
            Map.entry("energy_uj", "\u00b5J"), Map.entry("energy_dram_uj", "\u00b5J"), Map.entry("page_faults", "count"),
            Map.entry("migrations", "count"), Map.entry("remote_fraction", "0..1"), Map.entry("cta_imbalance", "busiest / mean"),
            Map.entry("gpu_idle_tail_fraction", "0..1"), Map.entry("opc", "ops / GPU cycle"), Map.entry("l2_mpko", "misses / 1000 ops"), Map.entry("l2_mpko_lookups", "missed look-ups / 1000 ops"),
            Map.entry("ownership_faults", "count"), Map.entry("cpu_accesses", "count"));

    /** The unit of a metric (docs/metrics.md), for axis labels; "" when unknown. */
    public static String unit(String metric) {
        String u = UNITS.get(metric);
        if (u != null) return u;
        if (metric.endsWith("bandwidth_gbps")) return "GB/s";
        if (metric.endsWith("bytes")) return "bytes";
        if (metric.endsWith("_rate") || metric.endsWith("utilisation") || metric.startsWith("link_utilisation") || metric.endsWith("_share")) return "0..1";
        if (metric.startsWith("uvm.") && !metric.endsWith("_ns")) return "count";
        if (metric.endsWith("pages")) return "pages";
        if (metric.endsWith("_ns")) return "ns";
        if (metric.endsWith("_ps")) return "ps";
        if (metric.endsWith("_uj")) return "\u00b5J";
        return "";
    }

    /** "metric (unit)" for an axis. */
    public static String axisLabel(String metric) {
        String u = unit(metric);
        return u.isEmpty() ? metric : metric + " (" + u + ")";
    }
}
