package org.hmsim.bwaware.placement;

import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.PlacementPolicy;

/**
 * CC-NUMA DDR-only (seed 000 §2.1, the Ch. 5 baseline = 1.0): every page in the CPU's memory, reached
 * by the GPU over the coherent link; with migration {@code none} nothing ever moves. (The Ch. 4 LOCAL is
 * the opposite: everything in GPU memory.)
 */
final class DdrOnlyPlacement implements PlacementPolicy {
    private final MachineView machine;
    private final String poolName;
    private int pool = -1;

    DdrOnlyPlacement(MachineView machine, String poolName) {
        this.machine = machine;
        this.poolName = poolName;
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (pool < 0) pool = poolName.isBlank() ? Bandwidths.capacityPool(machine) : Bandwidths.poolIndex(poolName, machine.pools());
        return pool;
    }
}
