package org.hmsim.api.policy;

import org.hmsim.api.os.Allocation;

/**
 * Chooses the pool of a page when it is first touched (the OS's physical page allocation). If the chosen
 * pool is full the memory manager spills the page to another pool with free frames (the OS "has no
 * choice", seed 000 §4.2), so a policy need not check capacity unless it wants to.
 */
public interface PlacementPolicy extends Policy {

    /**
     * @param vpn the virtual page being mapped
     * @param allocation the allocation that holds it (its hint, its name)
     * @param gpu the GPU whose access touched it first, or -1 for a CPU touch
     * @return the index of the preferred pool
     */
    int choosePool(long vpn, Allocation allocation, int gpu);
}
