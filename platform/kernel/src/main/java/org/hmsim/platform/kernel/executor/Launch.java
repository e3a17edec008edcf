package org.hmsim.platform.kernel.executor;

import java.nio.file.Path;
import java.util.List;
import org.hmsim.platform.kernel.runner.StudyExecution;

/**
 * What an executor started: a local execution to follow and await, or a batch job.
 *
 * @param execution the local execution, or null for a batch job
 * @param jobId the scheduler's job id, or null for a local execution
 * @param tasks the array indices submitted (empty for a local execution or when nothing was left to run)
 * @param script the job script written into the results folder, or null
 * @param notes what preparing the results folder did (earlier results set aside, damaged files redone)
 */
public record Launch(StudyExecution execution, String jobId, List<Integer> tasks, Path script, List<String> notes) {
    public static Launch local(StudyExecution execution) { return new Launch(execution, null, List.of(), null, execution.notes()); }
}
