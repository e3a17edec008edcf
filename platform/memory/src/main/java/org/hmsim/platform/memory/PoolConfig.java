package org.hmsim.platform.memory;

/**
 * A memory pool: kind, the node it is attached to, channels sharing the stated peak bandwidth equally,
 * capacity, banks per channel, row-buffer size, command clock, timing, per-channel request queue depth,
 * scheduler ({@code fr-fcfs} or {@code fcfs}), per-event energies and a fixed memory-controller latency.
 *
 * @param node index of the node: GPUs are nodes 0..gpus-1, the CPU is node {@code gpus}
 * @param controllerLatencyPs fixed delay added to every response of the pool, ps (0 = none): the
 *        controller and PHY pipeline that a DRAM timing model leaves out, GPGPU-Sim's {@code -dram_latency}
 * @param acksQueuedWrites a write whose requester waits is acknowledged when a channel queues it (after the
 *        controller latency) instead of once its data is written: a controller that posts writes, as the FRC
 *        thesis group's Multi2Sim fork answers an L2's eviction once its DRAMSim2 transaction is inserted
 * @param jitterPs a uniformly random extra delay of 0..jitterPs added to each response, drawn from the run's seed (0 =
 *        none): the perturbation of Alameldeen and Wood (HPCA 2003) that lets replicated seeds show how far a run's
 *        numbers move under timing it cannot fix, where a deterministic model would give every seed the same run
 * @param burstBytes the data bus's smallest transfer (burst length x bus width; 0 = none): a transfer holds the bus for its
 *        bytes rounded up to a whole number of bursts, so a 32 B sector on a 64 B-burst DDR4 channel costs a 64 B burst
 * @param splitCommandBus row commands (ACT, PRE, REF) and column commands (RD, WR) have command buses of their own, one
 *        command each per cycle, as HBM's (JESD235); false: one shared command bus, one command per cycle (DDR, GDDR)
 */
public record PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                         int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                         DramEnergy energy, long controllerLatencyPs, boolean acksQueuedWrites, long jitterPs, int burstBytes,
                         boolean splitCommandBus) {

    /** One shared command bus. */
    public PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                      int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                      DramEnergy energy, long controllerLatencyPs, boolean acksQueuedWrites, long jitterPs, int burstBytes) {
        this(name, kind, node, channels, bytesPerSecond, capacityBytes, banks, rowBytes, clockMHz, timing, queueDepth,
                scheduler, energy, controllerLatencyPs, acksQueuedWrites, jitterPs, burstBytes, false);
    }

    /** No minimum burst: a transfer holds the data bus for its own bytes. */
    public PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                      int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                      DramEnergy energy, long controllerLatencyPs, boolean acksQueuedWrites, long jitterPs) {
        this(name, kind, node, channels, bytesPerSecond, capacityBytes, banks, rowBytes, clockMHz, timing, queueDepth,
                scheduler, energy, controllerLatencyPs, acksQueuedWrites, jitterPs, 0);
    }

    /** No jitter. */
    public PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                      int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                      DramEnergy energy, long controllerLatencyPs, boolean acksQueuedWrites) {
        this(name, kind, node, channels, bytesPerSecond, capacityBytes, banks, rowBytes, clockMHz, timing, queueDepth,
                scheduler, energy, controllerLatencyPs, acksQueuedWrites, 0);
    }

    /** Writes acknowledged once written. */
    public PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                      int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                      DramEnergy energy, long controllerLatencyPs) {
        this(name, kind, node, channels, bytesPerSecond, capacityBytes, banks, rowBytes, clockMHz, timing, queueDepth,
                scheduler, energy, controllerLatencyPs, false);
    }

    /** A pool without a fixed controller latency. */
    public PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                      int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                      DramEnergy energy) {
        this(name, kind, node, channels, bytesPerSecond, capacityBytes, banks, rowBytes, clockMHz, timing, queueDepth,
                scheduler, energy, 0, false);
    }
}
