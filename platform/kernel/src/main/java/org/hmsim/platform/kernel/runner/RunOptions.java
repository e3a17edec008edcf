package org.hmsim.platform.kernel.runner;

import java.nio.file.Path;

/**
 * How to run a study: where results go, on how many threads, whether to keep what an earlier, interrupted
 * execution finished, and the swaps to replay per run ({@code --replay-swaps}; empty: none) with the folder they came
 * from ({@code replaySource}, recorded in study.json so that a resume can insist on the same; null: none).
 */
public record RunOptions(Path out, int jobs, boolean resume, java.util.Map<String, java.util.List<org.hmsim.platform.machine.ScriptedSwap>> replay,
                         java.util.function.Function<Path, String> folderGuard, String replaySource) {
    public RunOptions {
        if (jobs < 1) throw new IllegalArgumentException("--jobs must be at least 1");
        replay = java.util.Map.copyOf(replay);
    }

    /**
     * Without a folder guard. {@code folderGuard}: asked under the folder's lock, before anything in the folder changes,
     * why this execution may not write there (null: it may); the refusal is reported as a bad folder.
     */
    public RunOptions(Path out, int jobs, boolean resume, java.util.Map<String, java.util.List<org.hmsim.platform.machine.ScriptedSwap>> replay) {
        this(out, jobs, resume, replay, null, null);
    }

    public RunOptions(Path out, int jobs, boolean resume) { this(out, jobs, resume, java.util.Map.of()); }
}
