package org.hmsim.baseline.placement;

import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.machine.DramView;
import org.hmsim.api.machine.LinkView;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.stats.Stats;

/** A machine of {@code gpus} GPUs, each with its own pool (pool g on node g), and the given extra pools. */
final class FakeContext implements PolicyContext, MachineView {
    private final int gpus;
    private final List<PoolInfo> pools;
    private final long seed;

    FakeContext(int gpus, List<PoolInfo> pools, long seed) {
        this.gpus = gpus;
        this.pools = pools;
        this.seed = seed;
    }

    /** Seed 000 Table 4.1: GDDR5 200 GB/s on the GPU (node 0), DDR4 80 GB/s on the CPU (node 1). */
    static FakeContext agarwal(long seed) {
        return new FakeContext(1, List.of(
                new PoolInfo(0, "gddr", "GDDR5", 0, 8, 200e9, 1L << 30),
                new PoolInfo(1, "ddr", "DDR4", 1, 4, 80e9, 4L << 30)), seed);
    }

    @Override public MachineView machine() { return this; }

    @Override public MemoryManager memory() { return null; }

    @Override public Stats stats() { return null; }

    @Override public RandomGenerator random(String stream) { return new SplittableRandom(seed ^ stream.hashCode()); }

    @Override public String runId() { return "test"; }

    @Override public Engine engine() { return null; }

    @Override public ClockDomain gpuClock() { return ClockDomain.ofMHz("gpu", 1400); }

    @Override public int gpuCount() { return gpus; }

    @Override public List<? extends CoreView> sms() { return List.of(); }

    @Override public List<PoolInfo> pools() { return pools; }

    @Override public List<? extends DramView> dram() { return List.of(); }

    @Override public List<? extends LinkView> links() { return List.of(); }

    @Override
    public int localPool(int gpu) {
        for (PoolInfo p : pools) if (p.node() == gpu) return p.index();
        throw new IllegalArgumentException("no pool on GPU " + gpu);
    }

    @Override public int lineBytes() { return 128; }

    @Override public long pageBytes() { return 4096; }

    @Override public void stallGpu(int gpu, long ps) {}
}
