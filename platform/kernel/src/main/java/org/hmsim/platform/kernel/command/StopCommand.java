package org.hmsim.platform.kernel.command;

import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.runner.RunState;
import org.hmsim.platform.kernel.runner.StudyExecution;
import picocli.CommandLine.Command;

/** {@code stop}: the running simulations finish, no new one starts; {@code run --resume} continues later. */
@Command(name = "stop", mixinStandardHelpOptions = true, description = "Stops the running study after the simulations in flight (resume it with run --resume).")
final class StopCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    StopCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
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
}
