package org.hmsim.platform.report;

import java.util.Locale;

/** Parsing and showing numbers, independent of locale. */
final class Numbers {
    private Numbers() {}

    /** A cell as a number; NaN when empty or not a number. */
    static double parse(String s) {
        if (s == null || s.isBlank()) return Double.NaN;
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** The leading number of a value written with a unit ({@code 40GB/s} gives 40); NaN if it has none. */
    static double leading(String s) {
        if (s == null) return Double.NaN;
        String t = s.trim();
        int end = 0;
        while (end < t.length() && "+-0123456789.eE".indexOf(t.charAt(end)) >= 0) {
            // An 'e' is only part of the number when a digit or sign follows (10e3), not in "10eps".
            if ((t.charAt(end) == 'e' || t.charAt(end) == 'E') && (end + 1 >= t.length() || "+-0123456789".indexOf(t.charAt(end + 1)) < 0)) break;
            end++;
        }
        return end == 0 ? Double.NaN : parse(t.substring(0, end));
    }

    /** The unit that follows the leading number ({@code GB/s}); "" if none. */
    static String unit(String s) {
        if (s == null) return "";
        String t = s.trim();
        int end = 0;
        while (end < t.length() && "+-0123456789.".indexOf(t.charAt(end)) >= 0) end++;
        return t.substring(end).trim();
    }

    /**
     * Units a swept machine value may be written in, by family, as multiples of the family's base (machine-files.md:
     * sizes binary, bandwidths decimal with bits as eighths of bytes, frequencies, durations).
     */
    private static final java.util.Map<String, double[]> UNITS = units();

    private static java.util.Map<String, double[]> units() {
        java.util.Map<String, double[]> u = new java.util.HashMap<>();
        String[][] families = {
            {"size", "B:1", "K:1024", "KB:1024", "KiB:1024", "M:1048576", "MB:1048576", "MiB:1048576", "G:1073741824", "GB:1073741824",
                "GiB:1073741824", "T:1099511627776", "TB:1099511627776", "TiB:1099511627776"},
            {"bandwidth", "B/s:1", "KB/s:1e3", "MB/s:1e6", "GB/s:1e9", "TB/s:1e12", "b/s:0.125", "Kb/s:125", "Mb/s:1.25e5", "Gb/s:1.25e8", "Tb/s:1.25e11"},
            {"frequency", "Hz:1", "kHz:1e3", "KHz:1e3", "MHz:1e6", "GHz:1e9"},
            {"time", "ps:1", "ns:1e3", "us:1e6", "ms:1e9", "s:1e12"}};
        for (int f = 0; f < families.length; f++)
            for (int i = 1; i < families[f].length; i++) {
                String[] kv = families[f][i].split(":");
                u.put(kv[0], new double[] {f, Double.parseDouble(kv[1])});
            }
        return u;
    }

    /**
     * {@code value} in the unit of {@code like}: 80000MB/s beside 40GB/s is 80 (a trial's sweep drew it at 80000 on a
     * GB/s axis); its leading number where either unit is not one of a machine file's, or the two are of other kinds.
     */
    static double inUnitOf(String value, String like) {
        double[] a = UNITS.get(unit(value)), b = UNITS.get(unit(like));
        double v = leading(value);
        return a == null || b == null || a[0] != b[0] ? v : v * a[1] / b[1];
    }

    /** Whether two values with units are the same quantity (40GB/s and 40000MB/s); false where either has no known unit. */
    static boolean sameQuantity(String a, String b) {
        double[] ua = UNITS.get(unit(a)), ub = UNITS.get(unit(b));
        if (ua == null || ub == null || ua[0] != ub[0]) return false;
        double x = leading(a) * ua[1], y = leading(b) * ub[1];
        return Math.abs(x - y) <= 1e-9 * Math.max(Math.abs(x), Math.abs(y));
    }

    /** A value for tables: 4 significant digits, plain notation for ordinary magnitudes. */
    static String show(double v) {
        if (Double.isNaN(v)) return "";
        if (Double.isInfinite(v)) return v > 0 ? "inf" : "-inf";
        if (v == Math.rint(v) && Math.abs(v) < 1e12) return Long.toString((long) v);
        double a = Math.abs(v);
        if (a >= 1e-3 && a < 1e9) {
            String s = String.format(Locale.ROOT, "%.4g", v);
            if (s.contains("e") || s.contains("E")) return s;
            if (s.contains(".")) s = s.replaceAll("0+$", "").replaceAll("\\.$", "");
            return s;
        }
        return String.format(Locale.ROOT, "%.3e", v);
    }

    /** A relative change as a percentage with a sign: +3.10 %. */
    static String percent(double rel) {
        if (Double.isNaN(rel)) return "";
        if (Double.isInfinite(rel)) return rel > 0 ? "+inf" : "-inf";
        return String.format(Locale.ROOT, "%+.2f %%", rel * 100);
    }
}
