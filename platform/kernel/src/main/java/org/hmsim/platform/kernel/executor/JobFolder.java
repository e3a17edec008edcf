package org.hmsim.platform.kernel.executor;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.hmsim.platform.kernel.results.AtomicFiles;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/**
 * The {@code job/} folder a batch execution keeps inside the results folder:
 * <pre>
 * job/job.properties    executor, the study copy, how the study was named, runs, runs per task, SHA-256
 * job/study/...         byte-for-byte copies of the study file and of the files it names by relative path
 * job/runs.tsv          run id and label of every run (for status)
 * job/submissions.tsv   one line per submission: number, job id, array indices
 * job/job-id            the job id of the latest submission
 * job/&lt;scheduler&gt;-N.sh the job script of submission N; job/logs/ the tasks' output
 * </pre>
 * Array task {@code k} (from 1) runs the runs {@code (k-1)*chunk+1 .. k*chunk} (1-based), so with one
 * run per task the task index is the run number.
 */
public final class JobFolder {
    public static final String DIR = "job";
    private static final String MANIFEST = "job.properties", RUNS = "runs.tsv", SUBMISSIONS = "submissions.tsv", JOB_ID = "job-id",
            OPTIONS = "scheduler-options.properties", ENDED = "ended";

    /** One submission of the folder. */
    public record Submission(int number, String jobId, List<Integer> indices) {}

    /** What the submission recorded about the study. */
    public record Manifest(String executor, Path study, String display, int runs, int chunk, String sha256) {}

    private final Path results;
    private final Path dir;

    public JobFolder(Path results) {
        this.results = results;
        this.dir = results.resolve(DIR);
    }

    public Path dir() { return dir; }

    public Path results() { return results; }

    public boolean exists() { return Files.isRegularFile(dir.resolve(MANIFEST)); }

