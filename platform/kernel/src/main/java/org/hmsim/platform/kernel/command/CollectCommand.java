package org.hmsim.platform.kernel.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.executor.JobFolder;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.results.ResultsFolderException;
import org.hmsim.platform.kernel.runner.Assembly;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code collect DIR [--study FILE]}: assembles runs.csv and study.json (and the report, if installed) from
 * the per-run files of a results folder — after a batch job whose last task died before it could, or at
 * any time to see the runs finished so far. The study is the copy a batch submission saved in DIR, else
 * {@code --study}, else the file study.json names.
 */
@Command(name = "collect", mixinStandardHelpOptions = true, description = "Assembles runs.csv and study.json of a results folder from its per-run files (after a batch job).")
final class CollectCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "the results folder")
    Path dir;

    @Option(names = "--study", paramLabel = "FILE", description = "the study file (default: the copy in DIR/job, else the file study.json names)")
    Path study;

    CollectCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        Path out = dir.toAbsolutePath().normalize();
        Study s;
        try {
            s = studyOf(ctx, out, study);
        } catch (StudyException e) {
            ctx.err().println(e.getMessage());
            return Commands.BAD_INPUT;
        } catch (IllegalArgumentException e) {
            ctx.err().println("collect: " + e.getMessage());
            return Commands.BAD_INPUT;
        }
        if (org.hmsim.platform.kernel.results.FolderLock.held(out)) { // that run assembles runs.csv itself when it ends
            ctx.err().println("collect: an hmsim run is writing into " + out + " right now (it holds " + org.hmsim.platform.kernel.results.FolderLock.NAME
                    + "); nothing was assembled: it writes runs.csv and study.json itself when it ends");
            return Commands.BAD_INPUT;
        }
        // assembling nothing would replace a runs.csv and its figures with empty ones; with no runs.csv yet (a batch job
        // whose tasks never started) there is nothing to lose and collect says what is there
        if (!Files.isDirectory(out.resolve("runs")) && Files.isRegularFile(out.resolve(ResultsFolder.TABLE))) {
            ctx.err().println("collect: " + out.resolve("runs") + " is missing: there are no per-run files to assemble; nothing was assembled");
            return Commands.BAD_INPUT;
        }
        String conflict = new ResultsFolder(out, s).collectConflict();
        if (conflict != null) { // assembling would label these runs with another study's plan
            ctx.err().println("collect: " + conflict + "; nothing was assembled: name the study these runs were made of with --study FILE");
            return Commands.BAD_INPUT;
        }
        Assembly.Outcome o;
        try {
            o = Assembly.assemble(s, out, ctx.kernel().environment());
        } catch (ResultsFolderException damaged) {
            ctx.err().println("collect: " + damaged.getMessage() + "; nothing was assembled: hmsim run " + org.hmsim.platform.kernel.executor.ShellWord.of(s.display()) + " --out " + org.hmsim.platform.kernel.executor.ShellWord.of(out)
                    + " --resume runs that run again");
            return Commands.BAD_INPUT;
        } catch (java.io.UncheckedIOException cannot) { // a read-only folder, a full disk: said in one line, not as an internal error
            java.io.IOException io = cannot.getCause();
            ctx.err().println("collect: cannot write into " + out + ": " + ResultsFolder.reason(io, out) + "; nothing was assembled");
            return Commands.BAD_INPUT;
        }
        if (!o.assembled()) {
            ctx.err().println("collect: another process is assembling " + out + " right now; try again when it is done");
            return Commands.ERROR;
        }
        // runs of a job still going are not missing: their tasks are pending or running (a cluster trial was told to resubmit them)
        String active = o.complete() ? null : org.hmsim.platform.kernel.executor.BatchExecutor.activeJob(new JobFolder(out), ctx.kernel().executors());
        ctx.out().println("study " + s.name() + ": " + o.ended() + " of " + o.total() + " runs ended (" + o.failed() + " failed)"
                + (o.complete() ? "" : active != null ? ", " + o.missing() + " not yet: " + active.replaceFirst("; wait for it.*", "")
                        + "; its last task assembles the study again when it ends" : ", " + o.missing() + " missing (resubmit them with run --resume)"));
        ctx.out().println("assembled " + out.resolve(ResultsFolder.TABLE) + " and " + ResultsFolder.PROVENANCE);
        ReportHook.runIfInstalled(spec, ctx, out);
        return !o.complete() ? StudyExecution.STOPPED : o.failed() > 0 ? StudyExecution.FAILED_RUNS : StudyExecution.OK;
    }

    /** The study of a results folder: DIR/job's copy, else {@code given}, else the file study.json names. */
    static Study studyOf(Commands.Context ctx, Path out, Path given) throws StudyException {
        JobFolder job = new JobFolder(out);
        if (given == null && job.exists()) {
            JobFolder.Manifest m = job.manifest();
            return ctx.kernel().validateBegun(m.study(), m.display());
        }
        if (given != null) return ctx.kernel().validateBegun(given, given.toString());
        Path p = out.resolve(ResultsFolder.PROVENANCE);
        if (!Files.isRegularFile(p)) throw new IllegalArgumentException(out + " has neither job/ nor study.json: name the study with --study FILE");
        Object f;
        try {
            f = Json.read(p).get("study_file");
        } catch (ResultsFolderException damaged) {
            throw new IllegalArgumentException(damaged.getMessage() + ": name the study with --study FILE");
        }
        if (f == null) throw new IllegalArgumentException(p + " names no study file: name it with --study FILE");
        return ctx.kernel().validateBegun(Path.of(f.toString()), f.toString());
    }
}
