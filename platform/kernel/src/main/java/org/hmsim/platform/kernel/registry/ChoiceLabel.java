package org.hmsim.platform.kernel.registry;

import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;

/** The label of a policy or workload choice: {@code ratio(fast_percent=70)}, the given parameters in declaration order. */
final class ChoiceLabel {
    private ChoiceLabel() {}

    static String of(String name, List<ParamSpec> parameters, Map<String, Object> given, Params params) {
        if (given.isEmpty()) return name;
        StringJoiner j = new StringJoiner(",", name + "(", ")");
        for (ParamSpec p : parameters)
            if (given.containsKey(p.name())) j.add(p.name() + "=" + shown(p, given.get(p.name()), params));
        return j.toString();
    }

    /**
     * As written, except a whole-number parameter written as a float ({@code elements: 1e3}, which YAML reads as
     * 1000.0): its value, so the label says 1000 as it would for {@code elements: 1000}.
     */
    private static Object shown(ParamSpec p, Object raw, Params params) {
        if (!(raw instanceof Double || raw instanceof Float)) return raw;
        return switch (p.type()) {
            case INT, LONG, SIZE, TIME -> params.getLong(p.name());
            default -> raw;
        };
    }
}
