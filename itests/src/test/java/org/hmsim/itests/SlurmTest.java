package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/hmsim run --executor slurm} as a user runs it, against fake sbatch/squeue/sacct
 * (src/test/resources/fake-slurm, first on PATH) that run each array task locally as Slurm would: the
 * tasks are real {@code bin/hmsim run-task} processes writing into one results folder. A cancelled task is
 * reported by {@code status DIR} and re-submitted alone by {@code --resume}; the final runs.csv equals
 * the local executor's byte for byte.
 */
class SlurmTest {
    private static final long TIMEOUT_S = 180;
    @TempDir Path dir;
    Path bin;

    @BeforeEach
    void fakeSlurm() throws Exception {
        bin = Files.createDirectories(dir.resolve("slurm-bin"));
        for (String tool : List.of("sbatch", "squeue", "sacct")) {
            try (InputStream in = getClass().getResourceAsStream("/fake-slurm/" + tool)) {
                Files.write(bin.resolve(tool), in.readAllBytes());
            }
            assertTrue(bin.resolve(tool).toFile().setExecutable(true));
        }
    }

    @AfterEach
    void awaitLeftovers() throws Exception {
        awaitTasks();
    }

    @Test
    void aStudyOnSlurmEndsWithTheLocalRunsCsvAfterACancelledTaskIsResumed() throws Exception {
        Path study = Studies.tiny(dir, "slurmed", "local", "interleave", "{name: ratio, fast_percent: 30}");
        Path local = dir.resolve("local"), batch = dir.resolve("batch");
        Hmsim.Result l = hmsim("run", study.toString(), "--out", local.toString(), "--jobs", "2");
        assertEquals(0, l.code(), () -> Studies.errors(l, local));

        Files.writeString(bin.resolve("cancel"), "2\n");
        Hmsim.Result sub = hmsim("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--partition", "debug",
                "--sbatch-arg=--time=0:05:00");
        assertEquals(0, sub.code(), sub::toString);
        assertTrue(sub.out().contains("submitted slurm job 4201 (3 array task(s) for 3 run(s))"), sub::toString);
        String script = Files.readString(batch.resolve("job/slurm-1.sh"));
        assertTrue(script.contains("#SBATCH --array=1-3\n") && script.contains("#SBATCH --partition=debug\n")
                && script.contains("#SBATCH --time=0:05:00\n"), script);
        assertTrue(script.contains(Hmsim.home().resolve("bin/hmsim") + " run-task " + batch), script);
        awaitTasks();

        Hmsim.Result st = hmsim("status", batch.toString());
        assertEquals(0, st.code(), st::toString);
        assertTrue(st.out().contains("3 runs: 2 done, 0 running, 0 pending, 1 failed"), st::toString);
        assertTrue(st.out().contains("failed 0002 "), st::toString);
        assertTrue(st.out().contains("task 4201_2 ended CANCELLED"), st::toString);
        assertFalse(Files.exists(batch.resolve("runs.csv")), "not assembled while a run is missing");

        Files.delete(bin.resolve("cancel"));
        Hmsim.Result resumed = hmsim("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume");
        assertEquals(0, resumed.code(), resumed::toString);
        assertTrue(Files.readString(batch.resolve("job/slurm-2.sh")).contains("#SBATCH --array=2\n"));
        awaitTasks();
        assertArrayEquals(Files.readAllBytes(local.resolve("runs.csv")), Files.readAllBytes(batch.resolve("runs.csv")),
                () -> "runs.csv of the Slurm execution equals the local one\n" + Studies.errors(resumed, batch));
        Hmsim.Result done = hmsim("status", batch.toString());
        assertTrue(done.out().contains("3 runs: 3 done, 0 running, 0 pending, 0 failed"), done::toString);

        Files.delete(batch.resolve("runs.csv"));
        Hmsim.Result collected = hmsim("collect", batch.toString());
        assertEquals(0, collected.code(), collected::toString);
        assertArrayEquals(Files.readAllBytes(local.resolve("runs.csv")), Files.readAllBytes(batch.resolve("runs.csv")));
    }

    @Test
    void aRefusedSubmissionSaysSoAndLeavesNoJobToWaitFor() throws Exception {
        Path study = Studies.tiny(dir, "refused", "local", "interleave");
        Path batch = dir.resolve("batch");
        Files.writeString(bin.resolve("refuse"), "sbatch: error: Batch job submission failed: Invalid partition name specified\n");

        Hmsim.Result sub = hmsim("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--partition", "nowhere");
        assertEquals(2, sub.code(), "a job the scheduler rejects is the user's to change: bad input\n" + sub);
        assertTrue(sub.err().contains("slurm: the job was not submitted: ") && sub.err().contains("Invalid partition name specified"), sub::toString);
        String provenance = Files.readString(batch.resolve("study.json"));
        assertTrue(provenance.contains("\"not submitted: ") && !provenance.contains("\"submitted to"), provenance);
        Hmsim.Result st = hmsim("status", batch.toString());
        assertTrue(st.out().contains("job: not submitted: ") && st.out().contains("runs.csv: nothing is queued"), st::toString);

        Files.delete(bin.resolve("refuse"));
        Hmsim.Result again = hmsim("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume");
        assertEquals(0, again.code(), again::toString);
        assertTrue(again.out().contains("submitted slurm job"), again::toString);
        awaitTasks();
        Hmsim.Result done = hmsim("status", batch.toString());
        assertTrue(done.out().contains("2 runs: 2 done, 0 running, 0 pending, 0 failed"), done::toString);
    }

    private Hmsim.Result hmsim(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Hmsim.home().resolve("bin/hmsim").toString()));
        cmd.addAll(List.of(args));
        Path o = Files.createTempFile(dir, "out", ".txt"), e = Files.createTempFile(dir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectOutput(o.toFile()).redirectError(e.toFile());
        pb.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        pb.environment().put("HMSIM_JAVA_OPTS", "-Xmx512m");
        Process p = pb.start();
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("hmsim " + String.join(" ", args) + " did not finish within " + TIMEOUT_S + " s");
        }
        return new Hmsim.Result(p.exitValue(), Files.readString(o, StandardCharsets.UTF_8), Files.readString(e, StandardCharsets.UTF_8));
    }

    /** Waits until every task the fake sbatch started has ended (bounded). */
    private void awaitTasks() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        Path jobs = bin.resolve("jobs");
        while (true) {
            boolean busy = false;
            if (Files.isDirectory(jobs)) {
                try (Stream<Path> s = Files.list(jobs)) {
                    for (Path p : s.toList()) {
                        String st = Files.readString(p).strip();
                        busy |= st.equals("PENDING") || st.equals("RUNNING");
                    }
                }
            }
            try (Stream<Path> s = Files.list(bin)) { // a job's background shell still alive (it could still write)
                busy |= s.anyMatch(p -> p.getFileName().toString().startsWith("active."));
            }
            if (!busy) return;
            if (System.nanoTime() > deadline) fail("fake Slurm tasks did not end within " + TIMEOUT_S + " s");
            Thread.sleep(100);
        }
    }
}
