package org.hmsim.bwaware.placement;

import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.PlacementPolicy;

/**
 * BW-AWARE (seed 000 §2.2, Ch. 4): every newly touched page goes to pool i with probability
 * f_i = b_i / Σ b_j, so that N uniformly spread accesses take max(N f_B / b_B, N (1 - f_B) / b_C) time,
 * minimal when both terms are equal. No history, no counts; a full pool is the OS's business (spill).
 * Shares are resolved at the first fault, when the machine is complete.
 */
final class BwAwarePlacement implements PlacementPolicy {
    private final MachineView machine;
    private final String overrides;
    private final int percentStep;
    private final RandomGenerator random;
    private Bandwidths bandwidths;

    BwAwarePlacement(MachineView machine, String overrides, int percentStep, RandomGenerator random) {
        this.machine = machine;
        this.overrides = overrides;
        this.percentStep = percentStep;
        this.random = random;
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (bandwidths == null) bandwidths = new Bandwidths(machine, overrides, percentStep);
        return bandwidths.draw(random);
    }
}
