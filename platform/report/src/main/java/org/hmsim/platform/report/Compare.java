package org.hmsim.platform.report;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code hmsim compare DIR_A DIR_B}: the figures of A and B side by side and a table of per-run,
 * per-metric differences; a difference whose relative size exceeds the tolerance "moved". Runs are
 * matched by their configuration (workload, machine, slots, swept values, seed), so two executions of
 * the same study match run for run even if run ids differ.
 */
public final class Compare {
    public static final double DEFAULT_TOLERANCE = 0.02;

    /**
     * One metric of one run in both folders (with {@link #diffsOverSeeds}, of one configuration over its seeds).
     *
     * @param relative (b - a) / |a|; 0 when both are 0; ±infinity when only a is 0; NaN when a side lacks it
     * @param spread with {@link #diffsOverSeeds}: each side's least to greatest over its seeds ("" run by run)
     */
    public record Diff(String runA, String runB, String label, String metric, double a, double b, double relative, boolean moved,
                       String spread) {
        public Diff(String runA, String runB, String label, String metric, double a, double b, double relative, boolean moved) {
            this(runA, runB, label, metric, a, b, relative, moved, "");
        }
    }

    /**
     * What a comparison found and wrote.
     *
     * @param notes what a side lacks of its study (Results#notes), as "A: ..." or "B: ..."
     * @param seeds the most seeds either folder ran each configuration with
     * @param nothingCompared no run of A had a configuration of B (every difference is a run on one side only)
     */
    public record Outcome(List<Diff> diffs, int moved, Path html, int figures, List<String> notes, int seeds, boolean nothingCompared) {
        public boolean anyMoved() { return moved > 0; }
    }

    private Compare() {}

    /** Relative difference of b against a (see {@link Diff#relative()}). */
    public static double relative(double a, double b) {
        if (Double.isNaN(a) || Double.isNaN(b)) return Double.NaN;
        if (a == 0) return b == 0 ? 0 : Math.copySign(Double.POSITIVE_INFINITY, b);
        return (b - a) / Math.abs(a);
    }

    /** Whether a difference counts as moved: beyond the tolerance, or present on one side only. */
    public static boolean moved(double a, double b, double tolerance) {
        if (Double.isNaN(a) && Double.isNaN(b)) return false;
        double r = relative(a, b);
        return Double.isNaN(r) || Math.abs(r) > tolerance;
    }

    /** Compares the two folders; writes nothing. */
    public static List<Diff> diffs(Results a, Results b, double tolerance) {
        Set<String> lacking = slotsOneSideLacks(a, b).keySet();
        Map<String, Run> inB = new LinkedHashMap<>();
        for (Run r : b.runs()) inB.put(configKey(r, lacking), r);
        Set<String> metrics = new LinkedHashSet<>(a.metrics());
        metrics.addAll(b.metrics());
        List<Diff> out = new ArrayList<>();
        Set<String> matched = new LinkedHashSet<>();
        for (Run ra : a.runs()) {
            Run rb = inB.get(configKey(ra, lacking));
            String label = Planner.label(a, ra);
            if (rb == null) {
                out.add(new Diff(ra.id(), "", label, "(run only in A)", 1, Double.NaN, Double.NaN, true));
                continue;
            }
            matched.add(configKey(rb, lacking));
            if (ra.ok() != rb.ok()) {
                // one difference, as a run on one side only is: the failed side has no metrics, and each listed as moved
                // (124 of 978 "differences" for two failed runs) buried what else moved (found by a reports review)
                out.add(new Diff(ra.id(), rb.id(), label, "(status: " + (ra.ok() ? "ok" : "failed") + " \u2192 " + (rb.ok() ? "ok" : "failed") + ")", 1, Double.NaN, Double.NaN, true));
                continue;
            }
            for (String m : metrics) {
                double va = ra.metric(m), vb = rb.metric(m);
                if (Double.isNaN(va) && Double.isNaN(vb)) continue;
                out.add(new Diff(ra.id(), rb.id(), label, m, va, vb, relative(va, vb), moved(va, vb, tolerance)));
            }
        }
        for (Run rb : b.runs())
            if (!matched.contains(configKey(rb, lacking))) out.add(new Diff("", rb.id(), Planner.label(b, rb), "(run only in B)", Double.NaN, 1, Double.NaN, true));
        return out;
    }

