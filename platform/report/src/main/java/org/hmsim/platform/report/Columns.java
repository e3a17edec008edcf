package org.hmsim.platform.report;

import java.util.ArrayList;
import java.util.List;

/**
 * How figures name runs.csv's configuration columns: exactly ({@code slot.placement},
 * {@code policies.placement.fast_percent}), by slot ({@code placement}), or by the last part of a swept
 * path when that is unique ({@code fast_percent}).
 */
public final class Columns {
    private Columns() {}

    /** The column {@code name} means, or null. */
    static String resolve(Results r, String name) {
        List<String> cols = r.configColumns();
        if (cols.contains(name)) return name;
        if (cols.contains("slot." + name)) return "slot." + name;
        if (name.equals("policy") || name.equals("config")) return null;
        List<String> tail = new ArrayList<>();
        for (String c : cols) if (c.endsWith("." + name)) tail.add(c);
        return tail.size() == 1 ? tail.get(0) : null;
    }

    /** The value among the column's values that {@code given} means: exact, numerically equal, or by policy name. */
    static String match(Results r, String column, String given) { return match(r.values(column), given); }

    /**
     * The value among {@code values} (a column's, in run order) that {@code given} means, or null; a study's
     * validation uses it on the values its runs will write, so a figure that names no run fails before any runs.
     */
    public static String match(List<String> values, String given) {
        if (values.contains(given)) return given;
        double g = Numbers.leading(given);
        for (String v : values) if (!Double.isNaN(g) && v.equals(given.trim())) return v;
        // the same number in another spelling (40GB/s and 40 GB/s, 2 and 2.0)
        for (String v : values) if (!Double.isNaN(g) && Numbers.leading(v) == g && Numbers.unit(v).equals(Numbers.unit(given))) return v;
        for (String v : values) if (!Double.isNaN(g) && Numbers.sameQuantity(v, given)) return v; // 80GB/s for a run's 80000MB/s
        List<String> byName = new ArrayList<>();
        for (String v : values) if (v.startsWith(given + "(") || v.startsWith(given + "@")) byName.add(v);
        return byName.size() == 1 ? byName.get(0) : null;
    }

    /** How a value is shown in a legend: a slot's policy as is, a swept value as {@code name=value}. */
    static String label(String column, String value) {
        if (column.startsWith("slot.") || column.equals("workload") || column.equals("machine")) return value;
        if (column.equals("seed")) return "seed=" + value;
        int dot = column.lastIndexOf('.');
        return column.substring(dot + 1) + "=" + value;
    }

    /**
     * As {@link #label(String, String)}, but a swept column whose last part another of {@code among}
     * shares ({@code policies.residency.mode} beside {@code policies.throttling.mode}) is named by its
     * last two parts: {@code residency.mode=on}.
     */
    static String label(String column, String value, List<String> among) {
        if (column.startsWith("slot.") || column.equals("workload") || column.equals("machine") || column.equals("seed")) return label(column, value);
        return shortName(column, among) + "=" + value;
    }

    /** As {@link #shortName(String)}, long enough to tell the column from the others of {@code among}. */
    static String shortName(String column, List<String> among) {
        String s = shortName(column);
        if (column.startsWith("slot.")) return s;
        for (String o : among)
            if (!o.equals(column) && !o.startsWith("slot.") && shortName(o).equals(s)) {
                String[] parts = column.split("\\.");
                return parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : column;
            }
        return s;
    }

    /** A short name of a column for titles: {@code placement}, {@code fast_percent}. */
    static String shortName(String column) {
        if (column.startsWith("slot.")) return column.substring(5);
        int dot = column.lastIndexOf('.');
        return column.substring(dot + 1);
    }

    /** Whether a column value can be a line figure's x: a number, possibly with a unit ({@code 40GB/s}). */
    public static boolean numeric(String value) { return !Double.isNaN(Numbers.leading(value)); }

    /**
     * Whether a figure's {@code runs:} entry names run {@code id}: as written ("0002"), or as a number (an unquoted 0002 is
     * the YAML number 2). One rule for the study's validation and the report.
     */
    public static boolean namesRun(String want, String id) {
        if (want.equals(id)) return true;
        double w = Numbers.parse(want);
        return !Double.isNaN(w) && Numbers.parse(id) == w;
    }
}
