package org.hmsim.api.policy;

import org.hmsim.api.mem.MemRequest;

/**
 * Coherence actions between CPU and GPU caches. The baseline GPU-only machine has no coherence traffic
 * ({@code none}). {@link #onLastLevelMiss} is consulted for each fetch a GPU L2 slice sends towards memory (its misses;
 * not its write-backs, and not the CPU's misses, whose way {@link #missPath} decides) and returns the latency the
 * protocol adds before memory is accessed.
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
     * page {@code page} takes: {@link #PATH_MEMORY}, {@link #PATH_DIRECTORY} or {@link #PATH_IDEAL}. Asked for every GPU
     * L2 miss and write-back at the directory, again for one the directory refused (its MSHRs full) when it is re-sent,
     * for every CPU LLC miss and upgrade, and for a GPU store to a line the CPU holds: so more often than
     * {@code directory.bypassed} and the lookups count, and for write-backs of pages another agent has taken over. It must
     * answer from the policy's state without changing it; change state in {@link #checkAccess}.
     */
    default int missPath(int agent, long page) { return PATH_MEMORY; }

    /**
     * The coherence-permission check of an access by {@code agent} to physical page {@code page} (the CPU
     * checks every access, before its cache look-up; a GPU at each page-table walk, so a page's first GPU access is
     * checked as it is walked, and a translation in a GPU TLB is not checked again until it leaves; the platform shoots
     * the page down from the other side's TLBs when a fault moves it, and a live swap of this slot drops every GPU TLB
     * entry). GPU agents are numbered from 0. Returns the fault cost in CPU cycles, 0 when allowed: a fault is served by
     * the one OS fault handler, in arrival order (a GPU's wait is its queue there plus its own cost); a transition that
     * hardware would make cheaply is charged the same way.
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

    /**
     * A runtime event ({@code EVENT_*}); returns the flushes ({@code FLUSH_*} bits) the platform performs. Every policy of
     * the slot gets every event of every workload with a CPU side: each launch and completion, the program's
     * {@code gpuWorkFinish()} where it declares one, and its end.
     */
    default int onRuntimeEvent(int event, int argument) { return 0; }
}
