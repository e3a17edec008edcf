package org.hmsim.api.policy;

import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.stats.Stats;

/** What a policy may see and use in the simulation that created it. */
@org.osgi.annotation.versioning.ProviderType
public interface PolicyContext {
    MachineView machine();

    MemoryManager memory();

    /** Statistics scoped to this policy ({@code policy.<slot>.}). */
    Stats stats();

    /**
     * A random stream for this policy, derived deterministically from the run's seed and the stream
     * name, so results do not depend on thread count or on other policies' draws.
     */
    RandomGenerator random(String stream);

    /** The run's identifier in the results folder. */
    String runId();

    /**
     * The run's statistics epoch, the period of the migration and throttling slots' {@code onEpoch} calls, in ps; 0 where
     * not known yet (in {@code create}: read it from the first callback on) or outside a run. Since api.policy 1.19.0.
     */
    default long epochPs() { return 0; }
}
