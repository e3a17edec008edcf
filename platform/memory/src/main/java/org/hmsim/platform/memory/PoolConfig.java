package org.hmsim.platform.memory;

/**
 * A memory pool: kind, the node it is attached to, channels sharing the stated peak bandwidth equally,
 * capacity, banks per channel, row-buffer size, command clock, timing, per-channel request queue depth,
 * scheduler ({@code fr-fcfs} or {@code fcfs}) and per-event energies.
 *
 * @param node index of the node: GPUs are nodes 0..gpus-1, the CPU is node {@code gpus}
 */
public record PoolConfig(String name, String kind, int node, int channels, double bytesPerSecond, long capacityBytes,
                         int banks, int rowBytes, double clockMHz, DramTiming timing, int queueDepth, String scheduler,
                         DramEnergy energy) {}
