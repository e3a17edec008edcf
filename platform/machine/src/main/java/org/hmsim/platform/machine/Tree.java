package org.hmsim.platform.machine;

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
 */
final class Tree {
    private final String path;
    private final Map<String, Object> map;
    private final Set<String> read = new java.util.HashSet<>();

    Tree(String path, Object node) {
        this.path = path;
        if (node == null) this.map = Map.of();
        else if (node instanceof Map<?, ?> m) {
            Map<String, Object> copy = new LinkedHashMap<>();
            m.forEach((k, v) -> copy.put(String.valueOf(k), v));
            this.map = copy;
        } else throw new ConfigException(path, "expected a map of fields, found '" + node + "'");
    }

    String child(String key) { return path.isEmpty() ? key : path + "." + key; }

    boolean has(String key) { return map.containsKey(key); }

    Object raw(String key) {
        read.add(key);
        return map.get(key);
    }

    Tree tree(String key) { return new Tree(child(key), raw(key)); }

    List<Tree> list(String key) {
        Object v = raw(key);
        List<Tree> out = new ArrayList<>();
        if (v == null) return out;
        if (!(v instanceof List<?> l)) throw new ConfigException(child(key), "expected a list");
        for (int i = 0; i < l.size(); i++) out.add(new Tree(child(key) + "." + i, l.get(i)));
        return out;
    }

    String string(String key, String def) {
        Object v = raw(key);
        return v == null ? def : v.toString();
    }

    String requiredString(String key) {
        Object v = raw(key);
        if (v == null) throw new ConfigException(child(key), "is required");
        return v.toString();
    }

    int integer(String key, int def, int min, int max) {
        Object v = raw(key);
        if (v == null) return def;
        long l;
        if (v instanceof Number n && !(v instanceof Double) && !(v instanceof Float)) l = n.longValue();
        else {
            try {
                l = Long.parseLong(v.toString().trim());
            } catch (NumberFormatException e) {
                throw new ConfigException(child(key), "'" + v + "' is not a whole number");
            }
        }
        if (l < min || l > max) throw new ConfigException(child(key), "value " + l + " is out of range [" + min + ", " + max + "]");
        return (int) l;
    }

    double real(String key, double def, double min, double max) {
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
        if (d < min || d > max) throw new ConfigException(child(key), "value " + d + " is out of range [" + min + ", " + max + "]");
        return d;
    }

    long bytes(String key, long def, long min, long max) {
        Object v = raw(key);
        if (v == null) return def;
        long b;
        try {
            b = v instanceof Number n ? n.longValue() : Units.bytes(v.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
        if (b < min || b > max) throw new ConfigException(child(key), "value " + v + " is out of range [" + min + ", " + max + "] bytes");
        return b;
    }

    double bandwidth(String key, double def) {
        Object v = raw(key);
        if (v == null) return def;
        double b;
        try {
            b = v instanceof Number n ? n.doubleValue() : Units.bytesPerSecond(v.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
        if (!(b > 0)) throw new ConfigException(child(key), "bandwidth must be > 0");
        return b;
    }

    double megahertz(String key, double def) {
        Object v = raw(key);
        if (v == null) return def;
        double f;
        try {
            f = v instanceof Number n ? n.doubleValue() : Units.megahertz(v.toString());
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
        if (!(f > 0) || f > 100_000) throw new ConfigException(child(key), "frequency " + v + " is out of range (0, 100GHz]");
        return f;
    }

    long picoseconds(String key, long def) {
        Object v = raw(key);
        if (v == null) return def;
        try {
            long ps = v instanceof Number n ? n.longValue() : Units.picoseconds(v.toString());
            if (ps < 0) throw new ConfigException(child(key), "time must be >= 0");
            return ps;
        } catch (IllegalArgumentException e) {
            throw new ConfigException(child(key), e.getMessage());
        }
    }

    boolean bool(String key, boolean def) {
        Object v = raw(key);
        if (v == null) return def;
        if (v instanceof Boolean b) return b;
        throw new ConfigException(child(key), "'" + v + "' is not true or false");
    }

    /** Rejects fields that were never read: they are misspellings or belong elsewhere. */
    void finish() {
        for (String k : map.keySet()) {
            if (!read.contains(k)) throw new ConfigException(child(k), "unknown field (known here: " + String.join(", ", new java.util.TreeSet<>(read)) + ")");
        }
    }
}
