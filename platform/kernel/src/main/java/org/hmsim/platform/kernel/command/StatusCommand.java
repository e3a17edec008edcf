package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.util.StringJoiner;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.runner.RunState;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.study.PlannedRun;
import picocli.CommandLine.Command;

/** {@code status}: each run of the study in progress (or the last one), and the policies of running runs. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Shows each run of the current (or last) study: done, running, pending or failed.")
final class StatusCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @picocli.CommandLine.Parameters(index = "0", arity = "0..1", paramLabel = "DIR",
            description = "a results folder: its runs (and its batch job's tasks) instead of this container's study")
    java.nio.file.Path dir;

    StatusCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        if (dir != null) return FolderStatus.print(ctx, dir.toAbsolutePath().normalize());
        PrintStream o = ctx.out();
        StudyExecution ex = ctx.kernel().current();
        if (ex == null && !ctx.background()) {
            // headless, this process is a new container: a study running in another one is only visible through its folder
            ctx.err().println("hmsim status: without a folder it shows the study of this container (the shell's sim:status); "
                    + "for a study run elsewhere give its results folder: hmsim status results/<study>/");
            return Commands.BAD_INPUT;
        }
        if (ex == null) {
            o.println("no study has run yet");
            return Commands.OK;
        }
        String phase = !ex.isDone() ? (ex.stopRequested() || ex.unwritable() != null ? "stopping" : "running")
                : ex.unwritable() != null ? "stopped (" + ex.unwritable().getMessage() + ")" : ex.stopRequested() ? "stopped" : "finished";
        o.println("study " + ex.study().name() + " (" + ex.out() + "): " + phase + ", " + ex.summary());
        for (PlannedRun r : ex.study().runs()) {
            RunState s = ex.state(r.index());
            o.printf("  %s %-8s %s%n", r.id(), s.text(), r.label());
            if (s == RunState.RUNNING) {
                StringJoiner j = new StringJoiner(", ", "           policies: ", "");
                org.hmsim.platform.machine.SwapControl live = org.hmsim.platform.kernel.runner.LiveSwaps.running().get(r.id());
                // the last swap that took, with its parameters: a swap to the same policy with other parameters was not shown
                java.util.Map<Slot, org.hmsim.platform.machine.SwapRecord> swapped = new java.util.EnumMap<>(Slot.class);
                if (live != null) for (var rec : live.records()) if (rec.outcome().equals("ok")) swapped.put(rec.slot(), rec);
                for (Slot slot : Slot.values())
                    j.add(slot.id() + "=" + (swapped.containsKey(slot) ? swapped.get(slot).toWithParams() + " (swapped)"
                            : r.policies().get(slot).withVersionShown().label())
                            + (org.hmsim.platform.kernel.runner.LiveSwaps.departed(r.id(), slot) ? " (its bundle left: running its departed code)" : ""));
                o.println(j);
                // How many swaps the run has taken so far (they reach swaps.csv when it ends).
                if (live != null) o.println("           swaps: " + live.records().size());
                // Its workload and machine are being built (a large trace takes seconds): sim:swap cannot reach it yet.
                else o.println("           setting up: not simulating yet (sim:swap reaches it once it starts)");
            }
        }
        return Commands.OK;
    }
}
