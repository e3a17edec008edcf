package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One metric of the ok runs, keyed by the values of the varied configuration columns (seed excluded):
 * replicated seeds of the same configuration are averaged (arithmetic mean), and their spread is kept
 * for the figures' whiskers.
 */
final class Cells {
    final List<String> dims;
    /** The legend of the only series when nothing else varies: the workload if there is one. */
    private final String whole;
    private final Map<List<String>, double[]> sums = new LinkedHashMap<>();
    /** Each configuration's value per seed (seed value -> metric), in run order. */
    private final Map<List<String>, Map<String, Double>> bySeed = new LinkedHashMap<>();
    /** Every run's configuration, failed runs included, in run order (the study's order of its values). */
    private final java.util.Set<List<String>> allKeys = new java.util.LinkedHashSet<>();

    Cells(Results r, String metric) { this(r, metric, false); }

    /**
     * @param seedColumn the seed is a column of its own (a figure {@code by: seed}), not replicas to average: it drew one
     *               bar, the seeds' mean, labelled with the first seed (a paper-figures trial)
     */
    Cells(Results r, String metric, boolean seedColumn) {
        List<String> d = new ArrayList<>(r.varying());
        if (!seedColumn) d.remove("seed");
        this.dims = List.copyOf(d);
        List<String> workloads = r.values("workload");
        this.whole = workloads.size() == 1 ? workloads.get(0) : "all runs";
        for (Run run : r.runs()) allKeys.add(key(run));
        for (Run run : r.okRuns()) {
            double v = run.metric(metric);
            if (Double.isNaN(v)) continue;
            double[] s = sums.computeIfAbsent(key(run), k -> new double[2]);
            s[0] += v;
            s[1]++;
            bySeed.computeIfAbsent(key(run), k -> new LinkedHashMap<>()).put(run.value("seed"), v);
        }
    }

    List<String> key(Run run) {
        List<String> k = new ArrayList<>(dims.size());
        for (String d : dims) k.add(run.value(d));
        return k;
    }

    /**
     * Every configuration of the study, those whose runs failed or lack the metric included, in run order: a
     * figure declares its series and categories in this order, so a failed first run moves no series (and no
     * colour) to the end of the legend, and its empty place can be marked.
     */
    List<List<String>> allKeys() { return List.copyOf(allKeys); }

    /** The configurations, in run order. */
    List<List<String>> keys() { return List.copyOf(sums.keySet()); }

    double mean(List<String> key) {
        double[] s = sums.get(key);
        return s == null || s[1] == 0 ? Double.NaN : s[0] / s[1];
    }

    /**
     * The configuration's mean relative to its baseline's, both over the seeds the two share: with a seed's run
     * failed on one side only, that seed entered one mean and not the other, and the bar could lie outside its
     * own whisker. NaN when either is missing; over all seeds when they share none.
     */
    double normalisedMean(List<String> key, List<String> base, boolean invert) {
        Map<String, Double> values = bySeed.get(key), baseValues = bySeed.get(base);
        if (values == null || baseValues == null) return Double.NaN;
        double sum = 0, baseSum = 0;
        int n = 0;
        for (Map.Entry<String, Double> e : values.entrySet()) {
            Double paired = baseValues.get(e.getKey());
            if (paired == null) continue;
            sum += e.getValue();
            baseSum += paired;
            n++;
        }
        return n == 0 ? Maths.normalise(mean(key), mean(base), invert) : Maths.normalise(sum / n, baseSum / n, invert);
    }

    /** How many configurations are means over fewer seeds than the most any has (a replica's run failed). */
    int shortOfSeeds() {
        int most = bySeed.values().stream().mapToInt(Map::size).max().orElse(0);
        return (int) bySeed.values().stream().filter(m -> m.size() < most).count();
    }

    /** How many seeds the configuration's mean is over. */
    int seeds(List<String> key) {
        Map<String, Double> m = bySeed.get(key);
        return m == null ? 0 : m.size();
    }

    /**
     * The least and greatest value over the configuration's seeds; normalised (with {@code base} the
     * baseline's key) seed by seed against the baseline run of the same seed, else against the baseline's
     * mean. Null when there are fewer than two seeds.
     */
    double[] range(List<String> key, List<String> base, boolean invert) {
        Map<String, Double> values = bySeed.get(key);
        if (values == null || values.size() < 2) return null;
        Map<String, Double> baseValues = base == null ? null : bySeed.get(base);
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        // as normalisedMean: only the seeds the baseline shares, when it shares any (a failed baseline replica's seed was
        // normalised against another seed's baseline, and the whisker mixed seeds: a paper-figures trial)
        boolean shared = baseValues != null && values.keySet().stream().anyMatch(baseValues::containsKey);
        for (Map.Entry<String, Double> e : values.entrySet()) {
            double v = e.getValue();
            if (base != null) {
                Double paired = baseValues == null ? null : baseValues.get(e.getKey());
                if (paired == null && shared) continue;
                v = Maths.normalise(v, paired != null ? paired : mean(base), invert);
            }
            if (Double.isNaN(v)) continue;
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        return lo <= hi ? new double[] {lo, hi} : null;
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
