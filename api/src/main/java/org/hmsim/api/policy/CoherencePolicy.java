package org.hmsim.api.policy;

import org.hmsim.api.mem.MemRequest;

/**
 * Coherence actions between CPU and GPU caches. The baseline GPU-only machine has no coherence traffic
 * ({@code none}). The hook is consulted when a request misses the last level of a GPU or CPU cache
 * hierarchy and returns the latency the coherence protocol adds before memory is accessed.
 *
 * <p>Since api.policy 1.2.0, a machine with a CPU side (platform/cpu: CPU caches and a block-grain
 * CPU–GPU directory) also asks the policy, through default methods that a GPU-only policy ignores:
 * which path a last-level miss takes ({@link #missPath}), whether an agent may touch a page
 * ({@link #checkAccess}, the TLB's coherence-permission check of SAHC, seed 001 §4), and what to flush
 * at runtime events ({@link #onRuntimeEvent}). Pages are physical page numbers ({@code paddr / pageBytes}).
 */
public interface CoherencePolicy extends Policy {
    /** Extra delay (ps) before {@code request} may proceed to memory; 0 for none. */
    default long onLastLevelMiss(MemRequest request) { return 0; }

    /** {@link #missPath}: straight to memory, no directory (no coherence, or a page only one side may hold). */
    int PATH_MEMORY = 0;
    /** {@link #missPath}: through the block-grain directory with its banks, MSHRs, lookups and probes. */
    int PATH_DIRECTORY = 1;
    /** {@link #missPath}: the directory's state changes and probes take effect at zero latency (ideal coherence). */
    int PATH_IDEAL = 2;

    /** The CPU as an agent of {@link #missPath} and {@link #checkAccess} (GPUs are 0..gpus-1). */
    int AGENT_CPU = -1;

    /**
     * Which path a last-level-cache miss of {@code agent} (a GPU index or {@link #AGENT_CPU}) to physical
     * page {@code page} takes: {@link #PATH_MEMORY}, {@link #PATH_DIRECTORY} or {@link #PATH_IDEAL}.
     */
    default int missPath(int agent, long page) { return PATH_MEMORY; }

    /**
     * The coherence-permission check of an access by {@code agent} to physical page {@code page} (the CPU
     * checks every access, a GPU at each page-table walk; the platform shoots the page down from the other
     * side's TLBs when a fault moves it). Returns the fault cost in CPU cycles, 0 when allowed.
     *
     * <p>Only a fault (a return above 0) makes the platform act on the other side's copies: a GPU fault writes back
     * and drops the page's CPU cache lines, a CPU fault shoots the page down from the GPUs' TLBs (their L2 lines
     * stay). A policy that changes a page's owner or sends its misses to {@link #PATH_MEMORY} while returning 0
     * leaves copies the simulator then serves without a cost (it models timing, not data), and can beat ideal
     * coherence; charge a transition at least one cycle.
     */
    default long checkAccess(int agent, long page, boolean write) { return 0; }

    /** {@link #onRuntimeEvent}: a kernel is about to launch (argument: its index). */
    int EVENT_KERNEL_LAUNCH = 0;
    /** {@link #onRuntimeEvent}: a kernel has completed (argument: its index). */
    int EVENT_KERNEL_COMPLETE = 1;
    /** {@link #onRuntimeEvent}: the program declares its GPU work finished ({@code gpuWorkFinish()}, seed 001 §4.3). */
    int EVENT_GPU_WORK_FINISH = 2;
    /** {@link #onRuntimeEvent}: the program has ended. */
    int EVENT_PROGRAM_END = 3;

    /** Result bit of {@link #onRuntimeEvent}: flush (write back and invalidate) the CPU caches. */
    int FLUSH_CPU_CACHES = 1;
    /** Result bit of {@link #onRuntimeEvent}: flush the GPU caches. */
    int FLUSH_GPU_CACHES = 2;

    /** A runtime event ({@code EVENT_*}); returns the flushes ({@code FLUSH_*} bits) the platform performs. */
    default int onRuntimeEvent(int event, int argument) { return 0; }
}