    /** Removes what an earlier batch execution left here (the whole job/ folder: only hmsim writes it). */
    public void clear() {
        if (!Files.isDirectory(dir)) return;
        try {
            AtomicFiles.deleteTree(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot clear " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Copies the study and writes the manifest and run list; returns the copy of the study file. */
    public Path prepare(Study study, String executor, int chunk) {
        Path copy = StudySnapshot.copy(study.file(), dir.resolve("study"));
        Properties p = new Properties();
        p.setProperty("executor", executor);
        p.setProperty("study", dir.relativize(copy).toString());
        p.setProperty("display", study.display());
        p.setProperty("runs", Integer.toString(study.runs().size()));
        p.setProperty("chunk", Integer.toString(chunk));
        p.setProperty("sha256", study.sha256());
        AtomicFiles.write(dir.resolve(MANIFEST), text(p, "hmsim batch execution of study " + study.name()));
        StringBuilder runs = new StringBuilder();
        for (PlannedRun r : study.runs()) runs.append(r.id()).append('\t').append(r.label()).append('\n');
        AtomicFiles.write(dir.resolve(RUNS), runs.toString());
        return copy;
    }

    public Manifest manifest() {
        try {
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(dir.resolve(MANIFEST), StandardCharsets.UTF_8)));
            return new Manifest(p.getProperty("executor"), dir.resolve(p.getProperty("study")), p.getProperty("display"),
                    Integer.parseInt(p.getProperty("runs")), Integer.parseInt(p.getProperty("chunk")), p.getProperty("sha256"));
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException(dir.resolve(MANIFEST) + ": not a batch execution's manifest (" + e.getMessage() + ")", e);
        }
    }

    /** Records the scheduler options a submission was made with, which a --resume keeps (but those it names again). */
    public void recordOptions(ExecutorSettings settings) {
        Properties p = new Properties();
        if (settings.partition() != null) p.setProperty("partition", settings.partition());
        for (int i = 0; i < settings.schedulerArgs().size(); i++) p.setProperty("arg." + i, settings.schedulerArgs().get(i));
        AtomicFiles.write(dir.resolve(OPTIONS), text(p, null));
    }

    /**
     * {@code p} as a properties file with {@code comment} (none if null) but without the date comment
     * Properties.store writes first, so the file depends on its contents only.
     */
    private static String text(Properties p, String comment) {
        StringWriter w = new StringWriter();
        try {
            p.store(w, comment);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> lines = new ArrayList<>(w.toString().lines().toList());
        lines.remove(comment == null ? 0 : 1); // the date line, right after the (one-line) comment
        return lines.stream().reduce("", (a, l) -> a + l + "\n");
    }

    /** The scheduler options of the last submission (partition, scheduler arguments), none if it recorded none. */
    public ExecutorSettings recordedOptions(int chunk) {
        Path f = dir.resolve(OPTIONS);
        if (!Files.isRegularFile(f)) return new ExecutorSettings(null, chunk, List.of());
        Properties p = new Properties();
        try {
            p.load(new StringReader(Files.readString(f, StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) { // unreadable, or a broken \\u escape
            throw new org.hmsim.platform.kernel.results.ResultsFolderException(f + " is damaged (" + e.getMessage()
                    + "); remove the file to submit with only the options --resume gives");
        }
        List<String> args = new ArrayList<>();
        for (int i = 0; p.getProperty("arg." + i) != null; i++) args.add(p.getProperty("arg." + i));
        return new ExecutorSettings(p.getProperty("partition"), chunk, args);
    }

    /** Run id and label of every run, in run order. */
    public List<String[]> runs() {
        List<String[]> l = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(dir.resolve(RUNS), StandardCharsets.UTF_8)) l.add(line.split("\t", 2));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return l;
    }

    public List<Submission> submissions() {
        List<Submission> l = new ArrayList<>();
        Path f = dir.resolve(SUBMISSIONS);
        if (!Files.isRegularFile(f)) return l;
        try {
            for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                String[] c = line.split("\t");
                if (c.length < 3) continue;
                List<Integer> idx = new ArrayList<>();
                for (String i : c[2].split(",")) if (!i.isBlank()) idx.add(Integer.parseInt(i.trim()));
                l.add(new Submission(Integer.parseInt(c[0]), c[1], idx));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return l;
    }

    /** Records that the last submission's tasks have ended (a local execution found so and took the folder). */
    public void markEnded() { AtomicFiles.write(dir.resolve(ENDED), "the last submission's tasks had ended when a local execution took the folder\n"); }

    /** Whether {@link #markEnded} recorded the last submission's end. */
    public boolean markedEnded() { return Files.isRegularFile(dir.resolve(ENDED)); }

    /** Records a submission (job-id holds the latest job id; submissions.tsv all of them). */
    public void record(Submission s) {
        try {
            Files.deleteIfExists(dir.resolve(ENDED)); // a new submission's tasks have not ended
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        StringBuilder b = new StringBuilder();
        for (Submission old : submissions()) b.append(line(old));
        b.append(line(s));
        AtomicFiles.write(dir.resolve(SUBMISSIONS), b.toString());
        AtomicFiles.write(dir.resolve(JOB_ID), s.jobId() + "\n");
    }

    private static String line(Submission s) {
        StringBuilder b = new StringBuilder();
        for (int i : s.indices()) b.append(b.length() == 0 ? "" : ",").append(i);
        return s.number() + "\t" + s.jobId() + "\t" + b + "\n";
    }

    /** Number of array tasks for {@code runs} runs, {@code chunk} per task. */
    public static int tasks(int runs, int chunk) { return (runs + chunk - 1) / chunk; }

    /** The 0-based run indices array task {@code index} (from 1) runs. */
    public static List<Integer> runsOfTask(int index, int chunk, int runs) {
        List<Integer> l = new ArrayList<>();
        for (int r = (index - 1) * chunk; r < Math.min(index * chunk, runs); r++) l.add(r);
        return l;
    }

    /** The array task (from 1) that runs the run with 0-based index {@code run}. */
    public static int taskOf(int run, int chunk) { return run / chunk + 1; }
}
