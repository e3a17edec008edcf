package org.hmsim.api.machine;

/** An SM (or a CPU core) as a throttling or CTA-scheduling policy sees it. */
@org.osgi.annotation.versioning.ProviderType
public interface CoreView extends Component {
    int gpu();

    int index();

    int residentCtas();

    int residentWarps();

    int maxCtas();

    int maxWarps();

    /** Whether the SM may issue new instructions (a throttled SM finishes what it has in flight). */
    boolean issueEnabled();

    void setIssueEnabled(boolean enabled);

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
}
