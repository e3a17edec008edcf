package org.hmsim.api.policy;

import java.util.Map;

/**
 * The common part of every slot's policy. A policy instance belongs to one simulation and is called
 * from that simulation's thread only.
 *
 * <p>State handed from an old policy to a new one at a live swap passes as plain data (maps of
 * strings, numbers, lists and {@code long[]}): never as objects of a bundle's own classes, so that no
 * class loader outlives its bundle.
 */
public interface Policy {

    /** State a successor in the same slot may import; empty if nothing is worth handing over. */
    default Map<String, Object> exportState() { return Map.of(); }

    /** Takes over state exported by a predecessor (possibly from another bundle). */
    default void importState(Map<String, Object> state) {}

    /** Called once when the simulation ends or the policy is swapped out. */
    default void close() {}
}
