/**
 * DRAM pools: per-channel request queues, banks with open rows and tRCD/tRP/tCL/tRAS/tRC/tWR timing,
 * a data bus whose occupancy follows the pool's stated bandwidth, and an FR-FCFS or FCFS scheduler.
 * Entry point: {@link org.hmsim.platform.memory.dram.DramPool}.
 */
package org.hmsim.platform.memory.dram;
