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
    private final HostTouchOrder hostOrder; // null = GPU touch order
    private final HostTouchOrder.Choice draw = this::draw;

    BwAwarePlacement(MachineView machine, String overrides, int percentStep, RandomGenerator random, HostTouchOrder hostOrder) {
        this.hostOrder = hostOrder;
        this.machine = machine;
        this.overrides = overrides;
        this.percentStep = percentStep;
        this.random = random;
    }

    private int draw(long vpn, Allocation allocation) { return bandwidths.draw(random); }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (bandwidths == null) bandwidths = new Bandwidths(machine, overrides, percentStep);
        if (hostOrder != null) hostOrder.catchUp(vpn, allocation, draw);
        return bandwidths.draw(random);
    }
}
