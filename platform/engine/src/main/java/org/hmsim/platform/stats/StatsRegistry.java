package org.hmsim.platform.stats;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.StatListener;
import org.hmsim.api.stats.Stats;

/**
 * The one statistics registry of a simulation. Components register readers of their own primitive
 * counters; the registry reads them only at epoch ends and at the end of the run. Histograms are
 * HdrHistogram-backed (3 significant digits). Every name carries a documentation string, so the
 * statistics of a run are self-describing ({@link #docs()}).
 */
public final class StatsRegistry implements Stats {
    private final Map<String, DoubleSupplier> readers = new LinkedHashMap<>();
    /** The names registered as counters (a hand-over continues them; gauges it replaces). */
    private final java.util.Set<String> counters = new java.util.HashSet<>();
    private final Map<String, String> docs = new TreeMap<>();
    private final Map<String, HdrHistogramStat> histograms = new LinkedHashMap<>();
    private final List<String> sampled = new ArrayList<>();
    private final List<StatListener> listeners = new ArrayList<>();
    private final List<double[]> rows = new ArrayList<>();
    private final String prefix;
    private final StatsRegistry root;
    /** The simulation's clock and the end of its run (-1 until it has ended); root only. */
    private LongSupplier clock;
    private long endPs = -1;

    public StatsRegistry() {
        this.prefix = "";
        this.root = this;
    }

    private StatsRegistry(StatsRegistry root, String prefix) {
        this.root = root;
        this.prefix = prefix;
    }

    @Override
    public void counter(String name, String doc, LongSupplier reader) {
        root.put(prefix + name, doc, () -> (double) reader.getAsLong());
        root.counters.add(prefix + name);
    }

    @Override
    public void gauge(String name, String doc, DoubleSupplier reader) {
        root.put(prefix + name, doc, reader);
    }

    @Override
    public Histogram histogram(String name, String doc, long maxValue) {
        HdrHistogramStat h = new HdrHistogramStat(maxValue);
        String full = prefix + name;
        root.histograms.put(full, h);
        root.docs.put(full, doc);
        return h;
    }

    /**
     * Makes {@code total} (a histogram of this registry) read as its own values plus every value recorded
     * into {@code part}, so a component that fills a per-unit and a summed histogram records each value once
     * (e.g. DRAM queue delays per channel and per pool). False if either is not this registry's or their
     * ranges differ: the caller then records into both.
     */
    public static boolean sumOnRead(Histogram total, Histogram part) {
        return total instanceof HdrHistogramStat t && part instanceof HdrHistogramStat p && t.addPart(p);
    }

    /** The clock {@link #elapsedPs()} reads until the run ends. */
    public void setClock(LongSupplier now) { root.clock = now; }

    /** The run ended at {@code ps}: gauges that divide by the elapsed time divide by this from now on. */
    public void endAt(long ps) { root.endPs = ps; }

    @Override
    public long elapsedPs() {
        if (root.endPs >= 0) return root.endPs;
        return root.clock == null ? -1 : root.clock.getAsLong();
    }

    @Override
    public Stats scope(String p) {
        return new StatsRegistry(root, prefix + p + ".");
    }

    @Override
    public void sampleEachEpoch(String name) {
        String full = prefix + name;
        if (!root.readers.containsKey(full)) throw new IllegalArgumentException("no statistic '" + full + "' to sample");
        if (!root.sampled.contains(full)) root.sampled.add(full);
    }

    private void put(String name, String doc, DoubleSupplier reader) {
        if (readers.containsKey(name)) throw new IllegalArgumentException("statistic '" + name + "' registered twice");
        readers.put(name, reader);
        docs.put(name, doc);
    }

    public void addListener(StatListener l) { root.listeners.add(l); }

    /**
     * Statistics for a policy that takes over the names under {@code slotPrefix} (say {@code policy.throttling.}) from
     * the one a live swap removes: registrations wait until {@link Handover#commit()}, so a swap refused before it leaves
     * the run's statistics as they were.
     */
    public Handover handover(String slotPrefix) { return new Handover(this, slotPrefix, ""); }

    /**
     * A policy swapped in mid-run registers through this. At {@link #commit()}, the swap's instant: a counter its
     * predecessor had under the same name goes on from the predecessor's value (a run's counter counts over the run,
     * whichever policy held the slot); a gauge reads the new policy; a histogram of the same range goes on recording
     * into the run's histogram; a new name joins the run's statistics (in stats.json; in timeseries.csv only if
     * sampled before the first epoch, since its columns are fixed). At {@link #freezeRest()}, after the predecessor has
     * closed, a name it had and the new policy does not keep reads as its value then: the run's statistics do not keep a
     * swapped-out policy alive.
     */
    public static final class Handover implements Stats {
        private final StatsRegistry reg;
        private final String slotPrefix, prefix;
        private final List<Runnable> pending;
        private final java.util.Set<String> names;

        private Handover(StatsRegistry reg, String slotPrefix, String prefix) {
            this(reg, slotPrefix, prefix, new ArrayList<>(), new java.util.HashSet<>());
        }

