package org.hmsim.api.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validated parameter values of one policy or workload instance: every declared parameter is present
 * (given or defaulted) and of its declared type.
 */
public final class Params {
    private final Map<String, Object> values;
    private final java.util.Set<String> given;

    private Params(Map<String, Object> values, java.util.Set<String> given) {
        this.values = Collections.unmodifiableMap(values);
        this.given = java.util.Set.copyOf(given);
    }

    /**
     * Checks {@code given} against {@code specs}: unknown names, wrong types and out-of-range values are
     * {@link IllegalArgumentException}s naming the parameter; missing ones take their defaults.
     */
    public static Params validate(List<ParamSpec> specs, Map<String, ?> given) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (String k : given.keySet()) {
            if (specs.stream().noneMatch(s -> s.name().equals(k))) {
                List<String> known = specs.stream().map(ParamSpec::name).toList();
                throw new IllegalArgumentException("unknown parameter '" + k + "'" + (known.isEmpty() ? " (this takes no parameters)" : " (known: " + String.join(", ", known) + ")"));
            }
        }
        for (ParamSpec s : specs) {
            Object raw = given.containsKey(s.name()) ? given.get(s.name()) : s.defaultValue();
            out.put(s.name(), s.coerce(raw));
        }
        return new Params(out, given.keySet());
    }

    public static Params empty() { return new Params(new LinkedHashMap<>(), java.util.Set.of()); }

    /**
     * Whether the study (or swap) gave parameter {@code name}, rather than leaving it at its default: a provider's check
     * refuses a parameter given where another one makes it act on nothing ({@code gpu_fault} without {@code read_only}).
     * Since api.policy 1.18.0.
     */
    public boolean given(String name) { return given.contains(name); }

    /**
     * Refuses {@code name}, given while {@code needed} is false: it would act on nothing and the run be labelled with it.
     * Since api.policy 1.18.0.
     */
    public void refuseUnless(String name, boolean needed, String why) {
        if (given(name) && !needed) throw new IllegalArgumentException("parameter '" + name + "' " + why + ": given here it would act on nothing");
    }

    public Map<String, Object> asMap() { return values; }

    public int getInt(String name) { return ((Number) get(name)).intValue(); }

    public long getLong(String name) { return ((Number) get(name)).longValue(); }

    /**
     * A size or count that must be a power of two of at least {@code min} (an interleave's granularity); throws
     * {@link IllegalArgumentException} naming the parameter otherwise. Since api.policy 1.7.0.
     */
    public long getPowerOfTwo(String name, long min) {
        long v = getLong(name);
        if (v < min || Long.bitCount(v) != 1) throw new IllegalArgumentException("parameter '" + name + "' = " + v + " must be a power of two >= " + min);
        return v;
    }

    public double getDouble(String name) { return ((Number) get(name)).doubleValue(); }

    public boolean getBoolean(String name) { return (Boolean) get(name); }

    public String getString(String name) { return get(name).toString(); }

    private Object get(String name) {
        Object v = values.get(name);
        if (v == null) throw new IllegalArgumentException("no parameter '" + name + "'");
        return v;
    }

    @Override
    public String toString() { return values.toString(); }
}
