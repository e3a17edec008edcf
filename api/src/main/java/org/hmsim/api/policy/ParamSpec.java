package org.hmsim.api.policy;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import org.hmsim.api.engine.Units;

/**
 * A documented parameter of a policy or workload: name, type, default, range and meaning. The kernel
 * checks every value a study gives against its spec before a run starts; {@link #coerce} is that check.
 *
 * @param min inclusive lower bound for numeric types (null = none)
 * @param max inclusive upper bound for numeric types (null = none)
 * @param choices the allowed values of a {@link ParamType#CHOICE}
 */
public record ParamSpec(String name, ParamType type, Object defaultValue, Double min, Double max,
                        List<String> choices, String doc) {

    public ParamSpec {
        choices = choices == null ? List.of() : List.copyOf(choices);
    }

    public static ParamSpec integer(String name, int def, int min, int max, String doc) {
        return new ParamSpec(name, ParamType.INT, def, (double) min, (double) max, null, doc);
    }

    public static ParamSpec longValue(String name, long def, long min, long max, String doc) {
        return new ParamSpec(name, ParamType.LONG, def, (double) min, (double) max, null, doc);
    }

    public static ParamSpec real(String name, double def, double min, double max, String doc) {
        return new ParamSpec(name, ParamType.DOUBLE, def, min, max, null, doc);
    }

    public static ParamSpec bool(String name, boolean def, String doc) {
        return new ParamSpec(name, ParamType.BOOLEAN, def, null, null, null, doc);
    }

    public static ParamSpec string(String name, String def, String doc) {
        return new ParamSpec(name, ParamType.STRING, def, null, null, null, doc);
    }

    public static ParamSpec choice(String name, String def, List<String> choices, String doc) {
        return new ParamSpec(name, ParamType.CHOICE, def, null, null, choices, doc);
    }

    public static ParamSpec size(String name, long defBytes, long minBytes, long maxBytes, String doc) {
        return new ParamSpec(name, ParamType.SIZE, defBytes, (double) minBytes, (double) maxBytes, null, doc);
    }

    public static ParamSpec time(String name, long defPs, long minPs, long maxPs, String doc) {
        return new ParamSpec(name, ParamType.TIME, defPs, (double) minPs, (double) maxPs, null, doc);
    }

    /**
     * Converts a value from a study file (a String, Number or Boolean) to this parameter's type and
     * checks its range. Throws {@link IllegalArgumentException} with a message that says what was
     * expected.
     */
    public Object coerce(Object raw) {
        if (raw == null) throw new IllegalArgumentException("parameter '" + name + "' has no value");
        Object v = switch (type) {
            case INT -> (int) integral(raw, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case LONG -> integral(raw, Long.MIN_VALUE, Long.MAX_VALUE);
            case DOUBLE -> real(raw);
            case BOOLEAN -> bool(raw);
            case STRING -> raw.toString();
            case CHOICE -> choice(raw);
            case SIZE -> raw instanceof Number n ? integral(n, 0, Long.MAX_VALUE) : parse(raw, Units::bytes);
            case TIME -> raw instanceof Number n ? integral(n, 0, Long.MAX_VALUE) : parse(raw, Units::picoseconds);
        };
        if (v instanceof Number n) checkRange(n.doubleValue(), raw);
        return v;
    }

    /** A one-line description: {@code name (type, default d, range [a, b]): doc}. */
    public String describe() {
        StringBuilder b = new StringBuilder(name).append(" (").append(type.name().toLowerCase(Locale.ROOT));
        b.append(", default ").append(defaultValue instanceof Number n ? shown(n.doubleValue()) : defaultValue);
        if (min != null || max != null) b.append(", range [").append(fmt(min)).append(", ").append(fmt(max)).append(']');
        if (!choices.isEmpty()) b.append(", one of ").append(String.join("|", choices));
        return b.append("): ").append(doc).toString();
    }

    private String fmt(Double d) { return d == null ? "-" : shown(d); }

    /**
     * A value as a study would write it: a time with its unit (a bare number of picoseconds is refused there), a bound
     * at the edge of 64 bits as the whole number it is (not 9.223372036854776E18).
     */
    private String shown(double d) {
        if (d != Math.rint(d) || type == ParamType.DOUBLE) return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : Double.toString(d);
        if (d >= 9.2e18) return Long.toString(Long.MAX_VALUE); // a whole-number type's 64-bit edge, not 9.223372036854776E18
        long v = (long) d;
        if (type != ParamType.TIME || v == 0) return Long.toString(v);
        String[] units = {"s", "ms", "us", "ns"};
        long[] ps = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < units.length; i++) if (v % ps[i] == 0) return v / ps[i] + units[i];
        return v + "ps";
    }

    /**
     * A whole number that fits in [lo, hi] (the type's range). SnakeYAML gives a BigInteger for a number
     * too big for 64 bits, and a narrowing cast would wrap it to an unrelated value that may well pass
     * the range check, so the comparison is made on the exact value.
     */
    private long integral(Object raw, long lo, long hi) {
        BigInteger b;
        if (raw instanceof BigInteger bi) b = bi;
        else if (raw instanceof Long || raw instanceof Integer || raw instanceof Short || raw instanceof Byte) b = BigInteger.valueOf(((Number) raw).longValue());
        else if (raw instanceof Number n) {
            double d = n.doubleValue();
            if (!Double.isFinite(d) || d != Math.rint(d)) throw wrong(raw, "a whole number");
            b = new BigDecimal(d).toBigInteger();
        } else {
            try {
                b = new BigInteger(raw.toString().trim().replace("_", ""));
            } catch (NumberFormatException e) {
                throw wrong(raw, "a whole number");
            }
        }
        if (b.compareTo(BigInteger.valueOf(lo)) < 0 || b.compareTo(BigInteger.valueOf(hi)) > 0)
            throw new IllegalArgumentException("parameter '" + name + "' = " + raw + " is out of range " + range(lo, hi));
        return b.longValue();
    }

    /** The spec's range where it is narrower than the type's [lo, hi], so a message names the bounds that apply. */
    private String range(long lo, long hi) {
        String a = min != null && min > lo ? fmt(min) : Long.toString(lo);
        String z = max != null && max < hi ? fmt(max) : Long.toString(hi);
        return "[" + a + ", " + z + "]";
    }

    private double real(Object raw) {
        double d;
        if (raw instanceof Number n) d = n.doubleValue();
        else {
            try {
                String s = raw.toString().trim();
                d = s.endsWith("%") ? Double.parseDouble(s.substring(0, s.length() - 1)) / 100.0 : Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw wrong(raw, "a number");
            }
        }
        // NaN compares false with both bounds, so it would pass any range
        if (Double.isNaN(d)) throw wrong(raw, "a number");
        return d;
    }

    private boolean bool(Object raw) {
        if (raw instanceof Boolean b) return b;
        String s = raw.toString().trim().toLowerCase(Locale.ROOT);
        // only the YAML 1.2 core booleans, as machine files take them: `yes`/`on` are text there, and took a policy's flag
        // silently (runs.csv then labelled it keep_history=yes while the docs and this message say "true or false")
        if (s.equals("true")) return true;
        if (s.equals("false")) return false;
        throw wrong(raw, "true or false");
    }

    private String choice(Object raw) {
        String s = raw.toString().trim();
        if (!choices.contains(s)) throw wrong(raw, "one of " + String.join(", ", choices));
        return s;
    }

    private long parse(Object raw, java.util.function.ToLongFunction<String> parser) {
        try {
            return parser.applyAsLong(raw.toString());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("parameter '" + name + "': " + e.getMessage());
        }
    }

    private void checkRange(double v, Object raw) {
        if ((min != null && v < min) || (max != null && v > max))
            throw new IllegalArgumentException("parameter '" + name + "' = " + raw + " is out of range [" + fmt(min) + ", " + fmt(max) + "]");
    }

    private IllegalArgumentException wrong(Object raw, String expected) {
        return new IllegalArgumentException("parameter '" + name + "' = '" + raw + "' is not " + expected);
    }
}
