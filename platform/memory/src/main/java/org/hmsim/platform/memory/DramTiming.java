package org.hmsim.platform.memory;

/**
 * DRAM bank timing in command-clock cycles: activate-to-read (tRCD), precharge (tRP), CAS latency
 * (tCL), activate-to-precharge (tRAS), activate-to-activate same bank (tRC), write recovery (tWR).
 * Burst transfer time is not a cycle count here: it follows from the channel's bandwidth and the bytes
 * moved, so a pool's stated bandwidth is the data bus's peak.
 */
public record DramTiming(int tRCD, int tRP, int tCL, int tRAS, int tRC, int tWR) {}
