package org.hmsim.api.os;

/**
 * A program's hint about where an allocation should live (seed 000 §4.4: {@code cudaMalloc(ptr, size,
 * hint)}): BO = the bandwidth-optimised pool, CO = the capacity-optimised pool, BW = spread by bandwidth.
 * NONE leaves the choice to the placement policy.
 */
public enum AllocationHint { NONE, BO, CO, BW }