    /**
     * With replicated seeds: each configuration (every column but the seed) over its seeds, A's median against B's. It
     * moved when the medians differ beyond the tolerance and the two ranges, least to greatest over the seeds, do not
     * overlap: a change inside the seeds' own spread is not one (a researcher's 2 ns DRAM jitter made 552 per-seed
     * "moved" lines, most of them noise). A configuration on one side only, or failed on a side, is listed as moved.
     */
    public static List<Diff> diffsOverSeeds(Results a, Results b, double tolerance) {
        Set<String> lacking = slotsOneSideLacks(a, b).keySet();
        Map<String, List<Run>> groupsA = bySeedlessConfig(a, lacking), groupsB = bySeedlessConfig(b, lacking);
        Set<String> metrics = new LinkedHashSet<>(a.metrics());
        metrics.addAll(b.metrics());
        List<Diff> out = new ArrayList<>();
        for (Map.Entry<String, List<Run>> ga : groupsA.entrySet()) {
            List<Run> ra = ga.getValue(), rb = groupsB.get(ga.getKey());
            String label = Planner.label(a, ra.get(0), "seed"), idsA = ids(ra);
            if (rb == null) {
                out.add(new Diff(idsA, "", label, "(configuration only in A)", 1, Double.NaN, Double.NaN, true));
                continue;
            }
            String idsB = ids(rb);
            boolean okA = ra.stream().allMatch(Run::ok), okB = rb.stream().allMatch(Run::ok);
            if (!okA || !okB) {
                if (okA != okB) out.add(new Diff(idsA, idsB, label, "(status: " + (okA ? "ok" : "failed") + " \u2192 " + (okB ? "ok" : "failed") + ")", 1, Double.NaN, Double.NaN, true));
                continue;
            }
            for (String m : metrics) {
                double[] va = values(ra, m), vb = values(rb, m);
                if (va.length == 0 && vb.length == 0) continue;
                double ma = Maths.median(va), mb = Maths.median(vb);
                boolean apart = va.length == 0 || vb.length == 0 || max(va) < min(vb) || max(vb) < min(va);
                out.add(new Diff(idsA, idsB, label, m, ma, mb, relative(ma, mb), apart && moved(ma, mb, tolerance),
                        range(va) + " | " + range(vb)));
            }
        }
        for (Map.Entry<String, List<Run>> gb : groupsB.entrySet())
            if (!groupsA.containsKey(gb.getKey()))
                out.add(new Diff("", ids(gb.getValue()), Planner.label(b, gb.getValue().get(0), "seed"), "(configuration only in B)", Double.NaN, 1, Double.NaN, true));
        return out;
    }

    private static Map<String, List<Run>> bySeedlessConfig(Results r, Set<String> lacking) {
        Map<String, List<Run>> out = new LinkedHashMap<>();
        for (Run run : r.runs()) {
            Map<String, String> c = new LinkedHashMap<>(run.config());
            c.remove("seed");
            c.keySet().removeAll(lacking);
            out.computeIfAbsent(configKey(c), k -> new ArrayList<>()).add(run);
        }
        return out;
    }


    private static String ids(List<Run> runs) {
        return runs.size() == 1 ? runs.get(0).id() : runs.get(0).id() + "\u2026" + runs.get(runs.size() - 1).id();
    }

    private static double[] values(List<Run> runs, String metric) {
        return runs.stream().mapToDouble(r -> r.metric(metric)).filter(v -> !Double.isNaN(v)).toArray();
    }

    private static double min(double[] v) { return java.util.Arrays.stream(v).min().orElse(Double.NaN); }

