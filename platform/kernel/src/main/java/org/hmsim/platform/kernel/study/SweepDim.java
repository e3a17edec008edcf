package org.hmsim.platform.kernel.study;

import java.util.List;
import org.hmsim.api.policy.Slot;
import org.yaml.snakeyaml.nodes.Node;

/** One dimension of a study's cartesian product of sweeps. */
sealed interface SweepDim {
    /** The key as written ({@code pools.ddr.bandwidth}, {@code policies.placement.fast_percent}). */
    String key();

    int size();

    /** How point {@code i} of this dimension is shown in labels and in runs.csv. */
    String text(int i);

    /** Whether this dimension has its own runs.csv column (a policy choice shows in its slot column). */
    default boolean hasColumn() { return true; }

    /** A machine value at a dotted path. */
    record Machine(String key, List<Object> values, List<Node> nodes) implements SweepDim {
        public int size() { return values.size(); }

        public String text(int i) { return YamlDoc.text(nodes.get(i)); }
    }

    /** A parameter of the policy of a slot. */
    record PolicyParam(String key, Slot slot, String param, List<Object> values, List<Node> nodes) implements SweepDim {
        public int size() { return values.size(); }

        public String text(int i) { return YamlDoc.text(nodes.get(i)); }
    }

    /**
     * A parameter of every workload of the study ({@code workloads.stride: [1, 8, 32]}): its own runs.csv column, so a line
     * figure can draw over it, while the workload column keeps the workload as its entry names it.
     */
    record WorkloadParam(String key, String param, List<Object> values, List<Node> nodes) implements SweepDim {
        public int size() { return values.size(); }

        public String text(int i) { return YamlDoc.text(nodes.get(i)); }
    }

    /** The policy of a slot ({@code placement: {sweep: [local, interleave]}}). */
    record PolicyChoice(String key, Slot slot, List<PolicySpec> specs) implements SweepDim {
        public int size() { return specs.size(); }

        public String text(int i) {
            PolicySpec s = specs.get(i);
            if (s.params().isEmpty()) return s.name();
            StringBuilder b = new StringBuilder(s.name()).append('(');
            s.paramNodes().forEach((k, n) -> b.append(b.charAt(b.length() - 1) == '(' ? "" : ",").append(k).append('=').append(YamlDoc.text(n)));
            return b.append(')').toString();
        }

        public boolean hasColumn() { return false; }
    }
}
