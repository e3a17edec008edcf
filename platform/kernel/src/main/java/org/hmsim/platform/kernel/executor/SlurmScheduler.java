package org.hmsim.platform.kernel.executor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.hmsim.api.executor.BatchJob;
import org.hmsim.api.executor.BatchScheduler;
import org.hmsim.platform.kernel.results.AtomicFiles;

/**
 * {@code --executor slurm}: a job-array script submitted with {@code sbatch --parsable} (docs/slurm.md):
 * <pre>
 * #!/bin/bash
 * #SBATCH --job-name=hmsim-STUDY
 * #SBATCH --array=1-12            (or 3,7,9 on --resume)
 * #SBATCH --output=DIR/job/logs/slurm-%A_%a.out
 * #SBATCH --partition=P           (with --partition)
 * #SBATCH ARG                     (each --sbatch-arg)
 * exec HOME/bin/hmsim run-task DIR --study DIR/job/study/... --chunk N --index "$SLURM_ARRAY_TASK_ID"
 * </pre>
 * The tools are found on PATH, or in the folder named by {@code -Dhmsim.slurm.bin} or {@code HMSIM_SLURM_BIN}.
 */
public final class SlurmScheduler implements BatchScheduler {
    public static final String NAME = "slurm";

    @Override
    public String name() { return NAME; }

    @Override
    public String description() { return "Slurm job arrays (sbatch, squeue, sacct) on a shared filesystem"; }

    @Override
    public String submit(BatchJob job) throws Exception {
        Path script = job.jobDir().resolve(NAME + "-" + job.submission() + ".sh");
        AtomicFiles.write(script, script(job));
        script.toFile().setExecutable(true);
        // slurmd opens --output before the script runs: a missing folder fails the task at launch
        // (JobLaunchFailure, nothing logged), so the script's own mkdir is too late.
        Files.createDirectories(job.jobDir().resolve("logs"));
        Path sbatch = SchedulerTools.find("sbatch");
        if (sbatch == null) throw new IllegalStateException("sbatch not found on PATH (nor in -Dhmsim.slurm.bin / HMSIM_SLURM_BIN); the script is " + script);
        SchedulerTools.Result r = SchedulerTools.exec(job.jobDir(), List.of(sbatch.toString(), "--parsable", script.toString()));
        if (r.code() != 0) // rejected: the options or the cluster's limits, the user's to change (exit 2)
            throw new IllegalArgumentException("sbatch exited with " + r.code() + ": " + r.err().strip() + arrayHint(r.err(), job) + " (script " + script + ")");
        String out = r.out().strip();
        String id = out.isEmpty() ? "" : out.lines().reduce((a, b) -> b).orElse("").split(";")[0].strip();
        if (!id.matches("[0-9]+")) throw new IllegalStateException("sbatch printed no job id: '" + out + "'");
        return id;
    }

    /**
     * What to do about an array Slurm will not take: its MaxArraySize (1001 by default) bounds the indices, and a study of
     * more runs than that failed with sbatch's bare "Invalid job array specification" (a cluster trial).
     */
    static String arrayHint(String err, BatchJob job) {
        if (!err.contains("Invalid job array specification") && !err.contains("MaxArraySize")) return "";
        int highest = job.indices().get(job.indices().size() - 1);
        return " (the array reaches index " + highest + ": a cluster's MaxArraySize, 1001 by default, may be below it; fewer tasks of"
                + " more runs each with --array-chunk N, e.g. " + ((highest + 999) / 1000) + " or more, in a new folder)";
    }

    /**
     * Why an {@code --sbatch-arg} (one line: {@code run} refuses a line break for every executor) cannot be written into
     * the job script, or null: the options hmsim writes itself would replace its own (an {@code --array=1-3} left runs 4-6
     * of 6 never run while status waited for them).
     */
    public static String argumentProblem(String arg) {
        String name = BatchExecutor.optionName(arg);
        return switch (name) {
            case "--array", "-a" -> "hmsim writes the array itself (--array-chunk N sets its size)";
            case "--output", "-o", "--error", "-e" -> "hmsim writes the tasks' logs into DIR/job/logs, where hmsim status reads them";
            case "--parsable", "--wrap" -> "hmsim submits its own script with --parsable";
            default -> null;
        };
    }

    /** The job script (see the class comment). */
    static String script(BatchJob job) {
        StringBuilder s = new StringBuilder();
        s.append("#!/bin/bash\n");
        s.append("# hmsim study job, submission ").append(job.submission()).append(": one array task per chunk of runs.\n");
        s.append("# Each task writes its runs into ").append(job.resultsDir()).append(" (a shared filesystem);\n");
        s.append("# the task that ends the last run assembles runs.csv and study.json (else: hmsim collect DIR).\n");
        s.append("#SBATCH --job-name=").append(job.name()).append('\n');
        s.append("#SBATCH --array=").append(ranges(job.indices())).append('\n');
        // quoted: a folder with a blank split the directive (sbatch reads #SBATCH lines as a shell would)
        s.append("#SBATCH --output=").append(directiveValue(job.jobDir().resolve("logs").resolve("slurm-%A_%a.out").toString())).append('\n');
        if (job.queue() != null && !job.queue().isBlank()) s.append("#SBATCH --partition=").append(job.queue()).append('\n');
        for (String a : job.schedulerArgs()) s.append("#SBATCH ").append(a).append('\n');
        s.append("set -u\n");
        s.append("mkdir -p ").append(ShellWord.of(job.jobDir().resolve("logs").toString())).append('\n');
        s.append("exec");
        for (String w : job.taskCommand())
            s.append(' ').append(w.equals(BatchJob.INDEX) ? "\"$SLURM_ARRAY_TASK_ID\"" : ShellWord.of(w));
        s.append('\n');
        return s.toString();
    }