    private static double max(double[] v) { return java.util.Arrays.stream(v).max().orElse(Double.NaN); }

    private static String range(double[] v) { return v.length == 0 ? "missing" : Numbers.show(min(v)) + "\u2013" + Numbers.show(max(v)); }

    private static String configKey(Run r, Set<String> lacking) {
        if (lacking.isEmpty()) return configKey(r.config());
        Map<String, String> c = new LinkedHashMap<>(r.config());
        c.keySet().removeAll(lacking);
        return configKey(c);
    }

    /**
     * Slot columns one folder has and the other lacks, with the one value the folder that has them holds: a folder written
     * before a slot existed ran its default, so its runs are matched with the other's single value, and a note says so (a
     * trial's folder from before the dram-scheduler slot matched no run of today's).
     */
    static Map<String, String> slotsOneSideLacks(Results a, Results b) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Results[] pair : new Results[][] {{a, b}, {b, a}})
            for (String c : pair[0].configColumns())
                if (c.startsWith("slot.") && !pair[1].configColumns().contains(c) && pair[0].values(c).size() == 1) out.put(c, pair[0].values(c).get(0));
        return out;
    }

    /** What {@link #slotsOneSideLacks} took as matching, said in the report's warnings and on the command line. */
    static List<String> lackingSlotNotes(Results a, Results b) {
        List<String> out = new ArrayList<>();
        slotsOneSideLacks(a, b).forEach((c, v) -> out.add((a.configColumns().contains(c) ? "B" : "A") + " has no column " + c
                + " (written before that slot existed, so its runs ran the slot's default): its runs are matched with the other side's,"
                + " which all ran " + v));
        return out;
    }

    /**
     * Where no run of A has a configuration of B, nothing was compared: every "difference" is a run on one side only. Says
     * which columns set them apart (a newcomer compared a study against itself with another L2 miss path and read "12 of
     * 12 differences beyond 2 %").
     */
    static String nothingMatched(Results a, Results b, List<Diff> diffs) {
        if (diffs.isEmpty() || !diffs.stream().allMatch(d -> d.metric().startsWith("(") && (d.runA().isEmpty() || d.runB().isEmpty()))) return null;
        List<String> apart = new ArrayList<>();
        java.util.Set<String> columns = new LinkedHashSet<>(a.configColumns());
        columns.addAll(b.configColumns()); // a column only B has sets them apart too (the message walked A's alone)
        for (String c : columns)
            if (!a.values(c).equals(b.values(c))) apart.add(c + " (A: " + String.join(", ", a.values(c)) + "; B: " + String.join(", ", b.values(c)) + ")");
        return "no run of A has a configuration of B, so no metric was compared"
                + (apart.isEmpty() ? "" : ": they differ in " + String.join(", ", apart)) + "; compare folders of the same runs";
    }

    private static String configKey(Map<String, String> config) {
        return String.join("\u0001", config.values()) + "\u0002" + String.join("\u0001", config.keySet());
    }

    /** Compares A and B and writes {@code outDir/report.html} and {@code outDir/figures/}. */
    public static Outcome write(Path dirA, Path dirB, double tolerance, Path outDir) { return write(dirA, dirB, tolerance, outDir, false); }

    /** @param overSeeds compare each configuration over its seeds ({@link #diffsOverSeeds}) instead of run by run */
    public static Outcome write(Path dirA, Path dirB, double tolerance, Path outDir, boolean overSeeds) {
        Render.headless();
        Results a = Results.load(dirA), b = Results.load(dirB);
        List<Diff> diffs = overSeeds ? diffsOverSeeds(a, b, tolerance) : diffs(a, b, tolerance);
        int moved = (int) diffs.stream().filter(Diff::moved).count();
        Planner planner = new Planner();
        List<FigureSpec> specs = planner.specs(a);
        List<Figure> fa = planner.figures(a, specs), fb = planner.figures(b, specs);
        List<Figure> all = new ArrayList<>();
        for (Figure f : fa) all.add(renamed(f, "a-"));
        for (Figure f : fb) all.add(renamed(f, "b-"));
        Map<String, String> svgs = Report.writeFigures(outDir, all);

        Html h = new Html().open("hmsim compare: " + a.name() + " vs " + b.name());
        h.h(1, null, "hmsim compare");
        h.p("sub", "A: " + a.dir().toAbsolutePath().normalize() + " (" + Report.subtitle(a) + ")");
        h.p("sub", "B: " + b.dir().toAbsolutePath().normalize() + " (" + Report.subtitle(b) + ")");
        h.p(null, (moved == 0 ? "No metric moved beyond the tolerance of " + Numbers.percent(tolerance).replace("+", "") + "."
                : moved + " of " + diffs.size() + " differences moved beyond the tolerance of " + Numbers.percent(tolerance).replace("+", "") + " (highlighted).")
                + (overSeeds ? " Each configuration over its seeds: medians compared, moved only where the two sides' ranges over the seeds do not overlap." : ""));
        h.raw("<nav><a href=\"#differences\">Differences</a> \u00b7 <a href=\"#figures\">Figures</a> \u00b7 <a href=\"#provenance\">Provenance</a></nav>\n");
        h.h(2, "differences", "Differences (B relative to A)");
        h.raw("<label><input type=\"checkbox\" id=\"only-moved\"> show only what moved</label>\n");
        List<List<String>> rows = new ArrayList<>();
        List<String> classes = new ArrayList<>();
        for (Diff d : diffs) {
            List<String> row = new ArrayList<>(List.of(d.runA(), d.runB(), d.label(), d.metric(), d.metric().startsWith("(") ? "" : Numbers.show(d.a()),
                    d.metric().startsWith("(") ? "" : Numbers.show(d.b()), Numbers.percent(d.relative()), d.moved() ? "moved" : ""));
            if (overSeeds) row.add(6, d.spread());
            rows.add(row);
            classes.add(d.moved() ? "moved" : "same");
        }
        h.table("diff-table", overSeeds ? List.of("runs A", "runs B", "configuration", "metric", "A (median)", "B (median)", "seeds' range A | B", "change", "flag")
                : List.of("run A", "run B", "configuration", "metric", "A", "B", "change", "flag"), rows, classes);
        h.h(2, "figures", "Figures: A (left) and B (right)");
        Map<String, Figure> byIdB = new LinkedHashMap<>();
        for (Figure f : fb) byIdB.put(f.id(), f);
        for (Figure f : fa) {
            h.raw("<div class=\"pair\"><div><h3>A: " + Html.esc(a.name()) + "</h3>\n");
            h.figure(renamed(f, "a-"), svgs.get("a-" + f.id()), true);
            h.raw("</div><div><h3>B: " + Html.esc(b.name()) + "</h3>\n");
            Figure g = byIdB.get(f.id());
            if (g == null) h.p("note", "B has no such figure.");
            else h.figure(renamed(g, "b-"), svgs.get("b-" + g.id()), true);
            h.raw("</div></div>\n");
        }
        // a side that is partial (its study stopped): runs "only in A" may only not have ended there
        List<String> notes = new ArrayList<>();
        for (String n : a.notes()) notes.add("A: " + n);
        for (String n : b.notes()) notes.add("B: " + n);
        if (overSeeds) notes.addAll(chanceNote(a.values("seed").size(), b.values("seed").size(), diffs.size(), moved));
        if (overSeeds) notes.addAll(singleSeedNote(a.values("seed"), b.values("seed"), diffs.size(), moved));
        notes.addAll(lackingSlotNotes(a, b));
        String unmatched = nothingMatched(a, b, diffs);
        if (unmatched != null) notes.add(unmatched);
        List<String> warnings = new ArrayList<>(notes);
        warnings.addAll(planner.warnings());
        Report.warnings(h, warnings);
        h.h(2, "provenance", "Provenance");
        h.h(3, null, "A");
        provenanceOf(h, a);
        h.h(3, null, "B");
        provenanceOf(h, b);
        Path html = outDir.resolve(Report.HTML);
        Report.write(html, h.close().getBytes(StandardCharsets.UTF_8));
        return new Outcome(diffs, moved, html, fa.size() + fb.size(), List.copyOf(notes), Math.max(a.values("seed").size(), b.values("seed").size()),
                unmatched != null);
    }

    /**
     * With few seeds a side, two ranges of a metric that did not move fail to overlap by chance: all of A's seeds below
     * all of B's or above, probability 2 na! nb! / (na + nb)! for independent seeds (0.1 at 3 and 3). A trial took 24 of
     * 264 "moved" between two seed sets of one study for a change; the chance count was 26.
     */
    static List<String> chanceNote(int na, int nb, int compared, int moved) {
        if (na < 2 || nb < 2 || compared == 0) return List.of();
        double p = disjointChance(na, nb);
        if (p < 0.001) return List.of();
        return List.of(String.format(java.util.Locale.ROOT, "with %d and %d seeds, a metric that did not move still has disjoint ranges with"
                + " probability %.3f, about %.0f of the %d compared; %d moved", na, nb, p, p * compared, compared, moved));
    }

    /**
     * One seed on a side leaves --over-seeds no spread to judge by: every difference past the tolerance is flagged, and
     * where the seeds differ that is the seeds' own noise (a trial's seed 2 against seed 3, one configuration: 18 of 33
     * metrics "moved", exit 1, no word; without --over-seeds the two folders did not match at all).
     */
    static List<String> singleSeedNote(List<String> seedsA, List<String> seedsB, int compared, int moved) {
        if (compared == 0 || seedsA.isEmpty() || seedsB.isEmpty() || seedsA.size() >= 2 && seedsB.size() >= 2 || seedsA.equals(seedsB)) return List.of();
        double p = disjointChance(seedsA.size(), seedsB.size());
        return List.of(String.format(java.util.Locale.ROOT, "A has %d seed%s (%s) and B %d (%s): one seed on a side gives --over-seeds no spread"
                + " to judge by, so a metric that did not move is still flagged with probability %.3f wherever the seeds' noise passes the"
                + " tolerance (%d of %d moved); run more seeds on each side for a judgement", seedsA.size(), seedsA.size() == 1 ? "" : "s",
                String.join(", ", seedsA), seedsB.size(), String.join(", ", seedsB), p, moved, compared));
    }

    /** The chance that na and nb seeds of a metric that did not move give disjoint ranges: 2 na! nb! / (na + nb)!, at most 1. */
    private static double disjointChance(int na, int nb) {
        double p = 2;
        for (int i = 1; i <= na; i++) p *= (double) i / (nb + i);
        return Math.min(1, p);
    }

    private static void provenanceOf(Html h, Results r) {
        Map<String, Object> s = r.study();
        StringBuilder b = new StringBuilder("<dl class=\"prov\">\n");
        for (String k : List.of("study", "study_file", "study_sha256", "hmsim_version", "java_version", "seeds", "status")) {
            if (!s.containsKey(k)) continue;
            b.append("<dt>").append(Html.esc(k)).append("</dt><dd>").append(Html.esc(String.valueOf(s.get(k)))).append("</dd>\n");
        }
        if (s.get("bundles") instanceof List<?> bundles) {
            List<String> l = new ArrayList<>();
            for (Object o : bundles) if (o instanceof Map<?, ?> m) l.add(m.get("symbolic_name") + " " + m.get("version"));
            b.append("<dt>bundles</dt><dd>").append(Html.esc(String.join(", ", l))).append("</dd>\n");
        }
        h.raw(b.append("</dl>\n").toString());
    }

    private static Figure renamed(Figure f, String prefix) {
        return new Figure(prefix + f.id(), f.title(), f.caption(), f.chart(), f.width(), f.height(), f.data(), f.categoryColumn(), f.notes());
    }
}
