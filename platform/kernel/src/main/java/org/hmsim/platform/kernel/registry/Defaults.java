package org.hmsim.platform.kernel.registry;

import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.DefaultPolicies;

/** The policy of each slot when a study names none (the baseline machine: {@link DefaultPolicies}). */
public final class Defaults {
    private Defaults() {}

    /** The default policy name of a slot. */
    public static String name(Slot slot) { return DefaultPolicies.name(slot); }
}