        private Handover(StatsRegistry reg, String slotPrefix, String prefix, List<Runnable> pending, java.util.Set<String> names) {
            this.reg = reg.root;
            this.slotPrefix = slotPrefix;
            this.prefix = prefix;
            this.pending = pending;
            this.names = names;
        }

        private String claim(String name) {
            String full = prefix + name;
            if (!names.add(full)) throw new IllegalArgumentException("statistic '" + full + "' registered twice");
            return full;
        }

        @Override
        public void counter(String name, String doc, LongSupplier reader) {
            String full = claim(name);
            pending.add(() -> {
                DoubleSupplier before = reg.readers.get(full);
                if (before != null && reg.counters.contains(full)) {
                    double base = before.getAsDouble();
                    reg.readers.put(full, () -> base + reader.getAsLong());
                } else {
                    reg.readers.put(full, () -> (double) reader.getAsLong());
                    reg.docs.put(full, doc);
                    reg.counters.add(full);
                }
            });
        }

        @Override
        public void gauge(String name, String doc, DoubleSupplier reader) {
            String full = claim(name);
            pending.add(() -> {
                if (reg.readers.put(full, reader) == null) reg.docs.put(full, doc);
                reg.counters.remove(full);
            });
        }

        @Override
        public Histogram histogram(String name, String doc, long maxValue) {
            String full = claim(name);
            HdrHistogramStat h = new HdrHistogramStat(maxValue);
            pending.add(() -> {
                HdrHistogramStat run = reg.histograms.get(full);
                if (run == null) {
                    reg.histograms.put(full, h);
                    reg.docs.put(full, doc);
                } else run.addPart(h); // another range: the new policy's values are not written
            });
            return h;
        }

        @Override
        public Stats scope(String p) { return new Handover(reg, slotPrefix, prefix + p + ".", pending, names); }

        @Override
        public void sampleEachEpoch(String name) {
            String full = prefix + name;
            if (!names.contains(full)) throw new IllegalArgumentException("no statistic '" + full + "' to sample");
            pending.add(() -> {
                if (!reg.sampled.contains(full) && reg.rows.isEmpty()) reg.sampled.add(full);
            });
        }

        @Override
        public long elapsedPs() { return reg.elapsedPs(); }

        /** The new policy holds the slot from now: its registrations take effect. */
        public void commit() {
            for (Runnable r : pending) r.run();
            pending.clear();
        }

        /** The old policy has closed: what it registered and the new one did not keep is read once and kept as that value. */
        public void freezeRest() {
            for (Map.Entry<String, DoubleSupplier> e : reg.readers.entrySet()) {
                if (!e.getKey().startsWith(slotPrefix) || names.contains(e.getKey())) continue;
                double v = e.getValue().getAsDouble();
                e.setValue(() -> v);
            }
        }
    }

    /** Names of the per-epoch series, in registration order. */
    public List<String> sampledNames() { return Collections.unmodifiableList(root.sampled); }

    /** Takes one time-series row (time in ns, then each sampled statistic). */
    public void sampleEpoch(long timePs) {
        List<String> names = root.sampled;
        double[] row = new double[names.size() + 1];
        row[0] = timePs / 1000.0;
        for (int i = 0; i < names.size(); i++) row[i + 1] = root.readers.get(names.get(i)).getAsDouble();
        root.rows.add(row);
        if (!root.listeners.isEmpty()) {
            String[] n = names.toArray(new String[0]);
            double[] v = java.util.Arrays.copyOfRange(row, 1, row.length);
            for (StatListener l : root.listeners) l.onEpoch(timePs, n, v);
        }
    }

    public List<double[]> seriesRows() { return Collections.unmodifiableList(root.rows); }

    /** Every statistic's current value, by name; histograms contribute count, mean, p50, p99 and max. */
    public SortedMap<String, Double> snapshot() {
        SortedMap<String, Double> out = new TreeMap<>();
        for (Map.Entry<String, DoubleSupplier> e : root.readers.entrySet()) out.put(e.getKey(), e.getValue().getAsDouble());
        for (Map.Entry<String, HdrHistogramStat> e : root.histograms.entrySet()) e.getValue().putSummary(out, e.getKey());
        return out;
    }

    /** Current value of one statistic. */
    public double value(String name) {
        DoubleSupplier r = root.readers.get(name);
        if (r == null) throw new IllegalArgumentException("no statistic '" + name + "'");
        return r.getAsDouble();
    }

    public boolean has(String name) { return root.readers.containsKey(name); }

    /** Documentation of every statistic, by name. */
    public SortedMap<String, String> docs() { return Collections.unmodifiableSortedMap(new TreeMap<>(root.docs)); }

    /** {@link #docs()} in few rows: units of one kind that say the same share a row ({@link StatDocs}). */
    public SortedMap<String, String> describedNames() { return StatDocs.collapse(root.docs, root.histograms.keySet()); }
}
