package org.hmsim.platform.kernel.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.executor.BatchTask;
import org.hmsim.platform.kernel.executor.JobFolder;
import org.hmsim.platform.kernel.results.ResultsFolderException;
import org.hmsim.platform.kernel.runner.LineProgress;
import org.hmsim.platform.kernel.runner.RunWorker;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code run-task DIR --index K [--study COPY] [--chunk N]} (hidden): one array task of a batch execution,
 * what the job script of {@code run --executor slurm} calls on a compute node. It parses the study copy
 * the submission saved in DIR, runs the runs of task K, and, if they were the last ones, assembles
 * runs.csv and study.json (and the report, where the report command is installed).
 */
@Command(name = "run-task", hidden = true, description = "Runs one array task of a batch execution (called by the job script).")
final class RunTaskCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "the results folder of the batch execution")
    Path dir;

    @Option(names = "--no-report", description = "the task that ends the last run does not draw the report (hmsim run --no-report)")
    boolean noReport;

    @Option(names = "--index", required = true, paramLabel = "K", description = "the array index (from 1)")
    int index;

    @Option(names = "--study", paramLabel = "COPY", description = "the study copy (default: the one recorded in DIR/job)")
    Path study;

    @Option(names = "--chunk", paramLabel = "N", description = "runs per task (default: as recorded in DIR/job)")
    Integer chunk;

    RunTaskCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        Path out = dir.toAbsolutePath().normalize();
        JobFolder job = new JobFolder(out);
        if (!job.exists()) {
            ctx.err().println("run-task: " + out + " holds no batch execution (no " + JobFolder.DIR + "/job.properties)");
            return Commands.BAD_INPUT;
        }
        JobFolder.Manifest m = job.manifest();
        Path copy = study != null ? study : m.study();
        Study s;
        try {
            s = ctx.kernel().validateBegun(copy, m.display()); // a task of a study already begun
        } catch (StudyException e) {
            ctx.err().println(e.getMessage());
            return Commands.BAD_INPUT;
        }
        if (s.runs().size() != m.runs() || !s.sha256().equals(m.sha256())) {
            ctx.err().println("run-task: " + copy + " is not the study submitted to " + out + " (" + s.runs().size() + " runs, SHA-256 "
                    + s.sha256() + "; expected " + m.runs() + ", " + m.sha256() + ")");
            return Commands.BAD_INPUT;
        }
        if (!Files.isDirectory(out)) return Commands.BAD_INPUT;
        BatchTask.Outcome o;
        try {
            o = BatchTask.run(s, out, chunk != null ? chunk : m.chunk(), index, new RunWorker(ctx.kernel().simulator()),
                    ctx.kernel().environment(), new LineProgress(ctx.out()));
        } catch (IllegalArgumentException | ResultsFolderException | org.hmsim.platform.kernel.results.ResultsWriteException e) {
            // a file of the folder that cannot be written (a full disk): the run stays without a result, for --resume
            ctx.err().println("run-task: " + e.getMessage());
            return Commands.BAD_INPUT;
        }
        ctx.out().println("task " + index + ": " + o.ran() + " run(s) executed");
        if (o.assembly() != null) {
            ctx.out().println("task " + index + " ended the last run: runs.csv and study.json assembled in " + out);
            if (!noReport) ReportHook.runIfInstalled(spec, ctx, out);
        }
        return o.code();
    }
}
