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
}
