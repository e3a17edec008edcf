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
            {"etc.throttles", "policy.throttling.throttles"},
            {"etc.metadata_hits", "policy.compression.metadata_hits"}};

    /** ETC's slots, in the order {@code etc.class} is taken from them. */
    private static final String[] ETC_SLOTS = {"residency", "throttling", "compression"};

    private UvmMetrics() {}

    public static void put(SortedMap<String, Double> stats, LinkedHashMap<String, Double> out) {
        for (String[] c : COLUMNS) {
            Double v = stats.get(c[1]);
            if (v != null) out.put(c[0], v);
        }
        putEtcClass(stats, out);
    }

    /**
     * {@code etc.class}: the class ETC's policies acted on, from the classifiers whose policy follows them
     * ({@code policy.<slot>.classifier.acting} = 1: mode auto), at the end of the run. The residency slot's if it acts,
     * else the throttling slot's, else the compression slot's; absent where none acts (every mode on or off, or no ETC
     * policy: the class was filled in from the residency slot's classifier whatever its mode until 2026-11-30, a tester's
     * report). Where the acting classifiers found different classes (they sample differently: {@code classify}), each
     * acting slot's class is in {@code etc.class_<slot>} too.
     */
    static void putEtcClass(SortedMap<String, Double> stats, LinkedHashMap<String, Double> out) {
        java.util.List<String> acting = new java.util.ArrayList<>();
        for (String slot : ETC_SLOTS)
            if (Double.valueOf(1).equals(stats.get("policy." + slot + ".classifier.acting")) && stats.get(classOf(slot)) != null) acting.add(slot);
        if (acting.isEmpty()) return;
        Double first = stats.get(classOf(acting.get(0)));
        out.put("etc.class", first);
        boolean agree = true;
        for (String slot : acting) agree &= first.equals(stats.get(classOf(slot)));
        if (!agree) for (String slot : acting) out.put("etc.class_" + slot, stats.get(classOf(slot)));
    }

    private static String classOf(String slot) { return "policy." + slot + ".classifier.class"; }
}
