package org.hmsim.platform.machine;

import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;

/** The built-in defaults with one slot's policy a test's own object ({@code describe} calls it {@code name}). */
record OnePolicy(Slot slot, Policy policy, String name) implements PolicySource {
    private static final ClasspathPolicies DEFAULTS = new ClasspathPolicies();

    OnePolicy(Slot slot, Policy policy) { this(slot, policy, "test"); }

    @Override
    public Policy create(Slot s, PolicyContext context) { return s == slot ? policy : DEFAULTS.create(s, context); }

    @Override
    public String describe(Slot s) { return s == slot ? name : DEFAULTS.describe(s); }
}
