package org.hmsim.platform.kernel.executor;

import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.study.Study;

/**
 * How the runs of a validated study are executed, chosen by name with {@code hmsim run --executor NAME}:
 * {@code local} runs them on threads of this process ({@link LocalExecutor}); every batch scheduler
 * (Slurm built in, a site's own as a {@link org.hmsim.api.executor.BatchScheduler} bundle) runs them as
 * array tasks ({@link BatchExecutor}). Both run each run through the same code
 * ({@link org.hmsim.platform.kernel.runner.RunWorker}) into the same results folder layout, and
 * runs.csv/study.json are always built from the files on disk, so the executor never changes the results.
 */
public interface StudyExecutor {
    String name();

    /**
     * Starts the study's runs into {@code options.out()} — all of them, or with {@code options.resume()}
     * only those without a stats.json — and returns without waiting for a batch job (a local execution
     * can be awaited through {@link Launch#execution()}).
     */
    Launch launch(Study study, RunOptions options, ExecutorSettings settings, Progress progress) throws ExecutorException;
}
