package org.hmsim.platform.machine;

import java.util.LinkedHashMap;
import java.util.SortedMap;

/** The runs.csv columns of a machine with a CPU side (seed 001's counters; docs/metrics.md). */
final class CpuMetrics {
    private CpuMetrics() {}

    private static final String[][] COLUMNS = {
            {"directory_lookups", "directory.lookups"}, {"directory_queue_delay_ns", "directory.queue_delay_ps"},
            {"directory_probes", "directory.probes"}, {"directory_recalls", "directory.recalls"},
            {"directory_bypassed", "directory.bypassed"}, {"page_toggles", "directory.page_toggles"},
            {"ownership_faults", "coherence.ownership_faults"}, {"cpu_accesses", "cpu.accesses"},
            {"host_phase_ns", "cpu.host_phase_ps"}};

    static void put(SortedMap<String, Double> stats, LinkedHashMap<String, Double> out) {
        for (String[] c : COLUMNS) {
            double v = stats.getOrDefault(c[1], 0.0);
            out.put(c[0], c[1].endsWith("_ps") ? v / 1000 : v);
        }
        // toggles are counted on every last-level miss, those that bypass the directory (SAHC's memory path) too
        double lookups = stats.getOrDefault("directory.lookups", 0.0) + stats.getOrDefault("directory.ideal_lookups", 0.0)
                + stats.getOrDefault("directory.bypassed", 0.0);
        out.put("toggles_per_10k_lookups", lookups > 0 ? stats.getOrDefault("directory.page_toggles", 0.0) * 10_000 / lookups : 0);
    }
}
