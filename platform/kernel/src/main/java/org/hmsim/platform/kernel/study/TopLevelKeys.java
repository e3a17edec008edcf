package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.hmsim.api.engine.Units;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The study's top-level keys, and those of them that are single values: its name, seeds and durations. */
final class TopLevelKeys {
    static final List<String> KEYS = List.of("study", "description", "seed", "seeds", "machine", "machines",
            "overrides", "workloads", "policies", "sweep", "epoch", "max_time", "swaps", "report", "statistics");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    static final long DEFAULT_EPOCH_PS = 10_000_000L; // 10 us
    /**
     * Every epoch samples the time series: below 1 ns (about a GPU cycle) there is nothing new to sample
     * and the run drowns in rows (5 ps made a tiny run take 81 s and write 238 MB). Above 1000 s the
     * next epoch's time could overflow the clock.
     */
    /** Characters in a study's name, its results folder's (file systems take 255 bytes; room left for suffixes). */
    static final int MAX_NAME = 200;
    static final long MIN_EPOCH_PS = 1_000L, MAX_EPOCH_PS = 1_000_000_000_000_000L;

    private final StudyFile f;
    private final YamlDoc doc;

    TopLevelKeys(StudyFile f) {
        this.f = f;
        this.doc = f.doc;
    }

    /** Each key that is none of {@link #KEYS}, noted in {@code errors}. */
    void refuseUnknown(List<StudyException> errors) {
        for (Map.Entry<String, NodeTuple> e : f.top.entrySet())
            if (!KEYS.contains(e.getKey()))
                errors.add(doc.error(e.getValue().getKeyNode(), e.getKey(), "unknown key '" + e.getKey() + "' (known: " + String.join(", ", KEYS) + ")"));
    }

    String studyName() throws StudyException {
        Node n = f.value("study");
        if (n == null) throw new StudyException(f.display, 1, 1, "study", "missing: every study needs a name (its results folder): study: my-study");
        String s = f.scalarText(n, "study");
        if (!NAME.matcher(s).matches())
            throw doc.error(n, "study", "'" + s + "' cannot name a folder: use ASCII letters (a-z, A-Z), digits, '.', '_' and '-'");
        // a folder name has at most 255 bytes: a 300-character name passed validate and failed the run (a bad-input trial)
        if (s.length() > MAX_NAME)
            throw doc.error(n, "study", "a study name of " + s.length() + " characters cannot name a folder: at most " + MAX_NAME);
        return s;
    }

    List<Long> seeds() throws StudyException {
        Node one = f.value("seed"), many = f.value("seeds");
        if (one != null && many != null) throw doc.error(f.keyNode("seeds"), "seeds", "give either seed or seeds, not both");
        if (one != null) return List.of(f.wholeNumber(one, "seed"));
        if (many == null) return List.of(1L);
        if (!(many instanceof SequenceNode s) || s.getValue().isEmpty())
            throw doc.error(many, "seeds", "expected a list of seeds: seeds: [1, 2, 3]");
        List<Long> l = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            long v = f.wholeNumber(s.getValue().get(i), "seeds[" + i + "]");
            if (l.contains(v)) throw doc.error(s.getValue().get(i), "seeds[" + i + "]", "seed " + v + " is listed twice");
            l.add(v);
        }
        return List.copyOf(l);
    }

    /** What a {@code statistics:} entry may be: a statistic's name as stats.json writes it, with {@code *} for any run of characters. */
    private static final Pattern STATISTIC = Pattern.compile("[A-Za-z0-9_*][A-Za-z0-9_.*<>-]*");

    /**
     * {@code statistics: [policy.residency.*, gpu0.l2.slice0.nacks]}: statistics of stats.json to write as runs.csv columns
     * too, so figures can draw them (a plugin's own counters, a component's); empty if not given. Each entry is a name or
     * a pattern with {@code *}; one that is already a metric of runs.csv is refused (it is a column already).
     */
    List<String> statistics() throws StudyException {
        Node n = f.value("statistics");
        if (n == null) return List.of();
        if (!(n instanceof SequenceNode s) || s.getValue().isEmpty())
            throw doc.error(n, "statistics", "expected a list of statistics of stats.json (names, or patterns with *): statistics: [policy.residency.*]");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            Node item = s.getValue().get(i);
            String field = "statistics[" + i + "]", name = f.scalarText(item, field);
            if (!STATISTIC.matcher(name).matches())
                throw doc.error(item, field, "'" + name + "' is not a statistic's name (letters, digits, '_', '.', '-', and * for any run of characters)");
            if (!name.contains("*") && org.hmsim.platform.report.MetricNames.known(name))
                throw doc.error(item, field, "'" + name + "' is a metric of runs.csv already: list only statistics that are not (docs/metrics.md)");
            if (out.contains(name)) throw doc.error(item, field, "'" + name + "' is listed twice");
            out.add(name);
        }
        return List.copyOf(out);
    }

    /** Whether {@code name} is one of {@code patterns} or matches one ({@code *}: any run of characters, dots included). */
    static boolean matches(List<String> patterns, String name) { return listed(patterns).test(name); }

    /** {@link #matches} with each pattern compiled once, for the thousands of statistics of a run. */
    static java.util.function.Predicate<String> listed(List<String> patterns) {
        List<Pattern> compiled = patterns.stream().map(org.hmsim.platform.report.MetricNames::glob).toList();
        return name -> compiled.stream().anyMatch(p -> p.matcher(name).matches());
    }

    /** A duration in [min, max] ps, written with its unit. */
    long time(String key, long def, long min, long max) throws StudyException {
        Node n = f.value(key);
        if (n == null) return def;
        Object v = f.scalar(n, key);
        // a bare number would be picoseconds, which nobody means by epoch: 5
        if (v instanceof Number)
            throw doc.error(n, key, "'" + YamlDoc.text(n) + "' has no unit: write the duration with one (10us, 2ms)");
        long ps;
        try {
            ps = Units.picoseconds(v.toString());
        } catch (IllegalArgumentException e) {
            throw doc.error(n, key, "'" + YamlDoc.text(n) + "' is not a duration (write it with a unit: 10us, 2ms): " + e.getMessage());
        }
        // 0.0001ns rounds to 0 ps: a positive value below the range is said with the range (a bad-input trial read
        // "must be greater than zero" for it)
        if (ps <= 0 && !positive(v.toString())) throw doc.error(n, key, "must be greater than zero");
        if (ps < min || ps > max) throw doc.error(n, key, YamlDoc.text(n) + " is out of range [" + duration(min) + ", " + duration(max) + "]");
        return ps;
    }

    /** Whether the number a duration is written with is above zero (it may still round to 0 ps). */
    private static boolean positive(String text) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\s*([-+]?[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?)").matcher(text);
        return m.lookingAt() && Double.parseDouble(m.group(1)) > 0;
    }

    /** A bound in ps as a study would write it: 1ns, 1000s. */
    static String duration(long ps) {
        String[] units = {"s", "ms", "us", "ns"};
        long[] scale = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < units.length; i++) if (ps % scale[i] == 0) return ps / scale[i] + units[i];
        return ps + "ps";
    }
}
