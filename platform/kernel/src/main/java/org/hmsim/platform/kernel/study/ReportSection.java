package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.report.Columns;
import org.hmsim.platform.report.FigureSpec;
import org.hmsim.platform.report.FigureSpecException;
import org.hmsim.platform.report.MetricNames;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The study's {@code report:} list (docs/reports.md): each figure is checked by the report's own grammar
 * ({@link FigureSpec#parse}), and the columns it names ({@code x}, {@code by}, {@code normalise_to}, {@code where}) must
 * be columns the study's runs.csv will have, and the values {@code normalise_to} and {@code where} give must be
 * values its runs will write there (a misspelt baseline would otherwise show only after the whole study ran, as a
 * figure's note). Errors are located at the key at fault.
 */
final class ReportSection {
    private ReportSection() {}

    /**
     * @param sweepColumns the runs.csv columns of the study's swept values ({@code policies.placement.fast_percent})
     * @param runs the study's runs, whose configuration columns the figures' values must name
     * @param earlier read figures as an earlier version accepted them ({@link FigureSpec#parseRecorded})
     * @param statistics the study's {@code statistics:}, the stats.json names it also writes as runs.csv columns
     * @return the list as written (plain maps/lists/scalars), stored in study.json
     */
    static List<Object> read(YamlDoc doc, Node n, List<String> sweepColumns, List<PlannedRun> runs, boolean earlier,
                             List<String> statistics) throws StudyException {
        if (n == null) return List.of();
        if (!(n instanceof SequenceNode s))
            throw doc.error(n, "report", "expected a list of figures: - {metric: sim_time_ns, normalise_to: baseline, by: workload}");
        List<String> columns = columns(sweepColumns);
        List<Object> out = new ArrayList<>();
        StudyErrors errors = new StudyErrors(); // every figure's mistake at once (a researcher's two bad metrics came one per validate)
        for (int i = 0; i < s.getValue().size(); i++) {
            Node item = s.getValue().get(i);
            String field = "report[" + i + "]";
            Object figure = errors.check(() -> figure(doc, item, field, columns, sweepColumns, runs, earlier, statistics));
            if (figure != null) out.add(figure);
        }
        if (!errors.errors.isEmpty()) throw StudyException.of(errors.errors);
        return List.copyOf(out);
    }

    /** Checks one figure of {@code report:}; returns it as written. */
    private static Object figure(YamlDoc doc, Node item, String field, List<String> columns, List<String> sweepColumns,
                                 List<PlannedRun> runs, boolean earlier, List<String> statistics) throws StudyException {
        Object plain = doc.plain(item, "", null);
        FigureSpec spec;
        try {
            spec = earlier ? FigureSpec.parseRecorded(plain) : FigureSpec.parse(plain);
        } catch (FigureSpecException e) {
            throw doc.error(at(item, e.key()), e.key().isEmpty() ? field : field + "." + e.key(), e.getMessage());
        }
        if (!earlier && spec.kind() != FigureSpec.Kind.TIMESERIES) // a time series draws statistics, not runs.csv metrics
            for (String metric : spec.metrics()) {
                String key = item instanceof MappingNode m && hasKey(m, "metrics") ? "metrics" : "metric";
                if (!MetricNames.known(metric) && resolve(columns, metric) == null && !TopLevelKeys.matches(statistics, metric))
                    throw doc.error(at(item, key), field + "." + key, "'" + metric + "' is not a metric of runs.csv (did you mean "
                            + MetricNames.closest(metric) + "? docs/metrics.md lists them; a pool's and a link's as pool.<name>.bytes;"
                            + " a statistic of stats.json, such as a policy's own counter, is drawn once the study lists it under statistics:)");
                String unknownPart = TopLevelKeys.matches(statistics, metric) ? null : unknownPoolOrLink(metric, runs);
                if (unknownPart != null) throw doc.error(at(item, key), field + "." + key, "'" + metric + "': " + unknownPart);
            }
        if (spec.x() != null && resolve(columns, spec.x()) == null)
            throw doc.error(at(item, "x"), field + ".x", "'" + spec.x() + "' is not a swept column of this study (swept: "
                    + (sweepColumns.isEmpty() ? "none" : String.join(", ", sweepColumns)) + ")");
        if (resolve(columns, spec.by()) == null)
            throw doc.error(at(item, "by"), field + ".by", "'" + spec.by() + "' is not a column of runs.csv (workload, machine, seed, a slot, or a swept column)");
        if (spec.normalise() != null)
            for (Map.Entry<String, String> e : spec.normalise().values().entrySet()) {
                String key = item instanceof MappingNode m && hasKey(m, "normalize_to") ? "normalize_to" : "normalise_to";
                checkValues(doc, item, field, key + "." + e.getKey(), resolve(columns, e.getKey()), List.of(e.getValue()), runs);
            }
        for (Map.Entry<String, List<String>> e : spec.where().entrySet())
            checkValues(doc, item, field, "where." + e.getKey(), resolve(columns, e.getKey()), e.getValue(), runs);
        if (spec.x() != null) { // found by an audit: a line over 'fixed, crossbar' drew them as one unit-labelled point
            // only the runs the figure draws: a where: may leave out the values that are not numbers
            List<String> words = values(resolve(columns, spec.x()), drawn(columns, spec, runs)).stream()
                    .filter(v -> !Columns.numeric(v)).toList();
            if (!words.isEmpty())
                throw doc.error(at(item, "x"), field + ".x", "'" + spec.x() + "' holds values that are not numbers (" + String.join(", ", words)
                        + "): a line figure's x axis needs numbers; to compare these, use by: " + spec.x());
        }
        if (spec.runs() != null) { // a time series of a run the study does not have showed only as a warning in the report
            java.util.Set<String> ids = new java.util.LinkedHashSet<>();
            for (PlannedRun r : runs) ids.add(r.id());
            for (String id : spec.runs())
                if (ids.stream().noneMatch(x -> org.hmsim.platform.report.Columns.namesRun(id, x))) // 2 or 0002 (a YAML number) is run 0002
                    throw doc.error(at(item, "runs"), field + ".runs", "'" + id + "' is not a run of this study (runs "
                            + runs.get(0).id() + " to " + runs.get(runs.size() - 1).id() + ")");
            // a run its where: leaves out is not drawn: the figure came out empty with only a warning (review of silent inputs)
            if (!spec.where().isEmpty()) {
                List<PlannedRun> kept = drawn(columns, spec, runs);
                for (String id : spec.runs())
                    for (PlannedRun r : runs)
                        if (org.hmsim.platform.report.Columns.namesRun(id, r.id()) && !kept.contains(r))
                            throw doc.error(at(item, "runs"), field + ".runs", "run " + r.id() + " (" + r.label()
                                    + ") is left out by this figure's where:, so it would not be drawn; give runs or where, or make them agree");
            }
        }
        return plain;
    }

    /**
     * Why a pool's or a link's metric names a part no machine of the study has ({@code pool.dddr.bandwidth_gbps}: the figure
     * came out empty, with a warning, after the runs), or null. A name with {@code *} is a pattern and not checked.
     */
    private static String unknownPoolOrLink(String metric, List<PlannedRun> runs) {
        java.util.regex.Matcher m = POOL_OR_LINK.matcher(metric);
        if (!m.find()) return null;
        boolean pool = m.group(1).equals("pool");
        Set<String> names = new java.util.TreeSet<>();
        for (PlannedRun r : runs)
            if (pool) r.machine().config().pools().forEach(p -> names.add(p.name()));
            else r.machine().config().links().forEach(l -> names.add(l.name()));
        if (names.contains(m.group(2))) return null;
        return "no machine of this study has a " + m.group(1) + " '" + m.group(2) + "' (" + (names.isEmpty() ? "none has a " + m.group(1)
                : "its " + m.group(1) + "s: " + String.join(", ", names)) + ")";
    }

    private static final java.util.regex.Pattern POOL_OR_LINK = java.util.regex.Pattern.compile("^(pool|link)\\.([^.*]+)\\.");

    /** {@code column} (null: none matched {@code key}'s last part) must exist and hold each of {@code given} in some run. */
    private static void checkValues(YamlDoc doc, Node item, String field, String key, String column, List<String> given,
                                    List<PlannedRun> runs) throws StudyException {
        String name = key.substring(key.indexOf('.') + 1);
        if (column == null)
            throw doc.error(at(item, key), field + "." + key, "'" + name + "' is not a column of runs.csv (workload, machine, seed, a slot, or a swept column)");
        List<String> values = List.copyOf(values(column, runs));
        for (String v : given)
            if (Columns.match(values, v) == null) {
                // a policy's name where the study runs it with several parameter sets: ambiguous, not absent (a trial)
                List<String> sameName = values.stream().filter(x -> x.startsWith(v + "(") || x.startsWith(v + "@")).toList();
                throw doc.error(at(item, key), field + "." + key, sameName.size() > 1
                        ? "'" + v + "' names " + sameName.size() + " values of " + name + " (" + String.join(", ", sameName)
                                + "): give one as written, or select on the swept parameter"
                        : "no run of this study has " + name + " '" + v + "' (its values: " + String.join(", ", values) + ")");
            }
    }

    /** The values runs.csv will hold in {@code column}, in run order (as ResultsFolder writes them). */
    private static Set<String> values(String column, List<PlannedRun> runs) {
        Set<String> v = new LinkedHashSet<>();
        for (PlannedRun r : runs) v.add(value(column, r));
        return v;
    }

    /** The value runs.csv will hold in {@code column} for run {@code r}. */
    private static String value(String column, PlannedRun r) {
        return switch (column) {
            case "workload" -> r.workload().label();
            case "machine" -> r.machine().label();
            case "seed" -> Long.toString(r.seed());
            case "run" -> r.id();
            default -> column.startsWith("slot.") ? r.policies().get(Slot.byId(column.substring(5))).label()
                    : r.sweepValues().getOrDefault(column, "");
        };
    }

    /**
     * The runs a figure draws, as the report's planner picks them: those its {@code where:} keeps, and its baseline's
     * ({@code normalise_to}'s values on their columns, where:'s on the others). Every column was checked to exist.
     */
    private static List<PlannedRun> drawn(List<String> columns, FigureSpec spec, List<PlannedRun> runs) {
        Map<String, List<String>> keep = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, List<String>> e : spec.where().entrySet()) keep.put(resolve(columns, e.getKey()), e.getValue());
        Map<String, List<String>> base = new java.util.LinkedHashMap<>(keep);
        if (spec.normalise() != null)
            for (Map.Entry<String, String> e : spec.normalise().values().entrySet()) {
                String col = resolve(columns, e.getKey());
                if (base.containsKey(col)) base.put(col, List.of(e.getValue()));
            }
        List<PlannedRun> kept = new ArrayList<>();
        for (PlannedRun r : runs) if (matches(keep, r) || matches(base, r)) kept.add(r);
        return kept;
    }

    private static boolean matches(Map<String, List<String>> filter, PlannedRun r) {
        for (Map.Entry<String, List<String>> e : filter.entrySet()) {
            List<String> one = List.of(value(e.getKey(), r));
            if (e.getValue().stream().allMatch(g -> Columns.match(one, g) == null)) return false;
        }
        return true;
    }

    private static List<String> columns(List<String> sweepColumns) {
        List<String> c = new ArrayList<>(List.of("workload", "machine", "seed", "run"));
        for (Slot s : Slot.values()) c.add("slot." + s.id());
        c.addAll(sweepColumns);
        return c;
    }

    /** Same rule as the report's: exact, a slot by its id, or the unique last part of a swept path. */
    private static String resolve(List<String> columns, String name) {
        if (columns.contains(name)) return name;
        if (columns.contains("slot." + name)) return "slot." + name;
        String found = null;
        for (String c : columns)
            if (c.endsWith("." + name)) {
                if (found != null) return null;
                found = c;
            }
        return found;
    }

    private static boolean hasKey(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) if (YamlDoc.text(t.getKeyNode()).equals(key)) return true;
        return false;
    }

    /**
     * The value node of a dotted key inside a figure ({@code normalise_to.policies.placement.fast_percent}:
     * keys may themselves contain dots, so the longest key that matches wins); the innermost mapping
     * reached when the key is absent.
     */
    private static Node at(Node item, String dotted) {
        Node n = item;
        String rest = dotted;
        while (!rest.isEmpty() && n instanceof MappingNode m) {
            NodeTuple best = null;
            for (NodeTuple t : m.getValue()) {
                String k = YamlDoc.text(t.getKeyNode());
                if ((rest.equals(k) || rest.startsWith(k + ".")) && (best == null || k.length() > YamlDoc.text(best.getKeyNode()).length())) best = t;
            }
            if (best == null) return n;
            String k = YamlDoc.text(best.getKeyNode());
            n = best.getValueNode();
            rest = rest.length() == k.length() ? "" : rest.substring(k.length() + 1);
        }
        return n;
    }
}
