package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One metric of the ok runs, keyed by the values of the varied configuration columns (seed excluded):
 * replicated seeds of the same configuration are averaged (arithmetic mean).
 */
final class Cells {
    final List<String> dims;
    /** The legend of the only series when nothing else varies: the workload if there is one. */
    private final String whole;
    private final Map<List<String>, double[]> sums = new LinkedHashMap<>();

    Cells(Results r, String metric) {
        List<String> d = new ArrayList<>(r.varying());
        d.remove("seed");
        this.dims = List.copyOf(d);
        List<String> workloads = r.values("workload");
        this.whole = workloads.size() == 1 ? workloads.get(0) : "all runs";
        for (Run run : r.okRuns()) {
            double v = run.metric(metric);
            if (Double.isNaN(v)) continue;
            double[] s = sums.computeIfAbsent(key(run), k -> new double[2]);
            s[0] += v;
            s[1]++;
        }
    }

    List<String> key(Run run) {
        List<String> k = new ArrayList<>(dims.size());
        for (String d : dims) k.add(run.value(d));
        return k;
    }

    /** The configurations, in run order. */
    List<List<String>> keys() { return List.copyOf(sums.keySet()); }

    double mean(List<String> key) {
        double[] s = sums.get(key);
        return s == null || s[1] == 0 ? Double.NaN : s[0] / s[1];
    }

    /** The key with {@code column} set to {@code value} (unchanged if column is not varied). */
    List<String> with(List<String> key, String column, String value) {
        int i = dims.indexOf(column);
        if (i < 0) return key;
        List<String> k = new ArrayList<>(key);
        k.set(i, value);
        return k;
    }

    /** The value of {@code column} in a key ("" if not varied). */
    String get(List<String> key, String column) {
        int i = dims.indexOf(column);
        return i < 0 ? "" : key.get(i);
    }

    /** A legend label of the key without the {@code except} columns: "interleave fast_percent=70". */
    String label(List<String> key, List<String> except) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < dims.size(); i++) {
            if (except.contains(dims.get(i))) continue;
            if (b.length() > 0) b.append(' ');
            b.append(Columns.label(dims.get(i), key.get(i), dims));
        }
        return b.length() == 0 ? whole : b.toString();
    }
}
