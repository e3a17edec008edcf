package org.hmsim.api.executor;

import java.nio.file.Path;
import java.util.List;

/**
 * One array job to submit. Task {@code i} of {@link #indices} runs {@link #taskCommand} with every word
 * equal to {@link #INDEX} replaced by the scheduler's array-index variable ({@code $SLURM_ARRAY_TASK_ID}).
 * The task writes its runs into {@link #resultsDir} itself; the folder must be on a filesystem every
 * node shares.
 *
 * @param name a job name ({@code hmsim-<study>})
 * @param resultsDir the study's results folder
 * @param jobDir where the scheduler writes its script and logs (inside resultsDir)
 * @param submission 1 for the first submission of this folder, 2 for the first {@code --resume}, ...
 * @param indices the array indices to run, ascending, each at least 1
 * @param taskCommand the command of one task, with {@link #INDEX} where the index goes
 * @param queue the partition/queue, or null for the site's default
 * @param schedulerArgs options passed through to the scheduler as written ({@code --time=2:00:00})
 */
public record BatchJob(String name, Path resultsDir, Path jobDir, int submission, List<Integer> indices,
                       List<String> taskCommand, String queue, List<String> schedulerArgs) {
    /** The word in {@link #taskCommand} that stands for the task's array index. */
    public static final String INDEX = "{index}";

    public BatchJob {
        indices = List.copyOf(indices);
        taskCommand = List.copyOf(taskCommand);
        schedulerArgs = List.copyOf(schedulerArgs);
    }
}
