package org.hmsim.platform.kernel.registry;

import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;

/**
 * A validated choice of policy for one slot: the installed entry, its full parameter values (given or
 * defaulted), and the parameters the study gave explicitly (for labels such as {@code ratio(fast_percent=70)}).
 */
public record PolicyChoice(Slot slot, PolicyEntry entry, Params params, Map<String, Object> given) {

    public PolicyChoice {
        given = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(given));
    }

    /** The name with the explicitly given parameters in declaration order: {@code ratio(fast_percent=70)}. */
    public String label() { return ChoiceLabel.of(entry.name(), entry.parameters(), given, params); }
}
