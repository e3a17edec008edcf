package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/hmsim run --executor slurm} against a real Slurm: a private single-node cluster on localhost
 * ({@link LocalSlurm}: munged, slurmctld and slurmd of Debian's slurm-wlm, which .ci/run installs). A
 * submitted study ends with the local executor's runs.csv byte for byte; a task cancelled with scancel
 * while its run is in progress is reported failed by {@code status} and {@code --resume} re-submits it
 * alone, ending with the same runs.csv. Skipped (with the reason) where Slurm cannot run: not root,
 * not installed, daemons that do not start.
 */
class RealSlurmTest {
    /** Bound on one hmsim command and on one Slurm job (each task is a JVM start and a ~1 s run). */
    private static final long TIMEOUT_S = 120;

    @TempDir static Path dir;
    private static LocalSlurm slurm;
    private static Path study;
    private static Path local;

    @BeforeAll
    static void startSlurmAndRunLocally() throws Exception {
        long t0 = System.nanoTime();
        slurm = LocalSlurm.start(dir);
        log("local Slurm up", t0);
        // Two runs of about a second each: long enough to cancel one while it runs.
        study = Hmsim.write(dir.resolve("slurmed.yaml"),
                "study: slurmed",
                "seed: 7",
                "machine: " + Hmsim.smallMachine(),
                "workloads:",
                "  - { name: stream, elements: 1048576, ctas: 8, threads: 128 }",
                "policies:",
                "  placement: { sweep: [local, interleave] }");
        local = dir.resolve("local");
        long t1 = System.nanoTime();
        Hmsim.Result l = hmsim("run", study.toString(), "--out", local.toString(), "--jobs", "2");
        assertEquals(0, l.code(), () -> Studies.errors(l, local));
        log("local execution", t1);
    }

    @AfterAll
    static void stopSlurm() {
        if (slurm != null) slurm.stop();
    }

    @Test
    void aStudySubmittedToSlurmEndsWithTheLocalRunsCsv() throws Exception {
        Path batch = dir.resolve("batch");
        long t0 = System.nanoTime();
        String job = submit(batch, "--partition", "debug", "--sbatch-arg=--time=0:10:00");
        slurm.awaitJob(job, TIMEOUT_S);
        log("job " + job + " (2 tasks)", t0);
        assertTrue(Files.isRegularFile(batch.resolve("runs.csv")), () -> "the last task assembles runs.csv\n" + taskLogs(batch) + slurm.logs());
        assertArrayEquals(Files.readAllBytes(local.resolve("runs.csv")), Files.readAllBytes(batch.resolve("runs.csv")),
                "runs.csv of the Slurm execution equals the local one");
        Hmsim.Result st = hmsim("status", batch.toString());
        assertTrue(st.out().contains("2 runs: 2 done, 0 running, 0 pending, 0 failed"), st::toString);
    }

    @Test
    void aTaskCancelledWhileItRunsIsResubmittedAloneByResume() throws Exception {
        Path batch = dir.resolve("cancelled");
        long t0 = System.nanoTime();
        String job = submit(batch);
        Path run2 = batch.resolve("runs/0002");
        awaitFile(run2.resolve("config.json"), job);
        LocalSlurm.Result cancel = slurm.exec(30, "scancel", job + "_2");
        assertEquals(0, cancel.code(), cancel::out);
        slurm.awaitJob(job, TIMEOUT_S);
        log("job " + job + " with task 2 cancelled", t0);
        assertFalse(Files.exists(run2.resolve("stats.json")), "run 0002 was cancelled before it ended\n" + taskLogs(batch));
        String squeue = slurm.tasks(job);
        assertTrue(squeue.contains(job + "_2,CANCELLED"), "squeue: " + squeue);
        Hmsim.Result st = hmsim("status", batch.toString());
        assertTrue(st.out().contains("2 runs: 1 done, 0 running, 0 pending, 1 failed"), st::toString);
        assertTrue(st.out().contains("(slurm) tasks: 1 cancelled, 1 completed"), st::toString);
        // Which words explain the failure depends on whether the task's JVM got to record its interruption
        // before Slurm's kill: its own error.txt, or squeue's CANCELLED state. Either is a true account.
        assertTrue(st.out().contains("failed 0002 ")
                && (st.out().contains("interrupted: the process was terminated") || st.out().contains("ended CANCELLED")), st::toString);

        long t1 = System.nanoTime();
        Hmsim.Result resumed = hmsim("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume");
        assertEquals(0, resumed.code(), resumed::toString);
        assertTrue(Files.readString(batch.resolve("job/slurm-2.sh")).contains("#SBATCH --array=2\n"), "only the cancelled task");
        String again = jobId(batch);
        slurm.awaitJob(again, TIMEOUT_S);
        log("resumed job " + again, t1);
        assertArrayEquals(Files.readAllBytes(local.resolve("runs.csv")), Files.readAllBytes(batch.resolve("runs.csv")),
                () -> "runs.csv after --resume equals the local one\n" + Studies.errors(resumed, batch) + taskLogs(batch));
        Hmsim.Result done = hmsim("status", batch.toString());
        assertTrue(done.out().contains("2 runs: 2 done, 0 running, 0 pending, 0 failed"), done::toString);
    }

    /** {@code hmsim run STUDY --executor slurm --out batch ARGS}; returns the job id it recorded. */
    private static String submit(Path batch, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("run", study.toString(), "--out", batch.toString(), "--executor", "slurm"));
        cmd.addAll(List.of(args));
        Hmsim.Result sub = hmsim(cmd.toArray(String[]::new));
        assertEquals(0, sub.code(), sub::toString);
        String id = jobId(batch);
        assertTrue(sub.out().contains("submitted slurm job " + id + " (2 array task(s) for 2 run(s))"), sub::toString);
        return id;
    }

    private static String jobId(Path batch) throws Exception {
        String id = Files.readString(batch.resolve("job/job-id")).strip();
        assertTrue(id.matches("[0-9]+"), "job id " + id);
        return id;
    }

    /** Waits until {@code file} exists: the run has started (bounded; fails if the job ended first). */
    private static void awaitFile(Path file, String job) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!Files.exists(file)) {
            if (System.nanoTime() > deadline) fail(file + " did not appear within " + TIMEOUT_S + " s; squeue: " + slurm.tasks(job));
            Thread.sleep(20);
        }
    }

    /** bin/hmsim ARGS as a user on the cluster runs it: SLURM_CONF names the cluster, sbatch is on PATH. */
    private static Hmsim.Result hmsim(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Hmsim.home().resolve("bin/hmsim").toString()));
        cmd.addAll(List.of(args));
        Path o = Files.createTempFile(dir, "out", ".txt"), e = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(o.toFile()).redirectError(e.toFile());
        pb.environment().putAll(slurm.env());
        pb.environment().remove("HMSIM_SLURM_BIN"); // the real tools, found on PATH
        pb.environment().put("HMSIM_JAVA_OPTS", "-Xmx512m");
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("hmsim " + String.join(" ", args) + " did not finish within " + TIMEOUT_S + " s");
        }
        return new Hmsim.Result(p.exitValue(), Files.readString(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
    }

    /** The array tasks' output (job/logs), for messages. */
    private static String taskLogs(Path batch) {
        StringBuilder b = new StringBuilder();
        try (var files = Files.list(batch.resolve("job/logs"))) {
            for (Path f : files.sorted().toList()) b.append("--- ").append(f.getFileName()).append('\n').append(Files.readString(f));
        } catch (Exception ex) {
            b.append("(no task logs: ").append(ex.getMessage()).append(")\n");
        }
        return b.toString();
    }

    private static void log(String what, long t0) {
        System.out.printf("RealSlurmTest: %s took %.1f s%n", what, (System.nanoTime() - t0) / 1e9);
    }
}
