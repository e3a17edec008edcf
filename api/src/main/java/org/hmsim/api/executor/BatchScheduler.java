package org.hmsim.api.executor;

import java.util.Map;

/**
 * A cluster scheduler that runs a study as an array job: {@code hmsim run STUDY --executor NAME}. The
 * kernel prepares the results folder (a copy of the study, the run plan), decides which array indices to
 * submit and what each task runs; the scheduler only writes its job script and submits it. Register an
 * implementation as an OSGi service; the kernel's own is {@code slurm}.
 */
public interface BatchScheduler {
    /** The name users give to {@code --executor}: lower case, no blanks. */
    String name();

    /** One line for {@code hmsim run --help} and error messages. */
    String description();

    /**
     * Writes the job script into {@link BatchJob#jobDir()} and submits it.
     *
     * @return the scheduler's job id
     * @throws Exception when the scheduler refused the job or cannot be reached (the message is shown): an
     *         {@link IllegalArgumentException} for a job the scheduler rejected (its options, the cluster's limits), which
     *         {@code hmsim run} answers as bad input (exit 2); anything else is an error (exit 1)
     */
    String submit(BatchJob job) throws Exception;

    /**
     * The state of each array task of a job as the scheduler sees it now ({@code PENDING}, {@code RUNNING},
     * {@code COMPLETED}, {@code FAILED}, {@code CANCELLED}, {@code TIMEOUT}, ...), by array index; empty
     * when the scheduler cannot tell (its tools are not installed, or it forgot the job).
     */
    default Map<Integer, String> taskStates(String jobId) { return Map.of(); }

    /**
     * Cancels every task of a job still pending or running ({@code hmsim stop DIR}); a task cancelled mid-run leaves
     * that run without a result, which {@code run --resume} redoes. The default cannot.
     *
     * @throws Exception when the scheduler refused or cannot be reached (the message is shown)
     * @since 1.1.0
     */
    default void cancel(String jobId) throws Exception {
        throw new UnsupportedOperationException(name() + " cannot cancel a job from hmsim: use the scheduler's own tool on job " + jobId);
    }
}
