package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.results.Provenance;
import org.hmsim.platform.kernel.runner.BarProgress;
import org.hmsim.platform.kernel.runner.LineProgress;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.runner.RunState;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code run STUDY [--out DIR] [--jobs N] [--resume]}. */
@Command(name = "run", description = "Validates a study, then runs it in parallel and writes its results.")
final class RunCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "STUDY", description = "the study file (YAML)")
    Path study;

    @Option(names = "--out", paramLabel = "DIR", description = "results folder (default: results/<study>/)")
    Path out;

    @Option(names = "--jobs", paramLabel = "N", description = "simulations in parallel (default: all cores)")
    Integer jobs;

    @Option(names = "--resume", description = "keep the runs an earlier execution finished; redo the others")
    boolean resume;

    RunCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() throws InterruptedException {
        PrintStream o = ctx.out(), e = ctx.err();
        Study s;
        try {
            s = ctx.kernel().validate(study);
        } catch (StudyException ex) {
            e.println(ex.getMessage());
            return Commands.BAD_INPUT;
        }
        int n = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (n < 1) {
            e.println("--jobs: must be at least 1");
            return Commands.BAD_INPUT;
        }
        Path dir = (out != null ? out : Path.of("results", s.name())).toAbsolutePath().normalize();
        if (resume) {
            String sha = Provenance.recordedSha(dir);
            if (sha != null && !sha.equals(s.sha256()))
                e.println("warning: " + s.display() + " changed since the results in " + dir + " were written; resuming anyway");
        }
        Progress progress = ctx.background() ? Progress.silent()
                : System.console() != null ? BarProgress.create(o) : new LineProgress(o);
        StudyExecution ex;
        try {
            ex = ctx.kernel().start(s, new RunOptions(dir, n, resume), progress);
        } catch (IllegalStateException busy) {
            e.println(busy.getMessage());
            return Commands.ERROR;
        }
        if (ctx.background()) {
            o.println("study " + s.name() + " started: " + s.shape() + " on " + n + " thread(s) -> " + dir);
            o.println("follow it with sim:status, cancel it with sim:stop");
            Thread t = new Thread(() -> {
                try {
                    ex.await();
                    summary(ex, o, e);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }, "hmsim-study-report");
            t.setDaemon(true);
            t.start();
            return Commands.OK;
        }
        int code = ex.await();
        summary(ex, o, e);
        return code;
    }

    static void summary(StudyExecution ex, PrintStream o, PrintStream e) {
        Study s = ex.study();
        if (ex.crash() != null) {
            e.println("study " + s.name() + " broke off: " + ex.crash());
            ex.crash().printStackTrace(e);
        }
        o.println("study " + s.name() + ": " + ex.summary() + (ex.stopRequested() ? " (stopped)" : ""));
        for (PlannedRun r : s.runs())
            if (ex.state(r.index()) == RunState.FAILED)
                e.println("  run " + r.id() + " failed: see " + ex.out().resolve("runs").resolve(r.id()).resolve("error.txt"));
        o.println("results: " + ex.out());
        o.flush();
    }
}
