package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.platform.kernel.registry.WorkloadEntry;
import picocli.CommandLine.Command;

/** {@code workloads}: the built-in and installed workloads with their parameters. */
@Command(name = "workloads", mixinStandardHelpOptions = true, description = "Lists the built-in and installed workloads with their parameters.")
final class WorkloadsCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    WorkloadsCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        PrintStream o = ctx.out();
        if (ctx.kernel().workloads().entries().isEmpty()) o.println("(no workload available)");
        for (WorkloadEntry e : ctx.kernel().workloads().entries()) {
            o.println(e.name() + "  [" + e.origin() + "]");
            o.println("    " + e.description());
            for (ParamSpec p : e.parameters()) o.println("    - " + p.describe());
        }
        return Commands.OK;
    }
}