    /** {@code 1-8}, {@code 3,7,9}, {@code 1-4,7}: Slurm's --array syntax for ascending indices. */
    static String ranges(List<Integer> indices) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < indices.size(); ) {
            int j = i;
            while (j + 1 < indices.size() && indices.get(j + 1) == indices.get(j) + 1) j++;
            if (b.length() > 0) b.append(',');
            b.append(indices.get(i));
            if (j > i) b.append('-').append(indices.get(j));
            i = j + 1;
        }
        return b.toString();
    }

    /** A directive's value, in double quotes where it holds a blank or a quote. */
    private static String directiveValue(String v) {
        return v.matches("[^\\s\"']+") ? v : "\"" + v.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    @Override
    public Map<Integer, String> taskStates(String jobId) { return query(jobId).states(); }

    @Override
    public void cancel(String jobId) {
        Path scancel = SchedulerTools.find("scancel");
        if (scancel == null) throw new IllegalStateException("scancel not found on PATH (nor in -Dhmsim.slurm.bin / HMSIM_SLURM_BIN)");
        SchedulerTools.Result r;
        try {
            r = SchedulerTools.exec(null, List.of(scancel.toString(), jobId));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("scancel " + jobId + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("scancel " + jobId + ": interrupted", e);
        }
        if (r.code() != 0) throw new IllegalStateException("scancel " + jobId + " exited with " + r.code() + ": " + r.err().strip());
    }

    /** The tasks' states, and whether squeue or sacct answered at all (empty states then mean the job is forgotten). */
    record Answer(Map<Integer, String> states, boolean answered) {}

    Answer query(String jobId) {
        Map<Integer, String> states = new TreeMap<>();
        boolean answered = false;
        Path sacct = SchedulerTools.find("sacct");
        if (sacct != null) {
            SchedulerTools.Result r = SchedulerTools.execQuietly(List.of(sacct.toString(), "-n", "-P", "-j", jobId, "--format=JobID,State,ExitCode"));
            if (r != null && r.code() == 0) states.putAll(parse(jobId, r.out(), '|'));
            answered |= r != null && r.code() == 0;
        }
        // squeue knows the live jobs best (sacct may lag, or have no accounting storage at all). -t all: also
        // the tasks that ended less than MinJobAge (default 300 s) ago, which is all a cluster without
        // accounting storage tells (plain -j shows nothing once every task of the array has ended).
        Path squeue = SchedulerTools.find("squeue");
        if (squeue != null) {
            SchedulerTools.Result r = SchedulerTools.execQuietly(List.of(squeue.toString(), "-h", "-j", jobId, "-o", "%i,%T", "-t", "all"));
            if (r != null && r.code() == 0) states.putAll(parse(jobId, r.out(), ','));
            answered |= r != null && r.code() == 0;
        }
        return new Answer(states, answered);
    }

    /**
     * Lines {@code 1234_7,RUNNING}, {@code 1234_[8-10%2],PENDING} (squeue) or {@code 1234_7|FAILED|1:0}
     * (sacct; steps such as {@code 1234_7.batch} are skipped; {@code CANCELLED by 42} becomes CANCELLED).
     */
    static Map<Integer, String> parse(String jobId, String text, char sep) {
        Map<Integer, String> m = new TreeMap<>();
        for (String line : text.split("\\R")) {
            String[] c = line.strip().split(java.util.regex.Pattern.quote(String.valueOf(sep)));
            if (c.length < 2 || !c[0].startsWith(jobId + "_") || c[0].contains(".")) continue;
            String state = c[1].strip().split("\\s+")[0].replace("+", "");
            String idx = c[0].substring(jobId.length() + 1);
            if (idx.startsWith("[")) {
                String inner = idx.substring(1, idx.indexOf(']') < 0 ? idx.length() : idx.indexOf(']'));
                int pct = inner.indexOf('%');
                if (pct >= 0) inner = inner.substring(0, pct);
                for (String part : inner.split(",")) {
                    String[] ab = part.split("-");
                    try {
                        int a = Integer.parseInt(ab[0].strip()), z = ab.length > 1 ? Integer.parseInt(ab[1].strip()) : a;
                        for (int i = a; i <= z; i++) m.put(i, state);
                    } catch (NumberFormatException ignored) {
                        // a form we do not know: leave those tasks to the folder's view
                    }
                }
            } else {
                try {
                    m.put(Integer.parseInt(idx.strip()), state);
                } catch (NumberFormatException ignored) {
                    // idem
                }
            }
        }
        return m;
    }
}
