package org.hmsim.platform.kernel.command;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.hmsim.api.executor.BatchScheduler;
import org.hmsim.platform.kernel.executor.JobFolder;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.results.ResultsFolderException;

/**
 * {@code status DIR}: where the runs of a results folder stand, from the folder itself (stats.json: done;
 * error.txt: failed; config.json only: running; nothing: pending) and, for a batch execution, from the
 * scheduler (squeue/sacct for Slurm): a run whose task the scheduler reports ended (cancelled, timed out,
 * failed, node lost) without leaving a result counts as failed, a run whose task is still queued as pending.
 */
final class FolderStatus {
    /** Task states after which a task writes nothing more. */
    private static final List<String> ENDED = List.of("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY",
            "PREEMPTED", "BOOT_FAIL", "DEADLINE");

    private FolderStatus() {}

    record RunState(String id, String label, String state, String why) {}

    static int print(Commands.Context ctx, Path dir) {
        PrintStream o = ctx.out();
        if (!Files.isDirectory(dir)) {
            ctx.err().println("status: " + dir + " is not a results folder");
            return Commands.BAD_INPUT;
        }
        JobFolder job = new JobFolder(dir);
        List<String[]> runs;
        try {
            runs = job.exists() ? job.runs() : runsFromProvenance(dir);
        } catch (ResultsFolderException damaged) {
            ctx.err().println("status: " + damaged.getMessage());
            return Commands.BAD_INPUT;
        }
        if (runs == null) {
            ctx.err().println("status: " + dir + " has neither job/ nor study.json: not a results folder");
            return Commands.BAD_INPUT;
        }
        Map<Integer, String> taskStates = new HashMap<>();
        Map<Integer, String> taskIds = new HashMap<>();
        String lastJob = null;
        Map<String, Integer> byState = new TreeMap<>(), earlierByState = new TreeMap<>();
        int chunk = 1;
        if (job.exists()) {
            JobFolder.Manifest m = job.manifest();
            chunk = m.chunk();
            BatchScheduler sched = ctx.kernel().executors().scheduler(m.executor());
            for (JobFolder.Submission sub : job.submissions()) {
                lastJob = sub.jobId();
                Map<Integer, String> states = sched == null ? Map.of() : sched.taskStates(sub.jobId());
                for (int k : sub.indices()) {
                    // A later submission of the same task supersedes an earlier one.
                    taskIds.put(k, sub.jobId() + "_" + k);
                    if (states.containsKey(k)) taskStates.put(k, states.get(k));
                    else taskStates.remove(k);
                }
            }
            // the last job's tasks apart from those an earlier submission ran and none resubmitted (a trial read a
            // 4-task job's line "6 completed")
            for (Map.Entry<Integer, String> t : taskStates.entrySet())
                (taskIds.get(t.getKey()).startsWith(lastJob + "_") ? byState : earlierByState).merge(t.getValue(), 1, Integer::sum);
        }
        List<RunState> states = new ArrayList<>();
        // a run begun (config.json) with no execution left to end it: a killed local run, not a running one (an audit)
        boolean writer = writer(dir);
        for (int i = 0; i < runs.size(); i++) {
            String id = runs.get(i)[0], label = runs.get(i).length > 1 ? runs.get(i)[1] : "";
            Path rd = dir.resolve("runs").resolve(id);
            int task = JobFolder.taskOf(i, chunk);
            String ts = taskStates.get(task);
            String state, why = null;
            Path stats = rd.resolve(ResultsFolder.STATS);
            if (Files.isRegularFile(stats) && endsWhole(stats)) state = "done";
            else if (Files.isRegularFile(stats)) {
                state = "damaged";
                why = stats + " is cut short (it does not end its JSON object)";
            } else if (Files.isRegularFile(rd.resolve(ResultsFolder.ERROR))) {
                state = "failed";
                why = errorLine(rd.resolve(ResultsFolder.ERROR));
            } else if (ts != null && ENDED.contains(ts)) {
                state = "failed";
                why = "task " + taskIds.get(task) + " ended " + ts + " without a result for this run";
            } else if (ts != null && !ts.equals("RUNNING")) state = "pending";
            else if (!Files.isRegularFile(rd.resolve(ResultsFolder.CONFIG))) state = "pending";
            else state = writer ? "running" : "interrupted";
            // a local folder's study.json lists no labels; the few runs shown by name have a config.json that has one
            if (label.isEmpty() && !state.equals("done") && !state.equals("pending")) label = configLabel(rd);
            states.add(new RunState(id, label, state, why));
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (String s : List.of("done", "running", "interrupted", "pending", "failed", "damaged")) counts.put(s, 0);
        for (RunState r : states) counts.merge(r.state(), 1, Integer::sum);
        StringBuilder head = new StringBuilder(dir + ": " + runs.size() + " runs: ");
        counts.forEach((k, v) -> { if (v > 0 || !k.equals("interrupted") && !k.equals("damaged")) head.append(v).append(' ').append(k).append(", "); });
        head.setLength(head.length() - 2);
        o.println(head);
        if (lastJob != null) {
            StringBuilder b = new StringBuilder("job " + lastJob + " (" + job.manifest().executor() + ")");
            if (byState.isEmpty() && earlierByState.isEmpty())
                b.append(": the scheduler reports no task (its tools missing, failing or not answering within 60 s each, or the job forgotten)");
            else {
                b.append(" tasks:").append(byState.isEmpty() ? " none reported" : counted(byState));
                if (!earlierByState.isEmpty()) b.append("; earlier submissions' tasks:").append(counted(earlierByState));
            }
            o.println(b);
        }
        // runs.csv and runs/ may be half-way into previous/: the runs then look pending, and --resume would not continue them
        boolean moving = !writer && org.hmsim.platform.kernel.results.EarlierResults.moveInterrupted(dir);
        if (moving) o.println("previous/: moving the earlier results there was interrupted (part of them are in " + dir.resolve(".previous.new")
                + "): the next hmsim run into this folder finishes the move, with or without --resume, and runs every run again");
        String status = provenanceStatus(dir);
        // a refused submission (sbatch failed): its runs are pending in no queue, so nothing will move
        boolean notSubmitted = status != null && status.startsWith(org.hmsim.platform.kernel.executor.BatchExecutor.NOT_SUBMITTED);
        if (notSubmitted) o.println("job: " + status);
        boolean assembled = Files.isRegularFile(dir.resolve(ResultsFolder.TABLE)) && "finished".equals(status);
        boolean allEnded = counts.get("done") + counts.get("failed") == runs.size();
        int damaged = counts.get("damaged");
        String unlisted = assembled || !writer ? unlisted(dir, states, assembled) : null;
        if (moving) { // the runs' state above is that of a folder half emptied, not of an execution
        } else if (unlisted != null) o.println("runs.csv: " + unlisted);
        else o.println("runs.csv: " + (damaged > 0 ? (assembled ? "assembled, but " : "") + damaged + " run(s) damaged since they ended: hmsim run STUDY --out "
                + org.hmsim.platform.kernel.executor.ShellWord.of(dir) + " --resume runs them again" : assembled ? "assembled" : allEnded ? "not assembled yet (hmsim collect " + org.hmsim.platform.kernel.executor.ShellWord.of(dir) + ")"
                : notSubmitted ? "nothing is queued: hmsim run STUDY --out " + org.hmsim.platform.kernel.executor.ShellWord.of(dir) + " --executor NAME --resume submits the runs left"
                : !writer && status != null && status.startsWith(UNWRITABLE) ? "not assembled: the study " + status + " (hmsim run STUDY --out "
                        + org.hmsim.platform.kernel.executor.ShellWord.of(dir) + " --resume continues it once the folder can be written)"
                : !writer ? "no execution is writing here (interrupted?): hmsim run STUDY --out " + org.hmsim.platform.kernel.executor.ShellWord.of(dir) + " --resume continues it"
                        : "assembled when every run has ended"));
        for (RunState r : states) if (r.state().equals("failed")) o.println("  failed " + r.id() + " " + r.label() + ": " + r.why());
        for (RunState r : states) if (r.state().equals("running")) o.println("  running " + r.id() + " " + r.label());
        for (RunState r : states)
            if (r.state().equals("interrupted")) o.println("  interrupted " + r.id() + " " + r.label() + " (begun, never ended: --resume runs it again)");
        for (RunState r : states) if (r.state().equals("damaged")) o.println("  damaged " + r.id() + " " + r.label() + ": " + r.why() + " (--resume runs it again)");
        return Commands.OK;
    }

    /**
     * What is wrong with runs.csv when it lacks the row of a run that ended (cut short at a line break, which leaves every
     * row whole, or out of date), or when it cannot be read; null if neither or it is not there. Its rows are written as
     * runs end, so every done run has one; once the study {@code finished}, every failed one too (before, a failed run a
     * stopped --resume had not yet run again has none). Not asked while an execution writes it: it lags a run's end.
     */
    private static String unlisted(Path dir, List<RunState> states, boolean finished) {
        Path table = dir.resolve(ResultsFolder.TABLE);
        if (!Files.isRegularFile(table)) return null;
        java.util.Set<String> rows;
        try {
            rows = new java.util.HashSet<>(org.hmsim.platform.report.Results.runIds(table));
        } catch (org.hmsim.platform.report.BadResultsException damaged) {
            return "damaged: " + damaged.getMessage();
        }
        List<String> missing = new ArrayList<>();
        for (RunState r : states)
            if ((r.state().equals("done") || finished && r.state().equals("failed")) && !rows.contains(r.id())) missing.add(r.id());
        // a row of another run than its id names (a runs.csv copied from a reordered study) is out of date too: report refuses it
        if (missing.isEmpty()) return stale(dir);
        return "cut short or out of date: no row for run(s) " + org.hmsim.platform.report.Results.listed(missing) + ", which ended: hmsim collect "
                + dir + " rebuilds it from runs/";
    }

    /** The first row of runs.csv that is not the run its id names, as report refuses it, or null. */
    private static String stale(Path dir) {
        String stale = org.hmsim.platform.report.Results.staleRow(dir);
        return stale == null ? null : stale.substring(stale.indexOf(": ") + 2); // the line begins "runs.csv: "
    }

    /**
     * Whether a stats.json ends its top-level JSON object: one cut short (a full disk, a partial copy) does not. hmsim
     * writes it indented, so only the outermost brace stands at the start of a line (a cut after an inner object's
     * brace leaves an indented one last). Only the end is read, so status stays fast on large studies; collect and
     * --resume read each file whole.
     */
    static boolean endsWhole(Path stats) {
        try (java.nio.channels.SeekableByteChannel c = Files.newByteChannel(stats)) {
            // the last 64 bytes, unless blanks leave too little of them to judge (trailing blank lines): then up to 64 KB
            for (int want : new int[] {64, 1 << 16}) {
                String end = tail(c, want).stripTrailing();
                if (end.length() >= 3 || want >= c.size()) {
                    if (end.endsWith("\n}") || end.equals("{}") || end.equals("{ }")) return true; // as hmsim writes it
                    // written otherwise (compact, by a script): read it whole, as --resume does, which took it as done
                    // while status called it cut short
                    return end.endsWith("}") && parses(stats);
                }
            }
            return false;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    private static boolean parses(Path stats) {
        try {
            org.hmsim.platform.kernel.results.Json.read(stats);
            return true;
        } catch (org.hmsim.platform.kernel.results.ResultsFolderException e) {
            return false;
        }
    }

    private static String tail(java.nio.channels.SeekableByteChannel c, int want) throws java.io.IOException {
        long size = c.size();
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate((int) Math.min(size, want));
        c.position(size - b.capacity());
        while (b.hasRemaining() && c.read(b) > 0) { }
        return new String(b.array(), 0, b.position(), StandardCharsets.ISO_8859_1);
    }

    /** The line of error.txt that says what went wrong (the one after {@code run 0003 (...) failed:}). */
    static String errorLine(Path error) {
        try {
            List<String> lines = Files.readAllLines(error, StandardCharsets.UTF_8);
            for (int i = 0; i < lines.size(); i++) {
                String l = lines.get(i).strip();
                if (l.isEmpty() || (i == 0 && l.startsWith("run ") && l.endsWith("failed:"))) continue;
                return l;
            }
            return "(empty error.txt)";
        } catch (IOException e) {
            return "(unreadable error.txt: " + e.getMessage() + ")";
        }
    }

    /** Whether an execution may still be writing {@code dir}: a local one holds its lock, a batch job has job/. */
    static boolean writer(Path dir) {
        return Files.isDirectory(dir.resolve("job")) || org.hmsim.platform.kernel.results.FolderLock.held(dir);
    }

    /**
     * {@value #INTERRUPTED} if study.json says the study is running but no execution writes the folder any more (killed
     * with kill -9, its node lost, or its disk so full that study.json could not be rewritten), else null: what report
     * shows in place of study.json's status (it wrote "study running" for a killed study that status called interrupted).
     * Asked before the caller takes the folder's lock itself.
     */
    static String interrupted(Path dir) {
        return "running".equals(provenanceStatus(dir)) && !writer(dir) ? INTERRUPTED : null;
    }

    static final String INTERRUPTED = "interrupted";

    /** How study.json's status begins where a study stopped because its folder could not be written (StudyRunner). */
    private static final String UNWRITABLE = "stopped: cannot ";

    private static String provenanceStatus(Path dir) {
        try {
            Object s = Json.read(dir.resolve(ResultsFolder.PROVENANCE)).get("status");
            return s == null ? null : s.toString();
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** The run's label as its config.json records it ("" if it has none or cannot be read). */
    private static String configLabel(Path runDir) {
        try {
            Object l = Json.read(runDir.resolve(ResultsFolder.CONFIG)).get("label");
            return l instanceof String s ? s : "";
        } catch (RuntimeException unreadable) {
            return "";
        }
    }

    /** A folder a local execution wrote: run ids from study.json's run count (labels unknown). */
    private static List<String[]> runsFromProvenance(Path dir) {
        Path p = dir.resolve(ResultsFolder.PROVENANCE);
        if (!Files.isRegularFile(p)) return null;
        Object n = Json.read(p).get("runs");
        if (!(n instanceof Number total)) return null;
        List<String[]> l = new ArrayList<>();
        for (int i = 1; i <= total.intValue(); i++) l.add(new String[] {org.hmsim.platform.report.Results.runId(i, total.intValue()), ""});
        return l;
    }

    /** {@code " 3 completed, 1 running"}. */
    private static String counted(Map<String, Integer> byState) {
        StringBuilder b = new StringBuilder();
        byState.forEach((k, v) -> b.append(b.length() == 0 ? " " : ", ").append(v).append(' ').append(k.toLowerCase(Locale.ROOT)));
        return b.toString();
    }
}
