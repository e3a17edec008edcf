package org.hmsim.platform.kernel.results;

import java.util.List;

/**
 * RFC 4180 CSV, written by hand: commons-csv needs commons-io and commons-codec bundles at run time,
 * which the container would have to carry for a dozen lines of escaping. Lines end with {@code \n}.
 */
public final class Csv {
    private final StringBuilder out = new StringBuilder();

    public Csv row(List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            if (i > 0) out.append(',');
            out.append(escape(cells.get(i)));
        }
        out.append('\n');
        return this;
    }

    @Override
    public String toString() { return out.toString(); }

    static String escape(String s) {
        if (s == null) return "";
        boolean quote = s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0 || s.indexOf('\r') >= 0
                || (!s.isEmpty() && (s.charAt(0) == ' ' || s.charAt(s.length() - 1) == ' '));
        return quote ? '"' + s.replace("\"", "\"\"") + '"' : s;
    }

    /**
     * A number as results show it, independent of locale and thread count: whole values without a
     * fraction ({@code 1200}), others in Java's shortest round-trip form ({@code 0.8125}, {@code 1.5E-7}).
     */
    public static String number(Object v) {
        if (v == null) return "";
        if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) return Double.toString(d);
            if (d == Math.rint(d) && Math.abs(d) < 1e15) return Long.toString((long) d);
            return Double.toString(d);
        }
        return v.toString();
    }
}
