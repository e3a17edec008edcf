package org.hmsim.platform.kernel.registry;

import java.util.EnumMap;
import java.util.Map;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.PolicySource;

/**
 * The policies of one run: a validated choice per slot. Each {@link #create} makes a fresh instance from
 * the provider, so parallel simulations never share policy state (DESIGN §5).
 */
public final class ResolvedPolicies implements PolicySource {
    private final Map<Slot, PolicyChoice> choices;

    public ResolvedPolicies(Map<Slot, PolicyChoice> choices) {
        this.choices = new EnumMap<>(choices);
    }

    public PolicyChoice choice(Slot slot) {
        PolicyChoice c = choices.get(slot);
        if (c == null) throw new IllegalStateException("no policy chosen for slot " + slot.id());
        return c;
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) {
        PolicyChoice c = choice(slot);
        Policy p = c.entry().provider().create(context, c.params());
        if (!slot.policyType().isInstance(p))
            throw new IllegalStateException(slot.id() + " policy " + c.entry().id() + " from " + c.entry().bundle()
                    + " created " + (p == null ? "null" : p.getClass().getName()) + ", not a " + slot.policyType().getSimpleName());
        return p;
    }

    @Override
    public String describe(Slot slot) { return choice(slot).entry().id(); }

    @Override
    public String label(Slot slot) {
        PolicyChoice c = choice(slot);
        StringBuilder b = new StringBuilder();
        c.given().keySet().stream().sorted().forEach(k -> b.append(b.length() == 0 ? "" : ";").append(k).append('=').append(c.given().get(k)));
        return c.entry().id() + (b.length() == 0 ? "" : "(" + b + ")");
    }
}
