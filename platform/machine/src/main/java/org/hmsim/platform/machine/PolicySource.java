package org.hmsim.platform.machine;

import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;

/**
 * Where a simulation gets the policy of each slot once its machine is assembled. The kernel's policy
 * registry implements it (one {@code provider.create} per slot per simulation); tests pass providers
 * directly.
 */
public interface PolicySource {
    Policy create(Slot slot, PolicyContext context);

    /** {@code name@version} of the policy this source will create for the slot (for results). */
    String describe(Slot slot);

    /**
     * The policy with its parameters as swaps.csv and a failed run's context write it, {@code chunk@1.0.0(steal=true)}: what
     * an error about the policy names (a failure naming only "the CTA scheduler" left the reader to guess which).
     */
    default String label(Slot slot) { return describe(slot); }
}
