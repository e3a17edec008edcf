package org.hmsim.baseline.placement;

import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.PlacementPolicy;

/**
 * LOCAL (seed 000 §2.1, 0C-100B for a GPU process): every page in the pool attached to the node that
 * touched it first — the GPU's local memory, or the CPU's pool for a CPU touch.
 */
final class LocalPlacement implements PlacementPolicy {
    private final MachineView machine;
    private int cpuPool = -1;

    LocalPlacement(MachineView machine) { this.machine = machine; }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (gpu >= 0) return machine.localPool(gpu);
        if (cpuPool < 0) cpuPool = Pools.cpuPool(machine);
        return cpuPool;
    }
}
