package org.hmsim.platform.report;

import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The metrics a run can put in runs.csv, named as docs/metrics.md names them ({@code pool.<p>.bytes} stands for every
 * pool's), so that a figure's metric is checked when the study is validated instead of coming out as a warning and an
 * empty figure after the runs. The set is closed: bundles add statistics, not runs.csv metrics. {@code MetricNamesTest}
 * keeps this list and the docs' table the same; the machine's {@code MetricsDocumentedTest} keeps the docs' table and
 * the metrics runs write the same.
 */
public final class MetricNames {
    private MetricNames() {}

    static final List<String> DOCUMENTED = List.of(
            "sim_time_ns", "kernels", "warp_instructions", "ipc", "line_requests", "lines_per_mem_instruction",
            "pages_per_mem_instruction", "l1_hit_rate", "l2_hit_rate", "xbar_resp_utilisation", "pool.<p>.bytes",
            "pool.<p>.bandwidth_gbps", "pool.<p>.utilisation", "pool.<p>.row_hit_rate", "pool.<p>.pages",
            "link.<l>.wire_bytes", "energy_uj", "energy_dram_uj", "swaps", "swaps_not_reached", "page_faults",
            "migrations", "uvm.faults", "uvm.fault_batches", "uvm.evictions", "uvm.evictions_proactive",
            "uvm.prefetches", "uvm.preloaded", "uvm.h2d_bytes", "uvm.d2h_bytes", "uvm.compressed_accesses",
            "uvm.metadata_reads", "uvm.fault_latency_ns", "uvm.capacity_frames", "local_requests", "remote_requests",
            "local_bytes", "remote_bytes", "remote_fraction", "link_utilisation_mean", "link_utilisation_max",
            "program<p>_time_ns", "mean_program_time_ns", "cta_imbalance", "gpu_idle_tail_fraction", "etc.class",
            "etc.throttles", "etc.metadata_hits", "etc.class_residency", "etc.class_throttling", "etc.class_compression", "directory_lookups", "directory_queue_delay_ns",
            "directory_probes", "directory_recalls", "directory_bypassed", "page_toggles", "toggles_per_10k_lookups",
            "ownership_faults", "cpu_accesses", "host_phase_ns", "opc", "l2_mpko", "l2_mpko_lookups",
            "l2_evict_ns_per_miss", "l2_fetch_ns", "frc_share", "l2_mlp");

    /** A pool's, link's or program's metric as the docs write it: {@code pool.hbm0.bytes} is {@code pool.<p>.bytes}. */
    public static String generic(String metric) {
        return metric.replaceFirst("^program\\d+_", "program<p>_").replaceFirst("^pool\\.[^.]+\\.", "pool.<p>.").replaceFirst("^link\\.[^.]+\\.", "link.<l>.");
    }

    /** Whether {@code metric} (a name, or a pattern with {@code *}) names at least one metric runs.csv can hold. */
    public static boolean known(String metric) {
        String g = generic(metric);
        if (!g.contains("*")) return DOCUMENTED.contains(g);
        Pattern p = glob(g);
        return DOCUMENTED.stream().anyMatch(n -> p.matcher(n).matches());
    }

    /** {@code pattern} as a regular expression: {@code *} any run of characters (dots included), the rest literal. */
    public static Pattern glob(String pattern) {
        return Pattern.compile(Stream.of(pattern.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
    }

    /** The documented metric closest to {@code metric} in edit distance, for a "did you mean". */
    public static String closest(String metric) {
        String g = generic(metric), best = DOCUMENTED.get(0);
        int bestDistance = Integer.MAX_VALUE;
        for (String n : DOCUMENTED) {
            int d = distance(g, n);
            if (d < bestDistance) {
                bestDistance = d;
                best = n;
            }
        }
        return best;
    }

    /** Levenshtein distance, one row at a time. */
    private static int distance(String a, String b) {
        int[] row = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) row[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            int diagonal = row[0];
            row[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int up = row[j];
                row[j] = Math.min(Math.min(row[j] + 1, row[j - 1] + 1), diagonal + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1));
                diagonal = up;
            }
        }
        return row[b.length()];
    }
}
