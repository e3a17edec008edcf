package org.hmsim.platform.machine;

import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.stats.Stats;

/** The context one policy of one simulation is created with. */
final class SimPolicyContext implements PolicyContext {
    private final MachineView machine;
    private final MemoryManager memory;
    private final Stats stats;
    private final long seed;
    private final String runId;
    private final Slot slot;

    SimPolicyContext(MachineView machine, MemoryManager memory, Stats rootStats, long seed, String runId, Slot slot) {
        this.machine = machine;
        this.memory = memory;
        this.stats = rootStats.scope("policy").scope(slot.id());
        this.seed = seed;
        this.runId = runId;
        this.slot = slot;
    }

    @Override
    public MachineView machine() { return machine; }

    @Override
    public MemoryManager memory() { return memory; }

    @Override
    public Stats stats() { return stats; }

    @Override
    public RandomGenerator random(String stream) { return SeedStreams.stream(seed, "policy." + slot.id() + "." + stream); }

    @Override
    public String runId() { return runId; }

    @Override
    public long epochPs() { return machine instanceof Machine m ? m.epochPs : 0; }
}
