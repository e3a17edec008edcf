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
