package org.hmsim.platform.kernel.command;

import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.runner.RunState;
import org.hmsim.platform.kernel.runner.StudyExecution;
import picocli.CommandLine.Command;

/** {@code stop}: the running simulations finish, no new one starts; {@code run --resume} continues later. */
@Command(name = "stop", mixinStandardHelpOptions = true, description = "Stops the running study after the simulations in flight (resume it with run --resume); "
        + "given a results folder of a batch job, cancels the job's tasks.")
final class StopCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @picocli.CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "DIR", description = "a results folder a batch job (--executor slurm) writes: cancel its tasks")
    java.nio.file.Path dir;

    StopCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        if (dir != null) return cancelJob(dir.toAbsolutePath().normalize());
        StudyExecution ex = ctx.kernel().current();
        if (ex == null && !ctx.background()) {
            // headless, this process is a new container: it cannot reach a study another process runs
            ctx.err().println("hmsim stop: stops the study of this container (the shell's sim:stop); a headless hmsim run stops with Ctrl-C, "
                    + "its finished runs stay in runs.csv and run --resume continues it");
            return Commands.BAD_INPUT;
        }
        if (ex == null || !ex.stop()) {
            ctx.out().println("no study is running");
            return Commands.OK;
        }
        ctx.out().println("stopping study " + ex.study().name() + ": " + ex.count(RunState.RUNNING)
                + " run(s) in flight finish, " + ex.count(RunState.PENDING) + " pending run(s) will not start");
        return Commands.OK;
    }

    /** {@code stop DIR}: cancels the folder's last batch job through its scheduler (a cluster user had only scancel). */
    private int cancelJob(java.nio.file.Path out) {
        org.hmsim.platform.kernel.executor.JobFolder job = new org.hmsim.platform.kernel.executor.JobFolder(out);
        java.util.List<org.hmsim.platform.kernel.executor.JobFolder.Submission> subs = job.exists() ? job.submissions() : java.util.List.of();
        if (subs.isEmpty()) {
            ctx.err().println("stop: " + out + " holds no batch job (no " + org.hmsim.platform.kernel.executor.JobFolder.DIR
                    + "/ with a submission); a local hmsim run stops with Ctrl-C, the shell's study with sim:stop");
            return Commands.BAD_INPUT;
        }
        String executor = job.manifest().executor(), id = subs.get(subs.size() - 1).jobId();
        org.hmsim.api.executor.BatchScheduler scheduler = ctx.kernel().executors().scheduler(executor);
        if (scheduler == null) {
            ctx.err().println("stop: the folder's job " + id + " was submitted to '" + executor + "', which is not installed here");
            return Commands.BAD_INPUT;
        }
        try {
            scheduler.cancel(id);
        } catch (Exception e) {
            ctx.err().println("stop: job " + id + " (" + executor + ") was not cancelled: " + e.getMessage());
            return Commands.ERROR;
        }
        ctx.out().println("cancelled job " + id + " (" + executor + "): its running tasks stop where they are, leaving their runs without a"
                + " result, and its pending ones never start; hmsim status " + out + " follows it, run --resume continues the study");
        return Commands.OK;
    }
}
