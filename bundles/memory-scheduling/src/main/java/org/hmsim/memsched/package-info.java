/**
 * DRAM scheduling policies from the literature for the {@code dram-scheduler} slot: FR-FCFS+Cap, a CPU-first
 * FR-FCFS and BLISS. Each ranks a channel's queued requests ({@link org.hmsim.api.policy.DramSchedulerPolicy}); the
 * channel keeps its timing rules. A request's source is the CPU side ({@code gpu == -1}) or the GPU that sent it: at the
 * memory controller an L2's miss no longer says which SM or warp caused it, so sources are CPU and GPUs, not threads.
 */
package org.hmsim.memsched;
