package org.hmsim.platform.kernel.command;

import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;

/** After an assembly, the report too — if this kernel has a {@code report} command (a separate feature). */
final class ReportHook {
    private ReportHook() {}

    static void runIfInstalled(CommandSpec spec, Commands.Context ctx, Path dir) {
        if (spec == null || !spec.root().subcommands().containsKey("report")) return;
        // A fresh command line: picocli resets the options of the one that is executing us.
        int code = new Commands(ctx.kernel()).execute(new String[] {"report", dir.toString()}, ctx.out(), ctx.err(), false);
        if (code != Commands.OK) ctx.err().println("report " + dir + ": exit code " + code + " (runs.csv and study.json are complete)");
    }
}
