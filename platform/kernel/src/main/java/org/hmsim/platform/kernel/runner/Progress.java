package org.hmsim.platform.kernel.runner;

import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/** Tells the user how a study advances. Called from worker threads: implementations synchronise. */
public interface Progress {
    /** Something to know before the runs start (earlier results set aside, a damaged file redone). */
    default void note(String line) {}

    default void start(Study study, int total, int alreadyDone) {}

    /** A run ended; {@code done} counts every finished run so far, including resumed ones. */
    void finished(PlannedRun run, boolean ok, Throwable error, long wallNanos, int done, int total);

    default void close() {}

    static Progress silent() { return (run, ok, error, wallNanos, done, total) -> {}; }
}
