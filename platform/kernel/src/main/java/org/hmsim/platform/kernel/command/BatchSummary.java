package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.nio.file.Path;
import org.hmsim.platform.kernel.executor.JobFolder;
import org.hmsim.platform.kernel.executor.Launch;
import org.hmsim.platform.kernel.study.Study;

/** What {@code run --executor slurm} prints once the job is submitted (it does not wait for it). */
final class BatchSummary {
    private BatchSummary() {}

    static int submitted(Study s, Path dir, String executor, Launch launch, PrintStream o) {
        if (launch.jobId() == null) {
            o.println("study " + s.name() + ": every run is already complete in " + dir + "; runs.csv assembled, nothing submitted");
            return Commands.OK;
        }
        // a --resume submits the runs left only: say how many (a review read "3 tasks for 6 runs" for 3 runs left)
        long left = s.runs().stream().filter(r -> !java.nio.file.Files.isRegularFile(
                dir.resolve("runs").resolve(r.id()).resolve(org.hmsim.platform.kernel.results.ResultsFolder.STATS))).count();
        o.println("study " + s.name() + ": submitted " + executor + " job " + launch.jobId() + " (" + launch.tasks().size()
                + " array task(s) for " + (left < s.runs().size() ? "the " + left + " run(s) left of " : "") + s.runs().size() + " run(s))");
        if (launch.script() != null) o.println("script: " + launch.script());
        o.println("job id recorded in " + dir.resolve(JobFolder.DIR).resolve("job-id"));
        o.println("follow it with: hmsim status " + dir);
        o.println("results: " + dir);
        o.flush();
        return Commands.OK;
    }
}
