package org.hmsim.platform.kernel.registry;

import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;

/**
 * A validated choice of policy for one slot: the installed entry, its full parameter values (given or
 * defaulted), the parameters the study gave explicitly (for labels such as {@code ratio(fast_percent=70)}), and
 * whether the study named its version ({@code prefix@1.0.2}).
 */
public record PolicyChoice(Slot slot, PolicyEntry entry, Params params, Map<String, Object> given, boolean versioned) {

    public PolicyChoice {
        given = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(given));
    }

    public PolicyChoice(Slot slot, PolicyEntry entry, Params params, Map<String, Object> given) { this(slot, entry, params, given, false); }

    /**
     * The name (with its version where the study named one) and the explicitly given parameters in declaration order:
     * {@code ratio(fast_percent=70)}, {@code prefix@1.0.2(fast_percent=30)}. Without the version, a study comparing two
     * versions of a plugin put both under one label, and a figure averaged them into one bar (a placement trial).
     */
    public String label() { return ChoiceLabel.of(versioned ? entry.id() : entry.name(), entry.parameters(), given, params); }

    /** The same choice, its label naming the version. */
    public PolicyChoice withVersionShown() { return new PolicyChoice(slot, entry, params, given, true); }
}
