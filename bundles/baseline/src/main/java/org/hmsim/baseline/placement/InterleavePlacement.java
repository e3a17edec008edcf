package org.hmsim.baseline.placement;

import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.PlacementPolicy;

/**
 * INTERLEAVE (seed 000 §2.1, 50C-50B for two pools): pages round-robin over the pools by virtual page
 * number ({@code pools[vpn mod n]}), so the split does not depend on the order pages are touched —
 * like Linux's per-VMA {@code MPOL_INTERLEAVE}. The pool list is resolved at the first fault.
 */
final class InterleavePlacement implements PlacementPolicy {
    private final MachineView machine;
    private final String spec;
    private int[] pools;

    InterleavePlacement(MachineView machine, String spec) {
        this.machine = machine;
        this.spec = spec;
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (pools == null) pools = Pools.select(spec, machine.pools());
        return pools[(int) Math.floorMod(vpn, (long) pools.length)];
    }
}
