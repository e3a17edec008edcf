package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.hmsim.platform.kernel.executor.ExecutorException;
import org.hmsim.platform.kernel.executor.ExecutorSettings;
import org.hmsim.platform.kernel.executor.Launch;
import org.hmsim.platform.kernel.executor.LocalExecutor;
import org.hmsim.platform.kernel.executor.StudyExecutor;
import org.hmsim.platform.kernel.results.EarlierResults;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.results.ResultsFolderException;
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

/** {@code run STUDY [--out DIR] [--jobs N] [--resume] [--executor NAME [--partition P] [--array-chunk N] [--sbatch-arg ARG]...]}. */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Validates a study, then runs it in parallel and writes its results.")
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

    @Option(names = "--no-report", description = "do not write report.html and figures/ at the end (hmsim report DIR writes them later)")
    boolean noReport;

    @Option(names = "--executor", paramLabel = "NAME", defaultValue = "local",
            description = "local (threads of this process, the default), slurm (a job array; docs/slurm.md), or a bundle's scheduler")
    String executor;

    @Option(names = "--partition", paramLabel = "P", description = "batch executors: the partition (queue) of the job")
    String partition;

    @Option(names = "--array-chunk", paramLabel = "N", defaultValue = "1", description = "batch executors: runs per array task (default 1)")
    int arrayChunk;

    @Option(names = "--sbatch-arg", paramLabel = "ARG", arity = "1", description = "batch executors: an option for the scheduler, e.g. --sbatch-arg=--time=2:00:00 (repeatable)")
    List<String> sbatchArgs = new ArrayList<>();

    @Option(names = "--replay-swaps", paramLabel = "DIR",
            description = "apply the live swaps recorded in DIR/runs/<run>/swaps.csv (by hand or by bundle events) at the same points")
    Path replaySwaps;

    RunCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() throws InterruptedException {
        PrintStream o = ctx.out(), e = ctx.err();
        Study s;
        try {
            s = resume ? ctx.kernel().validateBegun(study, study.toString()) : ctx.kernel().validate(study);
        } catch (StudyException ex) {
            e.println(ex.getMessage());
            return Commands.BAD_INPUT;
        }
        int n = jobs != null ? jobs : Runtime.getRuntime().availableProcessors();
        if (n < 1) {
            e.println("--jobs: must be at least 1");
            return Commands.BAD_INPUT;
        }
        if (out != null && out.toString().isBlank()) {
            e.println("--out: empty; give a folder (default: results/" + s.name() + "/)");
            return Commands.BAD_INPUT;
        }
        Path dir = (out != null ? out : Path.of("results", s.name())).toAbsolutePath().normalize();
        if (resume && !java.nio.file.Files.exists(dir.resolve(org.hmsim.platform.kernel.results.ResultsFolder.PROVENANCE))) {
            try { // nothing begun there: the study is new to this version, checked as a plain run checks it
                s = ctx.kernel().validate(study);
            } catch (StudyException ex) {
                e.println(ex.getMessage());
                return Commands.BAD_INPUT;
            }
        }
        java.util.Map<String, java.util.List<org.hmsim.platform.machine.ScriptedSwap>> replay = new java.util.HashMap<>();
        // replaying a folder into itself: the run moves its swaps to previous/, and a resume then finds none for the runs
        // still to come, which ran unswapped (an artifact evaluator's trial)
        if (replaySwaps != null && replaySwaps.toAbsolutePath().normalize().equals(dir)) {
            e.println("--replay-swaps: " + replaySwaps + " is the --out folder itself: this run would move its recorded swaps to "
                    + org.hmsim.platform.kernel.results.EarlierResults.PREVIOUS + "/; copy it elsewhere and replay from the copy");
            return Commands.BAD_INPUT;
        }
        if (replaySwaps != null) {
            if (!java.nio.file.Files.isDirectory(replaySwaps.resolve("runs"))) {
                e.println("--replay-swaps: " + replaySwaps + " is not a results folder (no runs/)");
                return Commands.BAD_INPUT;
            }
            try {
                ResultsFolder recorded = new ResultsFolder(replaySwaps, s);
                for (org.hmsim.platform.kernel.study.PlannedRun r : s.runs()) {
                    List<org.hmsim.platform.machine.ScriptedSwap> swaps = org.hmsim.platform.kernel.results.SwapFiles.toReplay(recorded.runDir(r), s.epochPs());
                    String unusable = unreplayable(recorded, r, swaps, s.epochPs());
                    if (unusable != null) {
                        e.println("--replay-swaps: " + unusable);
                        return Commands.BAD_INPUT;
                    }
                    replay.put(r.id(), swaps);
                }
            } catch (org.hmsim.platform.kernel.results.ResultsFolderException damaged) {
                e.println("--replay-swaps: " + damaged.getMessage());
                return Commands.BAD_INPUT;
            }
        }
        StudyExecutor chosen = ctx.kernel().executor(executor);
        if (chosen == null) {
            e.println("--executor: unknown executor '" + executor + "' (installed: " + String.join(", ", ctx.kernel().executors().names()) + ")");
            return Commands.BAD_INPUT;
        }
        if (arrayChunk < 1) {
            e.println("--array-chunk: must be at least 1");
            return Commands.BAD_INPUT;
        }
        // the options' own consistency first: a refusal there must not create --out (ensureWritable does)
        ExecutorSettings settings = new ExecutorSettings(partition, arrayChunk, sbatchArgs, !noReport);
        boolean local = chosen instanceof LocalExecutor;
        if (local && (partition != null || arrayChunk != 1 || !sbatchArgs.isEmpty())) { // they would be silently ignored
            e.println((partition != null ? "--partition" : arrayChunk != 1 ? "--array-chunk" : "--sbatch-arg")
                    + ": only for batch executors (--executor slurm); the local executor runs here");
            return Commands.BAD_INPUT;
        }
        for (String a : sbatchArgs) {
            // a line break would end its directive line and run the rest as a command (a cluster trial's ran, and every later
            // option was ignored)
            String problem = a.indexOf('\n') >= 0 || a.indexOf('\r') >= 0 ? "contains a line break"
                    : executor.equals(org.hmsim.platform.kernel.executor.SlurmScheduler.NAME) ? org.hmsim.platform.kernel.executor.SlurmScheduler.argumentProblem(a) : null;
            if (problem != null) {
                e.println("--sbatch-arg " + a.replace("\n", "\\n").replace("\r", "\\r") + ": " + problem);
                return Commands.BAD_INPUT;
            }
        }
        if (jobs != null && !local) { // silently ignored before: each array task runs on a node of its own
            e.println("--jobs: only for the local executor; --executor " + executor + " runs one array task per chunk of runs where the"
                    + " scheduler places them (fewer, longer tasks: --array-chunk N)");
            return Commands.BAD_INPUT;
        }
        if (replaySwaps != null && !local) { // its tasks run in other processes, which the replay does not reach
            e.println("--replay-swaps: runs only with the local executor, not --executor " + executor);
            return Commands.BAD_INPUT;
        }
        String unusable = outProblem(s, dir, replay);
        if (unusable != null) {
            e.println(unusable);
            return Commands.BAD_INPUT;
        }
        for (String note : s.notes()) e.println(s.display() + ": note: " + note); // not errors: the runs go ahead
        boolean quiet = ctx.background() || !local;
        Progress progress = quiet ? Progress.silent() : System.console() != null ? BarProgress.create(o) : new LineProgress(o);
        Launch launch;
        try {
            // a batch job's tasks still writing this folder would race the local runs (a review: job/ was removed under them);
            // asked under the folder's lock, so no submission can come between the answer and the local execution
            java.util.function.Function<Path, String> guard = !local ? null : folder -> org.hmsim.platform.kernel.executor.BatchExecutor
                    .localRunRefusal(new org.hmsim.platform.kernel.executor.JobFolder(folder), ctx.kernel().executors());
            launch = chosen.launch(s, new RunOptions(dir, n, resume, replay, guard, replaySource()), settings, progress);
        } catch (ExecutorException busy) {
            e.println(busy.getMessage());
            return busy.refusal() ? Commands.BAD_INPUT : Commands.ERROR;
        } catch (ResultsFolderException bad) {
            e.println("run: " + bad.getMessage());
            return Commands.BAD_INPUT;
        }
        if (quiet) for (String note : launch.notes()) o.println(note); // else the progress shows them, before its first line
        if (!local) return BatchSummary.submitted(s, dir, chosen.name(), launch, o);
        StudyExecution ex = launch.execution();
        if (ctx.background()) {
            o.println("study " + s.name() + " started: " + s.shape() + " on " + n + " thread(s) -> " + dir);
            o.println("follow it with sim:status, cancel it with sim:stop");
            Thread t = new Thread(() -> {
                try {
                    int code = ex.await();
                    // the shell ends with the code of the last failed command: a study that failed or was stopped counts
                    if (code != Commands.OK) System.setProperty(org.hmsim.platform.kernel.osgi.GogoCommands.SHELL_EXIT_CODE, Integer.toString(code));
                    if (interrupted(ex, e)) return;
                    summary(ex, o, e);
                    if (unwritable(ex, e)) return;
                    if (!noReport) ReportCommand.afterRun(ex.out(), o, e);
                } catch (InterruptedException ignored) {
                    Thread.currentThread().interrupt();
                }
            }, "hmsim-study-report");
            t.setDaemon(true);
            ex.afterRun(t); // sim:await waits for the report too
            t.start();
            return Commands.OK;
        }
        int code = ex.await();
        if (interrupted(ex, e)) return code;
        summary(ex, o, e);
        if (unwritable(ex, e)) return code;
        if (!noReport) ReportCommand.afterRun(ex.out(), o, e);
        return code;
    }

    /**
     * A study stopped because its results folder could not be written (a full disk, a folder made read-only): said in one
     * line, which names the file and why, as an --out that cannot be written is refused before anything runs (exit 2); no
     * report, which could not be written either. Returns whether it was so.
     */
    private boolean unwritable(StudyExecution ex, PrintStream e) {
        if (ex.unwritable() == null) return false;
        int left = ex.count(RunState.PENDING);
        e.println("hmsim run: " + ex.unwritable().getMessage() + "; the study stopped there"
                + (left == 0 ? "" : ", " + left + " run(s) not done: once the folder can be written again, hmsim run " + ex.study().display()
                + " --out " + ex.out() + " --resume" + (replaySwaps == null ? "" : " --replay-swaps " + replaySource()) + " runs them"));
        e.flush();
        return true;
    }

    /**
     * Why {@code swaps}, recorded for {@code run}'s id in {@code recorded}, cannot be replayed into {@code run}, or null:
     * recorded under another epoch (they would land at other times), in another run that had the same id (a changed
     * study, another study: matching by id alone replayed one run's swaps into another), or naming a policy or parameters
     * this container does not have (each would be refused at run time, silently unlike the recorded run).
     */
    private String unreplayable(ResultsFolder recorded, PlannedRun run, List<org.hmsim.platform.machine.ScriptedSwap> swaps, long epochPs) {
        if (swaps.isEmpty()) return null;
        Path runDir = recorded.runDir(run), config = runDir.resolve(ResultsFolder.CONFIG);
        if (java.nio.file.Files.isRegularFile(config)) {
            Object epoch = org.hmsim.platform.kernel.results.Json.read(config).get("epoch_ps");
            if (epoch instanceof Number n && n.longValue() != epochPs)
                return config + " records epoch_ps " + n.longValue() + ", this study's epoch is " + epochPs + " ps: the swaps would land at other times";
        }
        String other = recorded.replayMismatch(run);
        if (other != null) return other;
        for (var sw : swaps)
            for (var c : sw.to())
                try {
                    ctx.kernel().policies().resolve(sw.slot(), c.policy(), c.params());
                } catch (org.hmsim.platform.kernel.registry.InvalidChoiceException bad) {
                    // the row by its swap and the parameter at fault (a trial's 'value 0 is out of range' named neither)
                    return runDir.resolve(org.hmsim.platform.kernel.results.SwapFiles.SWAPS) + ": the " + sw.slot().id() + " swap to " + c.policy()
                            + (c.params().isEmpty() ? "" : " with " + c.params()) + (bad.parameter() == null ? "" : ", parameter '" + bad.parameter() + "'")
                            + ": " + bad.getMessage();
                }
        return null;
    }

    /**
     * Whether the container stopped under the study (Ctrl-C, SIGTERM, the shell's end); if so, says what is
     * kept in one line. Its classes are going away: no summary and no report, which would fail half-way. The
     * execution knows it first: the bundles of a run's policies leave before the kernel, and that aborts the run
     * before the kernel is marked closing (a Ctrl-C then drew the report and warned of a NoClassDefFoundError).
     */
    private boolean interrupted(StudyExecution ex, PrintStream e) {
        if (!ctx.kernel().closing() && !ex.interrupted()) return false;
        e.println("hmsim run: interrupted; the runs that finished are kept in " + ex.out() + " (run --resume"
                + (replaySwaps == null ? "" : " --replay-swaps " + replaySource()) + " continues)");
        e.flush();
        return true;
    }

    /**
     * Why the results folder cannot take this execution, or null; checked before anything runs or changes.
     * Resuming, the runs already there must be runs of this study: mixed into one runs.csv, results of
     * two versions of a study could not be told apart.
     */
    /** The folder whose swaps this execution replays, as study.json records it (absolute), or null. */
    private String replaySource() { return replaySwaps == null ? null : replaySwaps.toAbsolutePath().normalize().toString(); }

    /**
     * A resume replays the swaps the execution that began the folder replayed, from the same folder, or none if it replayed
     * none: resumed without {@code --replay-swaps}, the runs still to come had run unswapped beside replayed ones, and
     * nothing said so (a determinism trial).
     */
    private String replayConflict(Path dir) {
        if (!java.nio.file.Files.exists(dir.resolve(org.hmsim.platform.kernel.results.ResultsFolder.PROVENANCE))) return null;
        String then = org.hmsim.platform.kernel.results.Provenance.recordedReplaySource(dir), now = replaySource();
        if (java.util.Objects.equals(then, now)) return null;
        if (then == null) return "the execution that began this folder replayed no swaps, and this one would replay those of " + now;
        return "the execution that began this folder replayed the swaps of " + then + " (--replay-swaps " + then + ")"
                + (now == null ? ", and this one would replay none: resume with --replay-swaps " + then : ", not of " + now);
    }

    private String outProblem(Study s, Path dir, java.util.Map<String, java.util.List<org.hmsim.platform.machine.ScriptedSwap>> replay) {
        String inside = EarlierResults.insideAnother(dir);
        if (inside != null) return "--out: " + inside;
        // a folder another execution writes is refused by the executor's lock, with its own message: checking its files
        // here would walk them while that execution renames them (a review saw a NoSuchFileException crash)
        if (org.hmsim.platform.kernel.results.FolderLock.held(dir)) return null;
        try {
            ResultsFolder.ensureWritable(dir);
            EarlierResults.check(dir);
            // a typo in --out moved another study's results to previous/, dropping what that held, and said so after the fact
            // (a newcomer's trial): another study's folder is refused before anything changes
            String owner = resume ? null : org.hmsim.platform.kernel.results.Provenance.recordedStudy(dir);
            if (owner != null && !owner.equals(s.name()))
                return "--out: " + dir + " holds the results of study '" + owner + "', not of '" + s.name() + "': a run would move them to "
                        + EarlierResults.PREVIOUS + "/ (replacing what is there); choose another --out, or remove them first; nothing was changed";
            String conflict = resume ? replayConflict(dir) : null;
            if (resume && conflict == null) conflict = new ResultsFolder(dir, s, replay).resumeConflict(ctx.kernel().environment());
            if (conflict == null) return null;
            return "--resume: " + conflict + "; run without --resume (the earlier results move to " + dir.resolve(EarlierResults.PREVIOUS)
                    + "/) or choose another --out";
        } catch (ResultsFolderException ex) {
            return "--out: " + ex.getMessage();
        } catch (java.io.UncheckedIOException changing) { // an execution began writing there while we looked
            return "--out: " + dir + " changed while it was being checked (" + changing.getCause() + "): is another hmsim writing there? "
                    + "nothing was changed";
        }
    }

    /**
     * Names the runs that ended before a swap the study scripts for a time or an epoch: their numbers are those of the
     * run without it, and nothing else says so (swaps.csv lists only the swaps that came).
     */
    static void swapsNotReached(StudyExecution ex, PrintStream o) {
        if (ex.study().swaps().isEmpty()) return;
        List<String> runs = new ArrayList<>();
        for (PlannedRun r : ex.study().runs())
            if (doneSection(ex, r, "metrics") instanceof Map<?, ?> m && m.get("swaps_not_reached") instanceof Number n && n.doubleValue() > 0) runs.add(r.id());
        if (!runs.isEmpty())
            o.println("note: " + count(runs) + " ended before a swap the study scripts for a time or an epoch (" + idList(runs)
                    + "): not performed there, so those runs read as runs without it (runs.csv: swaps_not_reached)");
    }

    /**
     * Says when replicated seeds changed nothing: a workload that draws nothing on a machine without DRAM jitter is the
     * same run at every seed, so the report's whiskers have no width and could be read as "no spread" (the irregular ETC
     * models spread 1.2-2.6x under 2 ns of jitter). Seeds are the fastest dimension: each group of consecutive runs
     * differs only in its seed.
     */
    static void seedsThatChangedNothing(StudyExecution ex, PrintStream o) {
        int seeds = ex.study().seeds().size();
        if (seeds < 2) return;
        List<PlannedRun> runs = ex.study().runs();
        int groups = 0, same = 0;
        for (int g = 0; g + seeds <= runs.size(); g += seeds) {
            java.util.Set<Object> distinct = new java.util.HashSet<>();
            for (int k = 0; k < seeds && distinct != null; k++) {
                Object m = doneSection(ex, runs.get(g + k), "metrics");
                if (m == null) distinct = null; // a run that failed or cannot be read: the group says nothing
                else distinct.add(m);
            }
            if (distinct == null) continue;
            groups++;
            if (distinct.size() == 1) same++;
        }
        if (same > 0)
            o.println("note: the " + seeds + " seeds gave the same numbers in " + (same == groups ? "every run" : same + " of " + groups + " groups of runs")
                    + " (nothing there draws on the seed), so the report's whiskers have no width there; a DRAM jitter "
                    + "(overrides: {jitter: 2ns}; docs/study-files.md, 'What a seed varies') shows how far the numbers move");
    }

    /**
     * Names each {@code statistics:} entry that matched no statistic of any finished run: a misspelt name only left its
     * runs.csv column out (a trial's {@code policy.residency.victim_chosen} for {@code victims_chosen}), and a figure of it
     * is drawn empty.
     */
    static void statisticsThatMatchedNothing(StudyExecution ex, PrintStream o) {
        List<String> unmatched = new ArrayList<>(ex.study().statistics());
        boolean anyDone = false;
        for (PlannedRun r : ex.study().runs()) {
            if (unmatched.isEmpty()) return;
            if (!(doneSection(ex, r, "metrics") instanceof Map<?, ?> m)) continue;
            anyDone = true;
            unmatched.removeIf(entry -> {
                java.util.regex.Pattern p = org.hmsim.platform.report.MetricNames.glob(entry);
                return m.keySet().stream().anyMatch(k -> p.matcher(String.valueOf(k)).matches());
            });
        }
        if (anyDone && !unmatched.isEmpty())
            o.println("note: statistics: " + unmatched.stream().map(e -> "'" + e + "'").collect(java.util.stream.Collectors.joining(", "))
                    + " matched no statistic of any run, so runs.csv has no column for " + (unmatched.size() == 1 ? "it" : "them")
                    + " (a run's statistics.csv lists the names its stats.json has)");
    }

    /**
     * Says when a run's placement policy chose no page's pool: every page was mapped before its first touch (a migration
     * policy's {@code host_data: true} maps them all into the capacity pool before the first kernel), so the run is
     * labelled with a placement that did nothing (a researcher's bw-aware + threshold ran as DDR-only, 51 against 18.8 us,
     * without a word). The default placement is not named: it is what runs without a choice.
     */
    static void placementThatChoseNothing(StudyExecution ex, PrintStream o) {
        Map<String, List<String>> byPolicy = new java.util.LinkedHashMap<>();
        for (PlannedRun r : ex.study().runs()) {
            var placement = r.policies().get(org.hmsim.api.policy.Slot.PLACEMENT);
            if (placement == null || placement.entry().name().equals(org.hmsim.platform.kernel.registry.Defaults.name(org.hmsim.api.policy.Slot.PLACEMENT)))
                continue;
            if (doneSection(ex, r, "stats") instanceof Map<?, ?> st && st.get("os.first_touch_faults") instanceof Number n && n.doubleValue() == 0
                    && st.get("os.host_maps") instanceof Number host && host.doubleValue() > 0)
                byPolicy.computeIfAbsent(placement.label(), k -> new ArrayList<>()).add(r.id());
        }
        byPolicy.forEach((policy, runs) -> o.println("note: placement " + policy + " chose no page's pool in " + count(runs) + " (" + idList(runs)
                + "): every page was mapped before its first touch (a migration policy's host_data: true maps them all into the capacity pool"
                + " first), so those runs are labelled with a placement that did nothing; host_data: false lets the placement choose"));
    }

    /**
     * Says when a residency policy named victims that were not resident: the driver then evicts its oldest page, so the
     * run is partly FIFO under the policy's label (a trial's MRU policy fell back in 106 of 233 evictions, and a buggy one
     * in every eviction, with {@code uvm.victims_rejected} the only trace, in stats.json).
     */
    static void victimsRejected(StudyExecution ex, PrintStream o) {
        Map<String, List<String>> byPolicy = new java.util.LinkedHashMap<>();
        Map<String, Long> rejected = new java.util.HashMap<>();
        for (PlannedRun r : ex.study().runs()) {
            if (!(doneSection(ex, r, "stats") instanceof Map<?, ?> st && st.get("uvm.victims_rejected") instanceof Number n && n.longValue() > 0)) continue;
            var residency = r.policies().get(org.hmsim.api.policy.Slot.RESIDENCY);
            String label = residency == null ? org.hmsim.platform.kernel.registry.Defaults.name(org.hmsim.api.policy.Slot.RESIDENCY) : residency.label();
            byPolicy.computeIfAbsent(label, k -> new ArrayList<>()).add(r.id());
            rejected.merge(label, n.longValue(), Long::sum);
        }
        byPolicy.forEach((policy, runs) -> o.println("note: residency " + policy + " named " + rejected.get(policy) + " victims that were not resident in "
                + count(runs) + " (" + idList(runs) + "): each time the driver evicted its oldest page instead, so those evictions are FIFO's"
                + " (stats: uvm.victims_rejected; a victim must be a page resident in GPU memory, -1 leaves the choice to the driver)"));
    }

    /**
     * Section {@code key} ("metrics" or "stats") of a finished run's stats.json, or null (not done, or unreadable: said by
     * status and --resume; the notes that read it are only notes).
     */
    private static Object doneSection(StudyExecution ex, PlannedRun r, String key) {
        if (ex.state(r.index()) != RunState.DONE) return null;
        try {
            return Json.read(ex.out().resolve("runs").resolve(r.id()).resolve("stats.json")).get(key);
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    /** {@code 3 runs}, {@code 1 run}. */
    private static String count(List<String> ids) { return ids.size() + " run" + (ids.size() == 1 ? "" : "s"); }

    /** A note's runs, the first eight of them: {@code 0001, 0004, 0007}. */
    private static String idList(List<String> ids) {
        return String.join(", ", ids.size() > 8 ? ids.subList(0, 8) : ids) + (ids.size() > 8 ? ", ..." : "");
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
        swapsNotReached(ex, o);
        seedsThatChangedNothing(ex, o);
        placementThatChoseNothing(ex, o);
        victimsRejected(ex, o);
        statisticsThatMatchedNothing(ex, o);
        o.println("results: " + ex.out());
        o.flush();
    }
}
