package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.Json;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --executor slurm}, {@code status DIR}, {@code collect} and {@code --resume} against fake
 * sbatch/squeue/sacct (src/test/resources/fake-slurm) that run the array tasks locally as Slurm would,
 * each task a JVM of its own running {@link FakeTaskMain} (the fake installation's bin/hmsim).
 */
class SlurmExecutorTest {
    @TempDir
    Path dir;
    Path bin, study;
    Commands commands;
    final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();

    /** 6 runs: stream, bfs, boom (fails) x placement local, interleave. */
    static final String STUDY = """
            study: batch
            seed: 3
            machine: ../machines/small.yaml
            workloads: [stream, {name: bfs, nodes: 4096}, boom]
            policies:
              placement: {sweep: [local, interleave]}
            """;

    @BeforeEach
    void setUp() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        study = Fakes.write(dir, "studies/s.yaml", STUDY);
        bin = Files.createDirectories(dir.resolve("slurm-bin"));
        for (String tool : List.of("sbatch", "squeue", "sacct", "scancel")) {
            try (InputStream in = getClass().getResourceAsStream("/fake-slurm/" + tool)) {
                Files.write(bin.resolve(tool), in.readAllBytes());
            }
            assertTrue(bin.resolve(tool).toFile().setExecutable(true));
        }
        Path home = dir.resolve("home");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Fakes.write(home, "bin/hmsim", "#!/bin/bash\nexec '" + Path.of(System.getProperty("java.home"), "bin", "java")
                + "' -Dhmsim.results.fsync=false -XX:TieredStopAtLevel=1 -Xshare:auto -cp '" + cp + "' "
                + FakeTaskMain.class.getName() + " \"$@\"\n");
        assertTrue(home.resolve("bin/hmsim").toFile().setExecutable(true));
        System.setProperty("hmsim.home", home.toString());
        System.setProperty("hmsim.slurm.bin", bin.toString());
        commands = new Commands(new SimKernel(Fakes.policies(), Fakes.workloads(), Environment.classpath(), Fakes.SIMULATOR));
    }

    @AfterEach
    void tearDown() throws Exception {
        Files.deleteIfExists(bin.resolve("hold"));
        System.clearProperty("hmsim.home");
        System.clearProperty("hmsim.slurm.bin");
        awaitTasks(); // no background task may outlive the test's folder
    }

    int exec(String... args) {
        out.reset();
        err.reset();
        return commands.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    String out() { return out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8); }

    /**
     * A task whose run cannot be written (a full disk; here a folder where its stats.json goes) stops its chunk as a local
     * run stops the study: one line, exit 2, the run left pending (its config.json removed) and the chunk's next one never
     * begun. The task left the run begun, as a killed one reads (a review).
     */
    @Test
    void aTaskThatCannotWriteTheFolderLeavesItsRunPending() throws Exception {
        Path batch = dir.resolve("batch");
        Files.writeString(bin.resolve("hold"), "");
        assertEquals(0, exec("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--array-chunk", "2"), this::out);
        Path copy = batch.resolve("job/study/studies/s.yaml");
        java.util.function.Function<org.hmsim.platform.machine.RunSpec, org.hmsim.platform.machine.RunResult> full = spec -> {
            if (spec.runId().equals("0001")) {
                try {
                    Files.createDirectories(batch.resolve("runs/0001/stats.json"));
                } catch (java.io.IOException e) {
                    throw new AssertionError(e);
                }
            }
            return Fakes.SIMULATOR.apply(spec);
        };
        commands = new Commands(new SimKernel(Fakes.policies(), Fakes.workloads(), Environment.classpath(), full));
        assertEquals(Commands.BAD_INPUT, exec("run-task", batch.toString(), "--study", copy.toString(), "--chunk", "2", "--index", "1"));
        assertTrue(out().contains("run-task: cannot ") && out().contains("stats.json"), out());
        assertFalse(out().contains("\tat "), "no stack trace: " + out());
        assertFalse(Files.exists(batch.resolve("runs/0001/config.json")), "the run is pending, not begun");
        assertFalse(Files.exists(batch.resolve("runs/0002/config.json")), "the chunk's next run never began");
    }

    @Test
    void aSlurmArrayGivesTheLocalRunsCsvAndStatusReportsPendingThenDoneAndFailed() throws Exception {
        Path local = dir.resolve("local"), batch = dir.resolve("batch");
        assertEquals(3, exec("run", study.toString(), "--out", local.toString(), "--jobs", "2"), this::out);

        Files.writeString(bin.resolve("hold"), "");
        assertEquals(0, exec("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--partition", "gpu",
                "--array-chunk", "2", "--sbatch-arg=--time=0:10:00", "--sbatch-arg", "--account=lab"), this::out);
        assertTrue(out().contains("submitted slurm job 4201 (3 array task(s) for 6 run(s))"), out());
        assertEquals("4201", Files.readString(batch.resolve("job/job-id")).strip());
        Path script = batch.resolve("job/slurm-1.sh");
        String s = Files.readString(script);
        assertTrue(s.startsWith("#!/bin/bash\n"), s);
        assertTrue(s.contains("#SBATCH --job-name=hmsim-batch\n"), s);
        assertTrue(s.contains("#SBATCH --array=1-3\n"), s);
        assertTrue(s.contains("#SBATCH --partition=gpu\n"), s);
        assertTrue(s.contains("#SBATCH --time=0:10:00\n#SBATCH --account=lab\n"), s);
        assertTrue(s.contains("#SBATCH --output=" + batch.resolve("job/logs/slurm-%A_%a.out") + "\n"), s);
        Path copy = batch.resolve("job/study/studies/s.yaml");
        assertTrue(s.contains(" run-task " + batch + " --study " + copy + " --chunk 2 --index \"$SLURM_ARRAY_TASK_ID\"\n"), s);
        assertEquals(STUDY, Files.readString(copy), "the job runs a byte copy of the study");
        assertEquals(Fakes.MACHINE, Files.readString(batch.resolve("job/study/machines/small.yaml")));
        assertTrue(Files.readString(bin.resolve("calls.log")).contains("sbatch --parsable " + script), Files.readString(bin.resolve("calls.log")));

        assertEquals(0, exec("status", batch.toString()));
        assertTrue(out().contains("6 runs: 0 done, 0 running, 6 pending, 0 failed"), out());
        assertTrue(out().contains("job 4201 (slurm) tasks: 3 pending"), out());
        assertTrue(Files.readString(bin.resolve("calls.log")).contains("squeue -h -j 4201 -o %i,%T"));
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", batch.toString(), "--executor", "slurm"), "a refusal: the folder's job is still going");
        assertTrue(out().contains("job 4201 still has 3 task(s) pending or running"), out());
        // a local execution into it would race the tasks too (it removed job/ under them: a review)
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", batch.toString()), "a local run refused while the job goes on");
        assertTrue(out().contains("run: job 4201 still has 3 task(s) pending or running") && Files.isDirectory(batch.resolve("job")), out());
        // and when the scheduler cannot be asked (its tools failing), the job is assumed to go on: runs of it have no result
        byte[] squeue = Files.readAllBytes(bin.resolve("squeue")), sacct = Files.readAllBytes(bin.resolve("sacct"));
        Files.writeString(bin.resolve("squeue"), "#!/bin/bash\necho 'Could not establish a configuration source' >&2\nexit 1\n");
        Files.writeString(bin.resolve("sacct"), "#!/bin/bash\nexit 1\n");
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", batch.toString()));
        assertTrue(out().contains("the scheduler reports nothing of the folder's job 4201") && Files.isDirectory(batch.resolve("job")), out());
        Files.write(bin.resolve("squeue"), squeue);
        Files.write(bin.resolve("sacct"), sacct);
        // a job/ hmsim cannot read: refused, one line, nothing changed
        Path submissions = batch.resolve("job/submissions.tsv");
        String recorded = Files.readString(submissions);
        Files.writeString(submissions, "1\t4201\tfoo\n");
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", batch.toString()));
        assertTrue(out().contains(batch.resolve("job") + " cannot be read (") && !out().contains("\tat "), out());
        Files.writeString(submissions, recorded);

        // Editing the study now must not change the job: it runs the copy.
        Files.writeString(study, STUDY.replace("seed: 3", "seed: 4"));
        Files.delete(bin.resolve("hold"));
        awaitTasks();
        assertArrayEquals(Files.readAllBytes(local.resolve("runs.csv")), Files.readAllBytes(batch.resolve("runs.csv")),
                "runs.csv of the Slurm execution equals the local one");
        for (String f : List.of("runs/0001/stats.json", "runs/0004/config.json", "runs/0003/timeseries.csv"))
            assertEquals(Files.readString(local.resolve(f)), Files.readString(batch.resolve(f)), f);
        assertEquals("finished", Json.read(batch.resolve("study.json")).get("status"));

        assertEquals(0, exec("status", batch.toString()));
        assertTrue(out().contains("6 runs: 4 done, 0 running, 0 pending, 2 failed"), out());
        assertTrue(out().contains("tasks: 2 completed, 1 failed"), out());
        assertTrue(out().contains("failed 0005 boom placement=local: java.lang.IllegalStateException: workload boom failed on purpose"), out());
        assertTrue(out().contains("runs.csv: assembled"), out());

        // The last task died while assembling: a stale lock file, no runs.csv. collect redoes it.
        byte[] expected = Files.readAllBytes(batch.resolve("runs.csv"));
        Files.delete(batch.resolve("runs.csv"));
        assertTrue(Files.exists(batch.resolve(".assemble.lock")));
        assertEquals(3, exec("collect", batch.toString()), this::out);
        assertTrue(out().contains("6 of 6 runs ended (2 failed)"), out());
        assertArrayEquals(expected, Files.readAllBytes(batch.resolve("runs.csv")));
        // Exactly one assembler: while another holds the lock, collect leaves the files alone.
        try (FileChannel ch = FileChannel.open(batch.resolve(".assemble.lock"), StandardOpenOption.WRITE); FileLock l = ch.lock()) {
            assertEquals(Commands.ERROR, exec("collect", batch.toString()));
            assertTrue(out().contains("another process is assembling"), out());
        }
        assertEquals(0, exec("status"), "status without DIR still reports this container's study");
        assertTrue(out().contains("study batch"), out());
    }

    @Test
    void chunksAndResumeSubmitOnlyTheTasksOfMissingRuns() throws Exception {
        Path noBoom = Fakes.write(dir, "studies/ok.yaml", STUDY.replace(", boom]", "]").replace("seed: 3", "seeds: [1, 2]"));
        Path local = dir.resolve("local"), batch = dir.resolve("batch");
        assertEquals(0, exec("run", noBoom.toString(), "--out", local.toString(), "--jobs", "2"), this::out);
        Files.writeString(bin.resolve("cancel"), "2\n"); // task 2 is cancelled before it starts
        assertEquals(0, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--array-chunk", "4",
                "--partition", "gpu", "--sbatch-arg=--time=01:00:00"), this::out);
        assertTrue(out().contains("(2 array task(s) for 8 run(s))"), out());
        String s = Files.readString(batch.resolve("job/slurm-1.sh"));
        assertTrue(s.contains("#SBATCH --array=1-2\n") && s.contains("--chunk 4 --index") && s.contains("#SBATCH --partition=gpu\n"), s);
        awaitTasks();

        assertEquals(0, exec("status", batch.toString()));
        assertTrue(out().contains("8 runs: 4 done, 0 running, 0 pending, 4 failed"), out());
        assertTrue(out().contains("failed 0005 bfs(nodes=4096) placement=local seed=1: task 4201_2 ended CANCELLED without a result"), out());
        assertTrue(out().contains("tasks: 1 cancelled, 1 completed"), out());
        assertFalse(Files.exists(batch.resolve("runs.csv")), "no task ended the last run: nothing assembled");

        // a damaged record of the options: one line naming it, exit 2, nothing in the folder changed
        Path options = batch.resolve("job/scheduler-options.properties");
        String recorded = Files.readString(options);
        Files.writeString(options, "partition=gpu\\u00zz\n");
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume"));
        assertTrue(out().contains(options + " is damaged (") && !out().contains("\tat "), out());
        assertFalse(Files.exists(batch.resolve("job/slurm-2.sh")));
        Files.writeString(options, recorded);

        Files.delete(bin.resolve("cancel"));
        assertEquals(0, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume"), this::out);
        assertTrue(out().contains("submitted slurm job 4202 (1 array task(s) for the 4 run(s) left of 8 run(s))"), out());
        String s2 = Files.readString(batch.resolve("job/slurm-2.sh"));
        assertTrue(s2.contains("#SBATCH --array=2\n"), s2);
        // a --resume naming no scheduler options keeps the first submission's (it went to the default partition, no time limit)
        assertTrue(s2.contains("#SBATCH --partition=gpu\n") && s2.contains("--time=01:00:00"), s2);
        assertTrue(out().contains("submitted with the earlier submission's options: --partition gpu --sbatch-arg=--time=01:00:00"), out());
        assertEquals("4202", Files.readString(batch.resolve("job/job-id")).strip());
        assertEquals(List.of("1\t4201\t1,2", "2\t4202\t2"), Files.readAllLines(batch.resolve("job/submissions.tsv")));
        awaitTasks();
        // seen once under a loaded full build: no runs.csv after the resumed task; say what the tasks printed
        if (!Files.exists(batch.resolve("runs.csv"))) fail("no runs.csv after the resumed task; task states " + states() + "; logs:\n" + logs(batch));
        assertArrayEquals(Files.readAllBytes(local.resolve("runs.csv")), Files.readAllBytes(batch.resolve("runs.csv")));
        assertEquals(0, exec("status", batch.toString()));
        assertTrue(out().contains("8 runs: 8 done, 0 running, 0 pending, 0 failed"), out());
        // the resubmitted job ran 1 task; the other was the first job's (a trial read "2 completed" under the new id)
        assertTrue(out().contains("job 4202 (slurm) tasks: 1 completed; earlier submissions' tasks: 1 completed"), out());

        assertEquals(0, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume"), this::out);
        assertTrue(out().contains("every run is already complete"), out());
    }

    /** The 4-run study (no failing workload) submitted into DIR/batch, its tasks held pending (delete bin/hold to release them). */
    private Path submittedAndHeld() throws Exception {
        Path noBoom = Fakes.write(dir, "studies/ok.yaml", STUDY.replace(", boom]", "]"));
        Path batch = dir.resolve("batch");
        Files.writeString(bin.resolve("hold"), "");
        assertEquals(0, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm"), this::out);
        return batch;
    }

    /**
     * A task that runs another hmsim build than the study was submitted with refuses its runs: a cluster trial rebuilt
     * hmsim while half an array waited and got one runs.csv of two builds, under the new one's name.
     */
    @Test
    void aTaskOfAnotherBuildThanTheSubmissionsRunsNothing() throws Exception {
        Path batch = submittedAndHeld();
        // as if submitted by an earlier build: the tasks (this build) are released after a rebuild
        Path provenance = batch.resolve("study.json");
        String submitted = Files.readString(provenance);
        String version = (String) org.hmsim.platform.kernel.results.Json.read(provenance).get("hmsim_version");
        Files.writeString(provenance, submitted.replace("\"" + version + "\"", "\"0.1.0.202601010000\""));
        Files.delete(bin.resolve("hold"));
        awaitTasks();
        String error = Files.readString(batch.resolve("runs/0001/error.txt"));
        assertTrue(error.contains("this task runs another hmsim build than the study was submitted with (hmsim_version 0.1.0.202601010000 then, "
                + version + " now;"), error);
        assertFalse(Files.exists(batch.resolve("runs/0001/stats.json")) || Files.exists(batch.resolve("runs.csv")), "nothing simulated or assembled");
        assertEquals(0, exec("status", batch.toString()));
        assertTrue(out().contains("4 runs: 0 done, 0 running, 0 pending, 4 failed"), out());
    }

    /**
     * What a cluster trial found wrong with scheduler options: an {@code --array} of its own left runs never run, a line
     * break in an argument ran as a command, a --resume naming one option dropped the others, a rejected job was an
     * internal error (exit 1) with no hint at MaxArraySize, and a folder with a blank split the --output directive.
     */
    @Test
    void schedulerOptionsAreCheckedKeptOnResumeAndARejectedJobIsBadInput() throws Exception {
        Path noBoom = Fakes.write(dir, "studies/ok.yaml", STUDY.replace(", boom]", "]"));
        Path batch = dir.resolve("with blank");
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--sbatch-arg=--array=1-3"));
        assertTrue(out().contains("--sbatch-arg --array=1-3: hmsim writes the array itself (--array-chunk N sets its size)"), out());
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--sbatch-arg=-o /tmp/x"));
        assertTrue(out().contains("--sbatch-arg -o /tmp/x: hmsim writes the tasks' logs"), out());
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--sbatch-arg=--comment=x\necho INJECTED"));
        assertTrue(out().contains("--sbatch-arg --comment=x\\necho INJECTED: contains a line break"), out());
        assertFalse(Files.exists(batch), "nothing was written");

        Files.writeString(bin.resolve("cancel"), "2\n3\n4\n");
        assertEquals(0, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--partition", "gpu",
                "--sbatch-arg=--time=01:00:00", "--sbatch-arg=--mem=4G"), this::out);
        assertTrue(Files.readString(batch.resolve("job/slurm-1.sh")).contains("#SBATCH --output=\"" + batch.resolve("job/logs/slurm-%A_%a.out") + "\"\n"),
                "quoted: sbatch reads a directive's blank as the end of its value");
        awaitTasks();
        Files.delete(bin.resolve("cancel"));
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume", "--array-chunk", "2"));
        assertTrue(out().contains("--array-chunk 2: a --resume keeps the folder's plan of 1 run(s) per task"), out());
        assertEquals(0, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume", "--sbatch-arg=--time=02:00:00"), this::out);
        String s2 = Files.readString(batch.resolve("job/slurm-2.sh"));
        assertTrue(s2.contains("#SBATCH --partition=gpu\n#SBATCH --mem=4G\n#SBATCH --time=02:00:00\n") && !s2.contains("01:00:00"),
                "the earlier partition and memory kept, the time replaced: " + s2);
        assertTrue(out().contains("submitted with the earlier submission's options: --partition gpu --sbatch-arg=--mem=4G, and those given now"), out());
        awaitTasks();

        // a job sbatch rejects is the user's to change: exit 2, with what to do about an array beyond MaxArraySize
        Files.writeString(bin.resolve("sbatch"), "#!/bin/bash\necho 'sbatch: error: Batch job submission failed: Invalid job array specification' >&2\nexit 1\n");
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", dir.resolve("big").toString(), "--executor", "slurm"));
        assertTrue(out().contains("Invalid job array specification (the array reaches index 4: a cluster's MaxArraySize, 1001 by default, may be below it;"
                + " fewer tasks of more runs each with --array-chunk N"), out());
    }

    /** A --resume while squeue and sacct fail went ahead over tasks still pending: two jobs on the same runs (a cluster trial). */
    @Test
    void aResumeWhileTheSchedulersToolsFailIsRefused() throws Exception {
        Path batch = submittedAndHeld(), noBoom = dir.resolve("studies/ok.yaml");
        // collect while the tasks wait: their runs are not "missing (resubmit them)", as it said to a cluster trial
        exec("collect", batch.toString());
        assertTrue(out().contains("0 of 4 runs ended (0 failed), 4 not yet: job 4201 still has 4 task(s) pending or running in " + batch
                + "; its last task assembles the study again when it ends"), out());
        byte[] squeue = Files.readAllBytes(bin.resolve("squeue")), sacct = Files.readAllBytes(bin.resolve("sacct"));
        Files.writeString(bin.resolve("squeue"), "#!/bin/bash\necho 'slurm_load_jobs error: Unable to contact slurm controller' >&2\nexit 1\n");
        Files.writeString(bin.resolve("sacct"), "#!/bin/bash\nexit 1\n");
        assertEquals(Commands.BAD_INPUT, exec("run", noBoom.toString(), "--out", batch.toString(), "--executor", "slurm", "--resume"));
        assertTrue(out().contains("squeue and sacct both failed (or are not installed), so whether job 4201's tasks still run"), out());
        assertFalse(Files.exists(batch.resolve("job/slurm-2.sh")), "nothing submitted");
        Files.write(bin.resolve("squeue"), squeue);
        Files.write(bin.resolve("sacct"), sacct);
        // hmsim stop DIR cancels the folder's job (a cluster user had to find scancel and the id)
        assertEquals(0, exec("stop", batch.toString()), this::out);
        assertTrue(out().contains("cancelled job 4201 (slurm)") && Files.readString(bin.resolve("calls.log")).contains("scancel 4201"), out());
        Files.delete(bin.resolve("hold"));
        awaitTasks();
        assertEquals(0, exec("status", batch.toString()));
        assertTrue(out().contains("4 runs: 0 done, 0 running, 0 pending, 4 failed") && out().contains("tasks: 4 cancelled"), out());
        assertEquals(Commands.BAD_INPUT, exec("stop", dir.resolve("studies").toString()));
        assertTrue(out().contains("holds no batch job"), out());
    }

    /** A submission into a folder a local execution writes is refused (it moved that execution's results to previous/). */
    @Test
    void aSubmissionIntoAFolderALocalRunWritesIsRefused() throws Exception {
        Path busy = dir.resolve("busy");
        try (org.hmsim.platform.kernel.results.FolderLock held = org.hmsim.platform.kernel.results.FolderLock.acquire(busy)) {
            assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", busy.toString(), "--executor", "slurm"));
            assertTrue(out().contains("another hmsim run is writing into " + busy), out());
            assertFalse(Files.exists(busy.resolve("job")) || Files.exists(busy.resolve("previous")), "the folder was changed");
        }
    }

    /** --no-report reaches the array tasks: the one that ends the last run drew the report anyway (review of silent inputs). */
    @Test
    void noReportReachesTheTasks() throws Exception {
        Path batch = dir.resolve("batch");
        Files.writeString(bin.resolve("hold"), "");
        assertEquals(0, exec("run", study.toString(), "--out", batch.toString(), "--executor", "slurm", "--no-report"), this::out);
        String s = Files.readString(batch.resolve("job/slurm-1.sh"));
        assertTrue(s.contains(" --index \"$SLURM_ARRAY_TASK_ID\" --no-report\n"), s);
        Path other = dir.resolve("other");
        assertEquals(0, exec("run", study.toString(), "--out", other.toString(), "--executor", "slurm"), this::out);
        assertTrue(!Files.readString(other.resolve("job/slurm-1.sh")).contains("--no-report"), "a report unless told otherwise");
    }

    @Test
    void unknownExecutorAndMissingSbatchAreReported() throws Exception {
        // batch options with the local executor would be ignored: refused
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", dir.resolve("x").toString(), "--partition", "gpu"));
        assertTrue(out().contains("--partition: only for batch executors"), out());
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", dir.resolve("x").toString(), "--executor", "slurm", "--jobs", "3"));
        assertTrue(out().contains("--jobs: only for the local executor"), out());
        assertFalse(Files.exists(dir.resolve("x")), "nothing was written");
        assertEquals(Commands.BAD_INPUT, exec("run", study.toString(), "--out", dir.resolve("x").toString(), "--executor", "pbs"));
        assertTrue(out().contains("unknown executor 'pbs' (installed: local, slurm)"), out());
        System.setProperty("hmsim.slurm.bin", dir.resolve("nowhere").toString());
        assertEquals(Commands.ERROR, exec("run", study.toString(), "--out", dir.resolve("x").toString(), "--executor", "slurm"));
        assertTrue(out().contains("sbatch not found"), out());
        String s = Files.readString(dir.resolve("x/job/slurm-1.sh"));
        assertTrue(s.contains("#SBATCH --array=1-6\n") && s.contains("--chunk 1 --index"), "one task per run by default: " + s);
    }

    /** Waits until every task the fake sbatch started has ended (bounded). */
    private String states() throws Exception {
        try (Stream<Path> s = Files.list(bin.resolve("jobs"))) {
            return s.sorted().map(p -> p.getFileName() + "=" + readQuietly(p).strip()).toList().toString();
        }
    }

    private static String logs(Path results) throws Exception {
        Path d = results.resolve("job/logs");
        if (!Files.isDirectory(d)) return "(none)";
        try (Stream<Path> s = Files.list(d)) {
            return s.sorted().map(p -> "--- " + p.getFileName() + "\n" + readQuietly(p)).collect(java.util.stream.Collectors.joining("\n"));
        }
    }

    private static String readQuietly(Path p) {
        try {
            return Files.readString(p);
        } catch (java.io.IOException e) {
            return "(" + e + ")";
        }
    }

    void awaitTasks() throws Exception {
        long deadline = System.nanoTime() + 90_000_000_000L;
        Path jobs = bin.resolve("jobs");
        while (true) {
            boolean busy = false;
            if (Files.isDirectory(jobs)) {
                try (Stream<Path> s = Files.list(jobs)) {
                    for (Path p : s.toList()) {
                        String st = Files.readString(p).strip();
                        busy |= st.isEmpty() || st.equals("PENDING") || st.equals("RUNNING"); // empty: being written
                    }
                }
            }
            try (Stream<Path> s = Files.list(bin)) { // a job's background shell still alive (it could still write)
                busy |= s.anyMatch(p -> p.getFileName().toString().startsWith("active."));
            }
            if (!busy) return;
            if (System.nanoTime() > deadline) fail("fake Slurm tasks did not end within 90 s");
            Thread.sleep(50);
        }
    }
}
