package org.hmsim.platform.kernel.study;

import java.util.LinkedHashMap;
import java.util.Map;
import org.yaml.snakeyaml.nodes.Node;

/**
 * A policy as a study writes it ({@code ratio}, {@code {name: ratio, fast_percent: 70}}), before it is
 * resolved against the registry. Nodes and field names are kept to locate errors.
 *
 * @param nameNode the node of the name, null for a slot's default
 * @param paramFields the dotted field of each parameter ({@code policies.placement.fast_percent}, or
 *                    {@code sweep.policies.placement.fast_percent} for a swept one)
 * @param field the dotted field of this spec ({@code policies.placement.sweep[1]})
 */
record PolicySpec(String name, Node nameNode, Map<String, Object> params, Map<String, Node> paramNodes,
                  Map<String, String> paramFields, String field) {

    /** This spec with one more parameter (a swept one), located at the sweep value. */
    PolicySpec with(String param, Object value, Node node, String paramField) {
        Map<String, Object> p = new LinkedHashMap<>(params);
        Map<String, Node> n = new LinkedHashMap<>(paramNodes);
        Map<String, String> f = new LinkedHashMap<>(paramFields);
        p.put(param, value);
        n.put(param, node);
        f.put(param, paramField);
        return new PolicySpec(name, nameNode, p, n, f, field);
    }
}
