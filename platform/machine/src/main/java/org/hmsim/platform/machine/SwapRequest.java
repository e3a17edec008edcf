package org.hmsim.platform.machine;

import java.util.Map;
import org.hmsim.api.policy.Slot;

/**
 * A live swap asked for (DESIGN §6): the slot, the new policy as {@code name} or {@code name@version}
 * (resolved when the swap is carried out, so a bundle updated in between gives its new version), its
 * parameters, and what caused it ({@code script}, {@code shell}, {@code bundle}, {@code replay}).
 */
public record SwapRequest(Slot slot, String policy, Map<String, Object> params, String cause) {
    public SwapRequest {
        params = Map.copyOf(params);
    }

    /**
     * The policy as results show it: a swap the kernel asks for itself names its policy with a directive
     * ({@code @same-or-default:cache-all}, {@code @highest-ranked:lru}), which swaps.csv shows as the policy name.
     */
    public String policyShown() {
        if (!policy.startsWith("@")) return policy;
        int colon = policy.indexOf(':');
        return colon < 0 || colon == policy.length() - 1 ? policy : policy.substring(colon + 1);
    }
}
