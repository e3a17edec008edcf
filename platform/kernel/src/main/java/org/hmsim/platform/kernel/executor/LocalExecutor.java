package org.hmsim.platform.kernel.executor;

import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.study.Study;

/** {@code --executor local} (the default): the runs on {@code --jobs} threads of this process. */
public final class LocalExecutor implements StudyExecutor {
    public static final String NAME = "local";

    /** Starts a study in this process (the kernel's {@code start}, which allows one study at a time). */
    @FunctionalInterface
    public interface Starter {
        StudyExecution start(Study study, RunOptions options, Progress progress);
    }

    private final Starter starter;

    public LocalExecutor(Starter starter) { this.starter = starter; }

    @Override
    public String name() { return NAME; }

    @Override
    public Launch launch(Study study, RunOptions options, ExecutorSettings settings, Progress progress) throws ExecutorException {
        try {
            return Launch.local(starter.start(study, options, progress));
        } catch (IllegalStateException busy) {
            throw new ExecutorException(busy.getMessage(), busy);
        }
    }
}
