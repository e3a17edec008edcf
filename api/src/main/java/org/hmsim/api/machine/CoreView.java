package org.hmsim.api.machine;

/** An SM (or a CPU core) as a throttling or CTA-scheduling policy sees it. */
@org.osgi.annotation.versioning.ProviderType
public interface CoreView extends Component {
    /** The GPU the SM belongs to (0 for a one-GPU machine). */
    int gpu();

    /** The SM's index within its GPU (0 .. SMs per GPU - 1), not its position in a list of every GPU's SMs. */
    int index();

    int residentCtas();

    int residentWarps();

    /** Thread-block slots; how many of a kernel's blocks fit at once also depends on their warps and shared memory. */
    int maxCtas();

    int maxWarps();

    /** Whether the SM may issue new instructions (a throttled SM finishes what it has in flight). */
    boolean issueEnabled();

    void setIssueEnabled(boolean enabled);

    /** Warp instructions issued since the run began. Since api.machine 1.6.0. */
    long issued();

    /** Cycles in which at least one instruction issued. Since api.machine 1.6.0. */
    long issueCycles();

    /**
     * Cycles in which the SM held at least one thread block. {@code occupiedCycles() - issueCycles()} are the cycles its
     * warps waited without issuing (for memory, mostly: DYNCTA's C_mem); the cycles elapsed minus these, the SM's idle
     * ones (C_idle). Cheap to read: a dynamic throttling policy samples them at its epochs. Since api.machine 1.6.0.
     */
    long occupiedCycles();

    /** Thread blocks this SM may hold (at most {@link #maxCtas()}); the hardware's unless a throttling policy capped it. Since api.machine 1.6.0. */
    int ctaLimit();

    /**
     * Caps the thread blocks this SM may hold, 0 .. {@link #maxCtas()}. Lowering it lets the resident blocks finish and
     * takes no new one until they are below it (0 takes the SM out of dispatch); raising it lets the dispatcher place
     * more at once. Since api.machine 1.6.0.
     */
    void setCtaLimit(int ctas);

    /** How many of this SM's warps may issue (at most {@link #maxWarps()}); the hardware's unless capped. Since api.machine 1.6.0. */
    int warpLimit();

    /**
     * Lets only the {@code warps} oldest of this SM's warps issue, 1 .. {@link #maxWarps()} (static warp limiting, as
     * CCWS's SWL: the others stay resident and wait). A warp waiting at a barrier does not count, so a block larger than
     * the cap still reaches its barrier. Since api.machine 1.6.0.
     */
    void setWarpLimit(int warps);

    /**
     * The SM's L1 data cache: its geometry and its hits and misses so far, which a dynamic throttling or scheduling
     * policy samples at its epochs (a cache-conscious rule's L1 hit rate). Since api.machine 1.7.0.
     */
    CacheView l1();
}
