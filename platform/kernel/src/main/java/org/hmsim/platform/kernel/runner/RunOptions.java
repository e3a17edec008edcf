package org.hmsim.platform.kernel.runner;

import java.nio.file.Path;

/**
 * How to run a study: where results go, on how many threads, and whether to keep what an earlier,
 * interrupted execution finished.
 */
public record RunOptions(Path out, int jobs, boolean resume) {
    public RunOptions {
        if (jobs < 1) throw new IllegalArgumentException("--jobs must be at least 1");
    }
}
