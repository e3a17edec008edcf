package org.hmsim.platform.machine;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.hmsim.api.engine.Units;

/**
 * Typed, path-aware reading of one map of a description tree. Every error is a {@link ConfigException}
 * naming the dotted path of the field; keys nobody asked for are reported by {@link #finish()}, so a
 * misspelt field is an error rather than a silently ignored line.
 *
 * <p>A bad field does not stop the reading: its error is kept ({@link #takeDeferred}) and the read gives the field's
 * default, so one round reports every bad field of a section, not the first (until 2026-11-29 a user fixing a file
 * met its errors one at a time). Only a structure that cannot be read on (a list or map where the other is expected)
 * throws at once.
 */
final class Tree {
    private final String path;
    private final Map<String, Object> map;
    /** The bad fields found so far, shared by every tree read from the same root. */
    private final List<ConfigException> deferred;
    private final Set<String> read = new java.util.HashSet<>();
    /** Fields asked about with {@link #has} as well as read: what {@link #finish} lists as known. */
    private final Set<String> known = new java.util.TreeSet<>();

    Tree(String path, Object node) { this(path, node, new ArrayList<>()); }

    private Tree(String path, Object node, List<ConfigException> deferred) {
        this.path = path;
        this.deferred = deferred;
        if (node == null) this.map = Map.of();
        else if (node instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put(String.valueOf(k), v));
            this.map = copy;
        } else throw new ConfigException(path, "expected a map of fields, found '" + node + "'");
    }

    String child(String key) { return path.isEmpty() ? key : path + "." + key; }

    boolean has(String key) {
        known.add(key);
        return map.containsKey(key);
    }

    Object raw(String key) {
        read.add(key);
        known.add(key);
        return map.get(key);
    }

    /**
     * Group {@code key}; one that is not a map of fields (a CPU-side trial's {@code l1: 32KB}) is a bad field like any:
     * kept for the round's report and read as empty (its fields' defaults), so the section's other errors are said too.
     */
    Tree tree(String key) {
        Object v = raw(key);
        if (v == null || v instanceof Map<?, ?>) return new Tree(child(key), v, deferred);
        deferred.add(new ConfigException(child(key), "expected a map of fields, found '" + v + "'"));
        return new Tree(child(key), null, deferred);
    }

    /** The bad fields found since the last call (in the order read), and forgets them. */
    List<ConfigException> takeDeferred() {
        List<ConfigException> out = List.copyOf(deferred);
        deferred.clear();
        return out;
    }

    /**
     * Field {@code key} is bad for a reason only its reader knows (a word it does not take, a size that is no power of
     * two): kept for the round's report like any bad field; the reader goes on with the field's default.
     */
    void refuse(String key, String message) { deferred.add(new ConfigException(child(key), message)); }

    /** A field hmsim does not model (no longer, or not here): refused with {@code why} if given, and left out of the known ones. */
    void refuseIfGiven(String key, String why) {
        if (!map.containsKey(key)) return;
        read.add(key);
        refuse(key, why);
    }

    /** A field's value, or its default when it is bad (the error kept for the round's report). */
    private <T> T orDefault(T def, java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (ConfigException e) {
            deferred.add(e);
            return def;
        }
    }

    List<Tree> list(String key) {
        Object v = raw(key);
        List<Tree> out = new ArrayList<>();
        if (v == null) return out;
        if (!(v instanceof List<?> l)) throw new ConfigException(child(key), "expected a list");
        for (int i = 0; i < l.size(); i++) out.add(new Tree(child(key) + "." + i, l.get(i), deferred));
        return out;
    }

    String string(String key, String def) {
        Object v = raw(key);
        return v == null ? def : v.toString();
    }

    int integer(String key, int def, int min, int max) { return orDefault(def, () -> integerNow(key, def, min, max)); }

    private int integerNow(String key, int def, int min, int max) {
        Object v = raw(key);
        if (v == null) return def;
        BigInteger w = whole(v);
        if (w == null) throw new ConfigException(child(key), "'" + v + "' is not a whole number" + unitHint(v));
        if (!fits(w, min, max)) throw new ConfigException(child(key), "value " + v + " is out of range [" + min + ", " + max + "]");
        return w.intValue();
    }

    /**
     * For a count written with a unit (l2.latency: 120ns, a newcomer's trial): these fields are counts, most of them
     * cycles of their part's clock, and say so where docs/machine-files.md lists them.
     */
    private static String unitHint(Object v) {
        return v.toString().matches("\\s*[-+]?[0-9.]+(e[-+]?[0-9]+)?\\s*[a-zA-Z/]+\\s*")
                ? ": this field is a count without a unit (a latency here is in cycles of its part's clock; docs/machine-files.md gives each field's unit)"
                : "";
    }

    double real(String key, double def, double min, double max) { return orDefault(def, () -> realNow(key, def, min, max)); }

    private double realNow(String key, double def, double min, double max) {
        Object v = raw(key);
        if (v == null) return def;
        double d;
        if (v instanceof Number n) d = n.doubleValue();
        else {
            try {
                d = Double.parseDouble(v.toString().trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(child(key), "'" + v + "' is not a number");
            }
        }
        // NaN fails both comparisons below, so it is refused here
        if (Double.isNaN(d)) throw new ConfigException(child(key), "'" + v + "' is not a number");
        if (d < min || d > max) throw new ConfigException(child(key), "value " + d + " is out of range [" + min + ", " + max + "]");
        return d;
    }

    long bytes(String key, long def, long min, long max) { return orDefault(def, () -> bytesNow(key, def, min, max)); }

    private long bytesNow(String key, long def, long min, long max) {
        Object v = raw(key);
        if (v == null) return def;
        BigInteger b;
        try {
            if (!(v instanceof Number n)) b = BigInteger.valueOf(Units.bytes(v.toString()));
            else if ((b = whole(v)) == null) {
                double d = n.doubleValue(); // a float number of bytes is truncated
                if (!Double.isFinite(d)) throw new ConfigException(child(key), "'" + v + "' is not a size");
                b = new BigDecimal(d).toBigInteger();
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
        if (!fits(b, min, max)) throw new ConfigException(child(key), "value " + v + " is out of range [" + min + ", " + max + "] bytes");
        return b.longValue();
    }

    /**
     * Bandwidths feed time arithmetic (ps per byte = 10^12 / bandwidth), so they are bounded: a tiny
     * one makes a transfer's time overflow the simulated clock (1e-30GB/s made it run backwards), and no
     * real link or memory is below 1 MB/s; above 10^6 TB/s a line already moves in far under a picosecond.
     */
    static final double MIN_BANDWIDTH = 1e6, MAX_BANDWIDTH = 1e18;

    double bandwidth(String key, double def) { return orDefault(def, () -> bandwidthNow(key, def)); }

    private double bandwidthNow(String key, double def) {
        Object v = raw(key);
        if (v == null) return def;
        double b;
        try {
            b = v instanceof Number n ? n.doubleValue() : Units.bytesPerSecond(v.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
        if (!(b >= MIN_BANDWIDTH && b <= MAX_BANDWIDTH))
            throw new ConfigException(child(key), "bandwidth " + v + " is out of range [1MB/s, 1000000TB/s]"
                    + (v instanceof Number ? " (a plain number is bytes per second: write it with a unit, e.g. 16GB/s)" : ""));
        return b;
    }

    /** Clock periods are whole picoseconds and cycle counts are multiplied by them, so clocks are bounded too. */
    double megahertz(String key, double def) { return orDefault(def, () -> megahertzNow(key, def)); }

    private double megahertzNow(String key, double def) {
        Object v = raw(key);
        if (v == null) return def;
        double f;
        try {
            f = v instanceof Number n ? n.doubleValue() : Units.megahertz(v.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
        if (!(f >= 1) || f > 100_000) throw new ConfigException(child(key), "frequency " + v + " is out of range [1MHz, 100GHz]");
        // a bare number is MHz: gpu.clock: 1.4 ran a 1.4 MHz GPU, every result 1000x slow, with no word (a newcomer's trial)
        if (v instanceof Number && f < 10)
            throw new ConfigException(child(key), "frequency " + v + " is " + v + " MHz (a number without a unit is MHz), no real clock: give the unit, e.g. "
                    + v + "GHz or " + v + "MHz");
        return f;
    }

    /** The longest latency or interval a machine may give: far beyond any real one, far below the clock's overflow. */
    static final long MAX_TIME_PS = 1_000_000_000_000L; // 1 s

    /**
     * A time with a unit. A bare number would be picoseconds, which nobody means when writing
     * {@code latency: 100} or {@code watchdog: 5}, so only 0 (off, none) may be written without one.
     */
    long picoseconds(String key, long def) { return orDefault(def, () -> picosecondsNow(key, def)); }

    private long picosecondsNow(String key, long def) {
        Object v = raw(key);
        if (v == null) return def;
        long ps;
        if (v instanceof Number n) {
            if (n.doubleValue() != 0)
                throw new ConfigException(child(key), "'" + v + "' has no unit: write the time with one (100ns, 20us, 10ms); only 0 may be written bare");
            ps = 0;
        } else {
            try {
                ps = Units.picoseconds(v.toString());
            } catch (IllegalArgumentException e) {
                throw new ConfigException(child(key), e.getMessage());
            }
        }
        if (ps > MAX_TIME_PS) throw new ConfigException(child(key), "time " + v + " is out of range [0, 1s]");
        return ps;
    }

    boolean bool(String key, boolean def) { return orDefault(def, () -> boolNow(key, def)); }

    private boolean boolNow(String key, boolean def) {
        Object v = raw(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        throw new ConfigException(child(key), "'" + v + "' is not true or false");
    }

    /** Rejects fields that were never read: they are misspellings or belong elsewhere. */
    void finish() {
        for (String k : map.keySet()) {
            if (!read.contains(k)) deferred.add(new ConfigException(child(k), "unknown field (known here: " + String.join(", ", known) + ")"));
        }
    }

    /**
     * The exact whole number a value holds, or null if it holds none (a float, or text that is no
     * integer). SnakeYAML gives a BigInteger for a number beyond 64 bits, and narrowing it would wrap
     * it to an unrelated value that may well pass the range check.
     */
    private static BigInteger whole(Object v) {
        if (v instanceof BigInteger b) return b;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) return BigInteger.valueOf(((Number) v).longValue());
        if (v instanceof Number) return null;
        try {
            return new BigInteger(v.toString().trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static boolean fits(BigInteger v, long min, long max) {
        return v.compareTo(BigInteger.valueOf(min)) >= 0 && v.compareTo(BigInteger.valueOf(max)) <= 0;
    }
}
