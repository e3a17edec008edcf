package org.hmsim.api.machine;

import org.hmsim.api.stats.Stats;

/**
 * A part of the machine that owns its queues and limits: an SM, a cache, a crossbar, a memory
 * controller, a link, a TLB, a directory, a CPU core. Components exchange
 * {@link org.hmsim.api.mem.MemRequest}s through {@link org.hmsim.api.mem.MemSink} ports.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Component {
    /** Hierarchical name, e.g. {@code gpu0.sm3.l1}. */
    String name();

    /** Publishes this component's statistics; called once when the machine is assembled. */
    default void registerStats(Stats stats) {}

    /** Requests this component holds that have not been answered yet (zero when drained). */
    default int inFlight() { return 0; }
}
