package org.hmsim.platform.kernel.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.hmsim.api.executor.BatchJob;
import org.hmsim.api.executor.BatchScheduler;
import org.hmsim.platform.kernel.results.EarlierResults;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.Provenance;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/**
 * A study as an array job of a batch scheduler. The submission prepares the results folder (a copy of
 * the study, the run plan: {@link JobFolder}), lets the scheduler write and submit a script whose task
 * {@code k} runs {@code <hmsim home>/bin/hmsim run-task DIR --study COPY --chunk N --index k}, records the
 * job id and returns. Each task runs its runs with the local executor's code and the task that ends the
 * last run assembles runs.csv and study.json ({@link BatchTask}). {@code --resume} submits only the
 * tasks whose runs have no stats.json.
 */
public final class BatchExecutor implements StudyExecutor {
    /** How study.json's status begins when the scheduler refused the job (status DIR then says nothing is queued). */
    public static final String NOT_SUBMITTED = "not submitted: ";

    /** Scheduler states of a task that will still run or is running. */
    private static final List<String> ACTIVE = List.of("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "REQUEUED", "RESIZING", "SUSPENDED");

    private final BatchScheduler scheduler;
    private final Environment environment;
    private final Path home;

    /** @param home the hmsim installation whose {@code bin/hmsim} the tasks run */
    public BatchExecutor(BatchScheduler scheduler, Environment environment, Path home) {
        this.scheduler = scheduler;
        this.environment = environment;
        this.home = home;
    }

    @Override
    public String name() { return scheduler.name(); }

    @Override
    public Launch launch(Study study, RunOptions options, ExecutorSettings settings, Progress progress) throws ExecutorException {
        // the folder's lock while the submission prepares it: a local execution writing there refuses this one, and no
        // local execution can start while earlier results move (its tasks take no lock: each writes only its own runs)
        try (org.hmsim.platform.kernel.results.FolderLock held = org.hmsim.platform.kernel.results.FolderLock.acquire(options.out())) {
            return launchLocked(study, options, settings);
        }
    }

    private Launch launchLocked(Study study, RunOptions options, ExecutorSettings settings) throws ExecutorException {
        Path dir = options.out();
        JobFolder job = new JobFolder(dir);
        Path hmsim = home == null ? null : home.resolve("bin").resolve("hmsim");
        if (hmsim == null || !Files.isRegularFile(hmsim))
            throw new ExecutorException("cannot tell which bin/hmsim the " + name() + " tasks should run (hmsim.home=" + home
                    + "); start hmsim through bin/hmsim");
        refuseIfActive(job);
        if (options.resume() && job.exists()) refuseOtherVersion(job, study);
        // a --resume submits with the last submission's scheduler options (partition, time limit...), those it names
        // replacing the same ones (a cluster trial's --resume --partition dropped its --time and --mem without a word);
        // read before anything in the folder changes, so a damaged record changes nothing
        ExecutorSettings recorded = options.resume() && job.exists() ? job.recordedOptions(settings.arrayChunk()) : null;
        if (recorded != null && settings.arrayChunk() != 1 && settings.arrayChunk() != job.manifest().chunk())
            throw ExecutorException.refused("--array-chunk " + settings.arrayChunk() + ": a --resume keeps the folder's plan of "
                    + job.manifest().chunk() + " run(s) per task; to change it, run the study without --resume into another folder");
        ResultsFolder results = new ResultsFolder(dir, study);
        ResultsFolder.ensureWritable(dir);
        List<String> notes = new ArrayList<>(EarlierResults.prepare(dir, options.resume()));
        if (options.resume()) notes.addAll(results.loadCompleted());
        int chunk = settings.arrayChunk();
        List<Integer> indices = new ArrayList<>();
        int submission;
        if (options.resume() && job.exists()) {
            chunk = job.manifest().chunk(); // the task indices of the folder's plan; --array-chunk applies to a new submission
            TreeSet<Integer> tasks = new TreeSet<>();
            for (PlannedRun r : study.runs()) {
                if (results.complete(r)) continue;
                tasks.add(JobFolder.taskOf(r.index(), chunk));
                deleteError(results, r); // so the last task can tell that every run of this submission ended
            }
            indices.addAll(tasks);
            submission = job.submissions().size() + 1;
            if (recorded != null) {
                ExecutorSettings given = settings, kept = kept(recorded, given);
                settings = merged(kept, given);
                if (kept.partition() != null || !kept.schedulerArgs().isEmpty())
                    notes.add("submitted with the earlier submission's options:" + (kept.partition() == null ? "" : " --partition " + kept.partition())
                            + kept.schedulerArgs().stream().map(a -> " --sbatch-arg=" + a).reduce("", String::concat)
                            + (given.partition() == null && given.schedulerArgs().isEmpty() ? "" : ", and those given now"));
            }
        } else {
            if (options.resume()) {
                // A folder a local execution started: keep its finished runs, plan a batch execution around them.
                for (PlannedRun r : study.runs()) if (!results.complete(r)) deleteError(results, r);
            }
            job.clear();
            job.prepare(study, name(), chunk);
            for (int k = 1; k <= JobFolder.tasks(study.runs().size(), chunk); k++) {
                boolean left = false;
                for (int r : JobFolder.runsOfTask(k, chunk, study.runs().size())) left |= !results.complete(study.runs().get(r));
                if (left) indices.add(k);
            }
            submission = 1;
        }
        JobFolder.Manifest m = job.manifest();
        if (indices.isEmpty()) {
            org.hmsim.platform.kernel.runner.Assembly.assemble(study, dir, environment);
            return new Launch(null, null, List.of(), null, notes);
        }
        Provenance.write(dir, study, environment, Instant.now(), null, "submitted to " + name());
        List<String> command = new ArrayList<>(List.of(hmsim.toString(), "run-task", dir.toString(), "--study", m.study().toString(),
                "--chunk", Integer.toString(chunk), "--index", BatchJob.INDEX));
        if (!settings.report()) command.add("--no-report"); // the last task drew the report whatever hmsim run was told (review of silent inputs)
        BatchJob b = new BatchJob("hmsim-" + study.name(), dir, job.dir(), submission, indices, command,
                settings.partition(), settings.schedulerArgs());
        String id;
        try {
            id = scheduler.submit(b);
        } catch (Exception e) {
            // study.json must not claim a job that does not exist (status would wait for it forever)
            Provenance.write(dir, study, environment, Instant.now(), null, NOT_SUBMITTED + e.getMessage());
            String moved = notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
            String message = name() + ": the job was not submitted: " + e.getMessage() + moved;
            throw e instanceof IllegalArgumentException ? ExecutorException.rejected(message, e) : new ExecutorException(message, e);
        }
        job.record(new JobFolder.Submission(submission, id, indices));
        job.recordOptions(settings);
        return new Launch(null, id, indices, scriptOf(job, submission), notes);
    }

    /** The options of {@code earlier} that {@code now} does not name again (a partition; an argument by its option's name). */
    private static ExecutorSettings kept(ExecutorSettings earlier, ExecutorSettings now) {
        java.util.Set<String> named = new java.util.HashSet<>();
        for (String a : now.schedulerArgs()) named.add(optionName(a));
        return new ExecutorSettings(now.partition() != null ? null : earlier.partition(), now.arrayChunk(),
                earlier.schedulerArgs().stream().filter(a -> !named.contains(optionName(a))).toList(), now.report());
    }

    /** {@code kept} with the options given now after them. */
    private static ExecutorSettings merged(ExecutorSettings kept, ExecutorSettings now) {
        List<String> args = new ArrayList<>(kept.schedulerArgs());
        args.addAll(now.schedulerArgs());
        return new ExecutorSettings(now.partition() != null ? now.partition() : kept.partition(), now.arrayChunk(), args, now.report());
    }

    /** {@code --time} of {@code --time=1:00:00} or {@code --time 1:00:00}: an argument's option, which a later one replaces. */
    static String optionName(String arg) { return arg.strip().split("[=\\s]", 2)[0]; }

    /** The script the scheduler wrote for submission {@code n}, if it follows the naming {@code <name>-<n>.sh}. */
    private Path scriptOf(JobFolder job, int n) {
        Path p = job.dir().resolve(name().toLowerCase(Locale.ROOT) + "-" + n + ".sh");
        return Files.isRegularFile(p) ? p : null;
    }

    /** Two submissions writing the same runs would race: refuse while the last one still has tasks. */
    private void refuseIfActive(JobFolder job) throws ExecutorException {
        String busy = activeJob(job, scheduler);
        if (busy != null) throw ExecutorException.refused(busy);
    }

    /**
     * Why a local execution may not write into {@code job}'s folder now (null: it may). Its tasks would race the local
     * runs, and the local execution removes job/ under them (a review). So a job is assumed to go on unless its
     * scheduler says its tasks ended or every run of its last submission has a result: a scheduler that cannot be
     * asked (not installed, its tools failing) or that no longer knows the job refuses too, as does a job/ hmsim cannot
     * read. A job found ended is recorded so ({@code job/ended}): the runs without a result after a local execution are
     * that execution's, not the job's, so a later local run does not ask again (a new submission clears the record).
     */
    public static String localRunRefusal(JobFolder job, ExecutorRegistry executors) {
        if (!job.exists() || job.markedEnded()) return null;
        try {
            JobFolder.Manifest m = job.manifest();
            List<JobFolder.Submission> subs = job.submissions();
            if (subs.isEmpty()) return null;
            JobFolder.Submission last = subs.get(subs.size() - 1);
            String remove = "; when its tasks have ended, remove " + job.dir() + " to run here, or continue it with --executor "
                    + m.executor() + " --resume";
            BatchScheduler scheduler = executors.scheduler(m.executor());
            String refusal;
            if (scheduler != null) refusal = askScheduler(job, scheduler, last, m, remove);
            else if (ended(job, m, last)) refusal = null;
            else refusal = "the folder's job " + last.jobId() + " was submitted to '" + m.executor() + "', which is not installed here, and runs of it "
                    + "have no result, so whether its tasks still run cannot be told" + remove;
            if (refusal == null) job.markEnded();
            return refusal;
        } catch (RuntimeException damaged) {
            return job.dir() + " cannot be read (" + damaged.getMessage() + "), so whether its job still runs cannot be told; remove it to run here";
        }
    }

    /**
     * The refusal the scheduler's view of {@code last} gives (null: its tasks have ended). A scheduler that reports none
     * of its tasks (tools failing, or the job forgotten) leaves it to the folder: ended if every run of it has a result.
     */
    private static String askScheduler(JobFolder job, BatchScheduler scheduler, JobFolder.Submission last, JobFolder.Manifest m, String remove) {
        java.util.Map<Integer, String> states;
        try {
            states = scheduler.taskStates(last.jobId());
        } catch (RuntimeException failing) {
            if (ended(job, m, last)) return null;
            return "asking " + scheduler.name() + " about the folder's job " + last.jobId() + " failed (" + failing.getMessage() + ")" + remove;
        }
        String busy = stillRunning(job, last, states);
        if (busy != null) return busy;
        if (states.isEmpty() && !ended(job, m, last))
            return "the scheduler reports nothing of the folder's job " + last.jobId() + " (its tools failing, or the job forgotten) and runs of it "
                    + "have no result, so whether its tasks still run cannot be told" + remove;
        return null;
    }

    /** Whether every run of {@code last}'s tasks has a result (stats.json or error.txt). */
    private static boolean ended(JobFolder job, JobFolder.Manifest m, JobFolder.Submission last) {
        List<String[]> runs = job.runs();
        for (int k : last.indices())
            for (int r : JobFolder.runsOfTask(k, m.chunk(), runs.size())) {
                Path rd = job.results().resolve("runs").resolve(runs.get(r)[0]);
                if (!Files.isRegularFile(rd.resolve(ResultsFolder.STATS)) && !Files.isRegularFile(rd.resolve(ResultsFolder.ERROR))) return false;
            }
        return true;
    }

    /**
     * Whether {@code job}'s last submission still has tasks pending or running (what says so), or null: none, no job, or
     * a scheduler that cannot be asked (collect says its runs are missing then).
     */
    public static String activeJob(JobFolder job, ExecutorRegistry executors) {
        try {
            return job.exists() ? activeJob(job, executors.scheduler(job.manifest().executor())) : null;
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /**
     * Why {@code job}'s folder may not take another submission now: its last submission still has tasks pending or
     * running on {@code scheduler} (null: none, or no job).
     */
    private static String activeJob(JobFolder job, BatchScheduler scheduler) {
        if (scheduler == null || !job.exists()) return null;
        List<JobFolder.Submission> subs = job.submissions();
        if (subs.isEmpty()) return null;
        JobFolder.Submission last = subs.get(subs.size() - 1);
        // Slurm's tools failing (not a job forgotten): a --resume went ahead over tasks still pending (a cluster trial)
        if (scheduler instanceof SlurmScheduler slurm) {
            SlurmScheduler.Answer a = slurm.query(last.jobId());
            if (!a.answered() && !ended(job, job.manifest(), last))
                return "squeue and sacct both failed (or are not installed), so whether job " + last.jobId() + "'s tasks still run in "
                        + job.results() + " cannot be told; try again when they answer (hmsim status DIR)";
            return stillRunning(job, last, a.states());
        }
        return stillRunning(job, last, scheduler.taskStates(last.jobId()));
    }

    /** Why {@code job} is busy given the scheduler's {@code states} of {@code last}'s tasks (null: none pending or running). */
    private static String stillRunning(JobFolder job, JobFolder.Submission last, Map<Integer, String> states) {
        long active = states.values().stream().filter(ACTIVE::contains).count();
        return active == 0 ? null : "job " + last.jobId() + " still has " + active + " task(s) pending or running in "
                + job.results() + "; wait for it (hmsim status DIR) or cancel it first";
    }

    private static void refuseOtherVersion(JobFolder job, Study study) throws ExecutorException {
        JobFolder.Manifest m = job.manifest();
        if (m.runs() != study.runs().size() || !m.sha256().equals(study.sha256()))
            throw ExecutorException.refused(job.results() + " holds another version of the study (" + m.runs() + " runs, SHA-256 " + m.sha256()
                    + "); run it without --resume, or with another --out");
    }

    private static void deleteError(ResultsFolder results, PlannedRun r) {
        try {
            for (String f : new String[] {ResultsFolder.ERROR, ResultsFolder.PARTIAL_STATS, ResultsFolder.PARTIAL_SERIES})
                Files.deleteIfExists(results.runDir(r).resolve(f));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
