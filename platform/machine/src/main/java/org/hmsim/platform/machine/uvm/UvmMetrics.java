package org.hmsim.platform.machine.uvm;

import java.util.LinkedHashMap;
import java.util.SortedMap;

/** The runs.csv columns of a demand-paging run (docs/metrics.md): copied from the {@code uvm.*} and ETC statistics. */
public final class UvmMetrics {
    private static final String[][] COLUMNS = {
            {"uvm.faults", "uvm.faults"}, {"uvm.fault_batches", "uvm.fault_batches"}, {"uvm.evictions", "uvm.evictions"},
            {"uvm.evictions_proactive", "uvm.evictions_proactive"}, {"uvm.prefetches", "uvm.prefetches"}, {"uvm.preloaded", "uvm.preloaded"},
            {"uvm.h2d_bytes", "uvm.h2d.bytes"}, {"uvm.d2h_bytes", "uvm.d2h.bytes"}, {"uvm.compressed_accesses", "uvm.compressed_accesses"},
            {"uvm.metadata_reads", "uvm.metadata_reads"},
            {"uvm.fault_latency_ns", "uvm.fault_latency_ns"}, {"uvm.capacity_frames", "uvm.capacity_frames"},
            {"etc.class", "policy.residency.classifier.class"}, {"etc.throttles", "policy.throttling.throttles"},
            {"etc.metadata_hits", "policy.compression.metadata_hits"}};

    private UvmMetrics() {}

    public static void put(SortedMap<String, Double> stats, LinkedHashMap<String, Double> out) {
        for (String[] c : COLUMNS) {
            Double v = stats.get(c[1]);
            if (v != null) out.put(c[0], v);
        }
    }
}
