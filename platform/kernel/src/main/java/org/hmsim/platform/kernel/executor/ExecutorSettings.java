package org.hmsim.platform.kernel.executor;

import java.util.List;

/**
 * The options of {@code hmsim run} that only batch executors use.
 *
 * @param partition the partition (queue), or null for the site's default
 * @param arrayChunk runs per array task (1: one task per run)
 * @param schedulerArgs options passed to the scheduler as written ({@code --sbatch-arg --time=1:00:00})
 * @param report whether the task that ends the last run draws the report ({@code hmsim run} without {@code --no-report})
 */
public record ExecutorSettings(String partition, int arrayChunk, List<String> schedulerArgs, boolean report) {
    public static final ExecutorSettings DEFAULT = new ExecutorSettings(null, 1, List.of());

    public ExecutorSettings(String partition, int arrayChunk, List<String> schedulerArgs) { this(partition, arrayChunk, schedulerArgs, true); }

    public ExecutorSettings {
        if (arrayChunk < 1) throw new IllegalArgumentException("--array-chunk must be at least 1");
        schedulerArgs = List.copyOf(schedulerArgs);
    }
}
