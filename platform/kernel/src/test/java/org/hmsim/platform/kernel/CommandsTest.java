package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.results.Environment;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandsTest {
    @TempDir
    Path dir;
    Commands commands;
    SimKernel kernel;
    final ByteArrayOutputStream out = new ByteArrayOutputStream(), err = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        kernel = new SimKernel(Fakes.policies(), Fakes.workloads(), Environment.classpath(), Fakes.SIMULATOR);
        commands = new Commands(kernel);
    }

    int exec(String... args) {
        out.reset();
        err.reset();
        return commands.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    String out() { return out.toString(StandardCharsets.UTF_8); }

    String err() { return err.toString(StandardCharsets.UTF_8); }

    /**
     * A run whose workload and machine are still being built is listed as running with its policies, but sim:swap cannot
     * reach it yet ("no run ... is simulating yet"): status says so (found by a first-day review).
     */
    @Test
    void statusSaysARunBeingSetUpIsNotSimulatingYet() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        SimKernel slow = new SimKernel(Fakes.policies(), Fakes.workloads(), Environment.classpath(), spec -> {
            try {
                release.await(); // still setting up: never registered with the swap hub
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Fakes.SIMULATOR.apply(spec);
        });
        Commands c = new Commands(slow);
        Path good = Fakes.write(dir, "studies/good.yaml", "study: good\nmachine: ../machines/small.yaml\nworkloads: [stream]\n");
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        Thread run = new Thread(() -> c.execute(new String[] {"run", good.toString(), "--out", dir.resolve("slow").toString(), "--jobs", "1", "--no-report"},
                sink, sink, false));
        run.start();
        try {
            String status = "";
            for (int i = 0; i < 200 && !status.contains("0001 running"); i++) {
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                c.execute(new String[] {"status"}, new PrintStream(o, true, StandardCharsets.UTF_8), sink, false);
                status = o.toString(StandardCharsets.UTF_8);
                if (!status.contains("0001 running")) Thread.sleep(25);
            }
            assertTrue(status.contains("0001 running"), status);
            assertTrue(status.contains("setting up: not simulating yet (sim:swap reaches it once it starts)"), status);
            assertFalse(status.contains("swaps: "), status);
        } finally {
            release.countDown();
            run.join(10_000);
        }
    }

    /** A container stopping under validate takes policies away first: that is said, not blamed on the study (an audit). */
    @Test
    void validateUnderAStoppingContainerSaysSoInsteadOfBlamingTheStudy() throws Exception {
        Path bad = Fakes.write(dir, "studies/bad.yaml", "study: bad\nmachine: ../machines/small.yaml\nworkloads: [strem]\n");
        kernel.markClosing();
        assertEquals(Commands.ERROR, exec("validate", bad.toString()));
        assertEquals("validate: stopped before the end (the container is shutting down): the study was not fully checked", err().strip());
    }

    /**
     * At Ctrl-C the bundles of a run's policies leave before the kernel does, and that aborts the run before the kernel
     * is marked closing: {@code run} then printed the summary and drew the report with the kernel's classes going away
     * ("warning: the report could not be written ...: java.lang.NoClassDefFoundError: org/hmsim/platform/report/Planner")
     * instead of its one line saying what is kept. The execution knows the container stopped under it.
     */
    @Test
    void aRunAbortedByTheContainerStoppingSaysWhatIsKeptEvenBeforeTheKernelIsClosing() throws Exception {
        SimKernel stopping = new SimKernel(Fakes.policies(), Fakes.workloads(), Environment.classpath(), spec -> {
            throw new org.hmsim.platform.machine.RunAbortedException("stopped at 1000 ps");
        });
        Commands c = new Commands(stopping);
        Path good = Fakes.write(dir, "studies/good.yaml", "study: good\nmachine: ../machines/small.yaml\nworkloads: [stream, bfs]\n");
        Path results = dir.resolve("aborted");
        out.reset();
        err.reset();
        int code = c.execute(new String[] {"run", good.toString(), "--out", results.toString(), "--jobs", "1"},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), false);
        assertEquals(4, code, "stopped\n" + out() + err());
        assertTrue(err().contains("hmsim run: interrupted; the runs that finished are kept in " + results + " (run --resume continues)"), err());
        assertFalse(out().contains("report: "), "no report drawn while the container stops\n" + out());
        assertFalse(err().contains("report could not be written"), err());
        assertFalse(Files.exists(results.resolve("report.html")), "no report drawn while the container stops");
    }

    /**
     * Headless, {@code hmsim swap} is a new container: it cannot reach a run another hmsim process simulates. It said
     * "no run '0001' in progress (running: none)" while 0001 was running there; like status and stop it now says what it
     * reaches and how to swap a headless study's runs.
     */
    @Test
    void headlessSwapSaysItCannotReachAnotherProcesssRun() throws Exception {
        assertEquals(Commands.BAD_INPUT, exec("swap", "0001", "placement", "interleave"));
        assertTrue(err().contains("hmsim swap: swaps a run of the study this container runs (the shell's sim:swap"), err());
        assertFalse(err().contains("running: none"), err());
        // without a run id too (a plugin author was told "no run in progress" while another process ran one)
        assertEquals(Commands.BAD_INPUT, exec("swap", "placement", "interleave"));
        assertTrue(err().contains("a headless hmsim run cannot be reached from another process"), err());
        assertFalse(err().contains("no run in progress"), err());
    }

    /**
     * docs/workload-files.md says one validate lists a workload file's errors: given the file itself, validate answered with
     * a study's seven "unknown key" errors (a researcher's trial). It now checks the file built with its defaults.
     */
    @Test
    void validateOfAWorkloadFileChecksTheFileNotAStudy() throws Exception {
        Path good = Fakes.write(dir, "workloads/w.yaml", """
                name: w
                params: {n: 1024}
                allocations: [{name: a, size: n * 4}]
                kernels:
                  - {name: k, grid: n / 256, block: 256, steps: [{load: {alloc: a, index: "cta * 256 + tid"}}]}
                """);
        assertEquals(Commands.OK, exec("validate", good.toString()), () -> err() + out());
        assertTrue(out().contains("workload file w is valid with its defaults (n=1024): 1 allocation of 4096 B, 1 kernel launch"), out());
        Path bad = Fakes.write(dir, "workloads/bad.yaml", """
                name: bad
                allocations: [{name: a, size: 4KB}]
                kernels:
                  - {name: k, grid: 1, blok: 32, steps: [{load: {alloc: b, index: tid}}]}
                """);
        assertEquals(Commands.BAD_INPUT, exec("validate", bad.toString()));
        assertTrue(err().contains("bad.yaml:4:24: kernels[0].blok: unknown field 'blok'") && err().contains("kernels[0].steps[0].load.alloc: unknown allocation 'b'")
                && !err().contains("unknown key"), err());
    }

    /** A workload file or trace not found is named as the study wrote it and as an absolute path (a relative one left a researcher guessing). */
    @Test
    void aMissingTraceIsNamedWithItsAbsolutePath() throws Exception {
        Path study = Fakes.write(dir, "studies/t.yaml", "study: t\nmachine: ../machines/small.yaml\nworkloads: [{trace: ../traces/my_ap.hmt}]\n");
        assertEquals(Commands.BAD_INPUT, exec("validate", study.toString()));
        assertTrue(err().contains("not found (looked for ") && err().contains(dir.resolve("traces/my_ap.hmt").toAbsolutePath().toString()), err());
    }

    /** policies SLOT lists that slot alone (the full list ran to 247 lines for a newcomer). */
    @Test
    void policiesOfOneSlot() {
        assertEquals(Commands.OK, exec("policies", "replacement"), err());
        assertTrue(out().startsWith("replacement: ") && out().lines().noneMatch(l -> l.startsWith("placement: ")), out());
        assertEquals(Commands.BAD_INPUT, exec("policies", "placment"));
        assertTrue(err().contains("unknown slot 'placment'"), err());
        assertEquals(Commands.BAD_INPUT, exec("policies", "random"));
        assertTrue(err().contains("'random' is a policy of replacement: hmsim policies replacement"), err());
    }

    /** A workload's allocation names, which policy parameters and hints name, were in no listing (a multi-GPU trial). */
    @Test
    void workloadsNameListsTheAllocationsItBuildsWithItsDefaults() throws Exception {
        assertEquals(Commands.OK, exec("workloads", "stream"), err());
        assertTrue(out().contains("allocations, with the defaults") && out().contains("kernel launches: "), out());
        assertEquals(Commands.BAD_INPUT, exec("workloads", "strem"));
        assertTrue(err().contains("unknown workload 'strem'"), err());
        // and a workload file, as a study's {file: ...} (an irregular-workload trial was told "unknown workload")
        Path file = Fakes.write(dir, "workloads/two.yaml", "name: two\nallocations:\n  - {name: rows, size: 4KB}\n  - {name: cols, size: 8KB}\n"
                + "kernels:\n  - name: k\n    grid: 2\n    block: 64\n    steps:\n      - load: {alloc: rows, index: tid}\n");
        assertEquals(Commands.OK, exec("workloads", file.toString()), err());
        assertTrue(out().contains("rows  4096 B") && out().contains("cols  8192 B") && out().contains("kernel launches: 1"), out());
    }

    @Test
    void validateRunAndExitCodes() throws Exception {
        Path good = Fakes.write(dir, "studies/good.yaml", "study: good\nmachine: ../machines/small.yaml\nworkloads: [stream, bfs]\n");
        assertEquals(0, exec("validate", good.toString(), "--runs"));
        assertTrue(out().contains("is valid: 1 machine x 2 workloads x 1 sweep point x 1 seed = 2 runs"), out());
        assertTrue(out().contains("0002 bfs"), out());

        Path bad = Fakes.write(dir, "studies/bad.yaml", "study: bad\nmachine: ../machines/small.yaml\nworkloads: [strem]\n");
        assertEquals(Commands.BAD_INPUT, exec("validate", bad.toString()));
        assertTrue(err().startsWith(bad + ":3:13: workloads[0]: unknown workload 'strem'"), err());
        assertEquals(Commands.BAD_INPUT, exec("run", bad.toString()));
        assertEquals(Commands.BAD_INPUT, exec("run", dir.resolve("missing.yaml").toString()));
        assertTrue(err().contains("missing.yaml: study file not found"), err());
        // a relative name says where it was looked for (a newcomer's trial)
        assertEquals(Commands.BAD_INPUT, exec("validate", "no/such/study.yaml"));
        assertTrue(err().contains("study file not found (looked for " + Path.of("no/such/study.yaml").toAbsolutePath().normalize() + ")"), err());
        assertEquals(Commands.BAD_INPUT, exec("validate", dir.resolve("studies").toString()));
        assertTrue(err().contains("studies: a folder, not a study file (name a .yaml file in it)"), err());
        assertEquals(Commands.BAD_INPUT, exec("run", good.toString(), "--jobs", "zero"));

        Path results = dir.resolve("res");
        assertEquals(0, exec("run", good.toString(), "--out", results.toString(), "--jobs", "2"));
        assertTrue(out().contains("] 0001 stream ok "), out());
        assertTrue(out().contains("results: " + results), out());
        assertTrue(Files.exists(results.resolve("runs.csv")));
        assertEquals(0, exec("status"));
        assertTrue(out().contains("finished, 2 done, 0 failed"), out());
        assertTrue(out().contains("0002 done"), out());

        Path failing = Fakes.write(dir, "studies/f.yaml", "study: f\nmachine: ../machines/small.yaml\nworkloads: [stream, boom]\n");
        assertEquals(3, exec("run", failing.toString(), "--out", dir.resolve("f").toString(), "--jobs", "1"));
        assertTrue(err().contains("run 0002 failed: see "), err());
        assertEquals(0, exec("run", good.toString(), "--out", results.toString(), "--resume"));
    }

    @Test
    void policiesAndWorkloadsAreListed() {
        assertEquals(0, exec("policies"));
        assertTrue(out().contains("placement: which pool a newly touched page goes to (default: local)"), out());
        assertTrue(out().contains("  ratio 1.0.0  [classpath]"), out());
        assertTrue(out().contains("- fast_percent (int, default 50, range [0, 100]): share of pages in the fast pool, %"), out());
        assertTrue(out().contains("warp-scheduler:"), out());
        assertEquals(0, exec("workloads"));
        assertTrue(out().contains("bfs  [classpath]"), out());
        // headless, a new container has no study: stop and status say how to reach one run elsewhere
        assertEquals(Commands.BAD_INPUT, exec("stop"));
        assertTrue(err().contains("a headless hmsim run stops with Ctrl-C"), err());
        assertEquals(Commands.BAD_INPUT, exec("status"));
        assertTrue(err().contains("hmsim status results/<study>/"), err());
        assertEquals(Commands.BAD_INPUT, exec("frobnicate"));
        // in the shell the same commands answer for the shell's own container
        out.reset();
        assertEquals(0, commands.execute(new String[] {"stop"}, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8), true));
        assertTrue(out().contains("no study is running"), out());
    }

    @Test
    void traceCommandsNameTheParameterAndRefuseToConvertInPlace() throws Exception {
        Path t = dir.resolve("s.hmt");
        assertEquals(Commands.BAD_INPUT, exec("trace", "record", "stream", "--param", "size=abc", "--out", t.toString()));
        assertTrue(err().contains("--param size: "), err());
        assertEquals(Commands.BAD_INPUT, exec("trace", "record", "stream", "--param", "size=1024", "--param", "size=2048", "--out", t.toString()));
        assertTrue(err().contains("--param size is given twice"), err());
        assertEquals(0, exec("trace", "record", "stream", "--param", "size=1024", "--out", t.toString()));
        long size = java.nio.file.Files.size(t);
        assertTrue(!err().contains("host (CPU) phase"), err());
        // a trace holds the GPU kernels only: dropping a workload's host phases is said
        assertEquals(0, exec("trace", "record", "hosted", "--out", dir.resolve("h.hmt").toString()));
        assertTrue(err().contains("warning: hosted has 1 host (CPU) phase, which a trace does not record"), err());
        assertEquals(Commands.BAD_INPUT, exec("trace", "convert", t.toString(), "--out", t.toString()));
        assertTrue(err().contains("is the input itself"), err());
        assertEquals(size, java.nio.file.Files.size(t), "the input is left as it was");
        // nor import or record over their input: a lackey log, an Accel-Sim folder's kernelslist.g, a workload file
        Path log = java.nio.file.Files.writeString(dir.resolve("l.txt"), "I  04000000,3\n L 1ffefffd80,8\n");
        assertEquals(Commands.BAD_INPUT, exec("trace", "import", "lackey", log.toString(), "--out", log.toString()));
        assertTrue(err().contains("--out " + log + " is the input itself"), err());
        assertTrue(java.nio.file.Files.readString(log).startsWith("I  04000000"), "the log is left as it was");
        // a pipe (/dev/stdin, <(...)) as the input: its real path, pipe:[N], does not exist, and the check above failed the
        // import as an internal error (a trace trial); on Linux a pipe of this JVM is reachable at /proc/self/fd/N
        Path fd = Path.of("/proc/self/fd");
        if (java.nio.file.Files.isDirectory(fd)) {
            java.util.Set<String> before = pipes(fd);
            java.nio.channels.Pipe pipe = java.nio.channels.Pipe.open();
            pipe.sink().write(java.nio.ByteBuffer.wrap("I  04000000,3\n L 1ffefffd80,8\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
            pipe.sink().close();
            java.util.Set<String> now = pipes(fd);
            now.removeAll(before);
            Path in = fd.resolve(now.iterator().next());
            assertEquals(Commands.OK, exec("trace", "import", "lackey", in.toString(), "--out", dir.resolve("piped.hmt").toString()), err());
            assertTrue(java.nio.file.Files.size(dir.resolve("piped.hmt")) > 0);
            pipe.source().close();
        }
        Path accel = java.nio.file.Files.createDirectories(dir.resolve("accel"));
        Path list = java.nio.file.Files.writeString(accel.resolve("kernelslist.g"), "kernel-1.traceg\n");
        assertEquals(Commands.BAD_INPUT, exec("trace", "import", "accel-sim", accel.toString(), "--out", list.toString()));
        assertTrue(err().contains("lies inside the input folder " + accel), err());
        assertEquals("kernel-1.traceg\n", java.nio.file.Files.readString(list));
        Path wl = java.nio.file.Files.writeString(dir.resolve("rec.yaml"), "name: w\nallocations: [{name: a, size: 4KB}]\nkernels: [{name: k, grid: 1, block: 32, steps: [{load: {alloc: a, index: tid}}]}]\n");
        String text = java.nio.file.Files.readString(wl);
        assertEquals(Commands.BAD_INPUT, exec("trace", "record", wl.toString(), "--out", wl.toString()));
        assertTrue(err().contains("is the input itself"), err());
        assertEquals(text, java.nio.file.Files.readString(wl));
        // a folder as --out: said before anything is written (it used to leave a stray <out>.part behind)
        Path folder = java.nio.file.Files.createDirectories(dir.resolve("tr"));
        assertEquals(Commands.BAD_INPUT, exec("trace", "record", "stream", "--param", "size=1024", "--out", folder.toString()));
        assertTrue(err().contains("--out " + folder + " is a folder"), err());
        assertEquals(Commands.BAD_INPUT, exec("trace", "convert", t.toString(), "--out", folder.toString()));
        assertTrue(err().contains("is a folder"), err());
        assertFalse(java.nio.file.Files.exists(dir.resolve("tr.part")));
        // a workload file's error found while recording is bad input too, named by file and line
        Path wf = Fakes.write(dir, "w.yaml", "name: w\nallocations:\n  - {name: x, size: 4096}\nkernels:\n  - name: k\n    grid: 1\n    block: 32\n"
                + "    steps:\n      - load: {alloc: x, index: tid, when: \"tid / (tid - 3) > 0\"}\n");
        int code = exec("trace", "record", wf.toString(), "--out", dir.resolve("w.hmt").toString());
        assertTrue(code == Commands.BAD_INPUT && err().contains("w.yaml") && !err().contains("Exception"), code + " " + err());
    }

    @Test
    void aSwapsBadValueNamesItsParameter() {
        assertEquals(Commands.BAD_INPUT, exec("swap", "0001", "placement", "ratio", "fast_percent=200"));
        assertTrue(err().startsWith("swap: fast_percent: value 200 is out of range [0, 100]"), err());
        assertEquals(Commands.BAD_INPUT, exec("swap", "0001", "placement", "ratio", "fast_percnt=20"));
        assertTrue(err().startsWith("swap: unknown parameter"), err());
    }

    /** sim:swap SLOT POLICY with a misspelt slot printed the usage line and "runs in progress" (a shell trial). */
    @Test
    void aSwapsMisspeltSlotIsNamedWithTheSlots() {
        assertEquals(Commands.BAD_INPUT, exec("swap", "warp_sched", "two-level"));
        assertTrue(err().startsWith("swap: unknown slot 'warp_sched'") && err().contains("warp-scheduler"), err());
        assertFalse(out().contains("runs in progress"), out());
        assertEquals(Commands.BAD_INPUT, exec("swap", "0001", "placement"));
        assertTrue(err().startsWith("usage: swap [RUN] SLOT POLICY"), err());
    }

    /** A machine file given to validate was read as a study: seven unknown and missing keys, no hint (a trial). */
    @Test
    void validateChecksAMachineFileAsAMachineFile() throws Exception {
        Path good = Fakes.write(dir, "machines/good.yaml", Fakes.MACHINE);
        assertEquals(Commands.OK, exec("validate", good.toString()), err());
        assertTrue(out().startsWith(good + ": machine file is valid: 1 GPU of "), out());
        Path bad = Fakes.write(dir, "machines/bad.yaml", Fakes.MACHINE.replaceFirst("sms: \\d+", "sms: 0"));
        assertEquals(Commands.BAD_INPUT, exec("validate", bad.toString()));
        int line = java.util.List.of(Fakes.MACHINE.split("\n")).indexOf(Fakes.MACHINE.lines().filter(l -> l.contains("sms:")).findFirst().orElseThrow()) + 1;
        assertTrue(err().startsWith(bad + ":" + line + ":") && err().contains("gpu.sms"), "located in the machine file: " + err());
        assertFalse(err().contains("unknown") || err().contains("missing"), "not read as a study: " + err());
    }

    @Test
    void conformCallsABadMachineFileAnInputError() throws Exception {
        Path bad = Fakes.write(dir, "machines/bad.yaml", Fakes.MACHINE.replaceFirst("sms: \\d+", "sms: 0"));
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "local", "--machine", bad.toString(), "--work", dir.resolve("c").toString()));
        assertTrue(err().contains("--machine " + bad) && err().contains("gpu.sms"), err());
        assertFalse(out().contains("PASS"), "an input error is said before any check runs\n" + out());
    }

    /** A misspelt --machine printed six PASS lines of parameter checks before "no machine file" and exit 2. */
    @Test
    void conformRefusesAMissingMachineFileBeforeAnyCheck() throws Exception {
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "local", "--machine", dir.resolve("machines/smal.yaml").toString()));
        assertTrue(err().contains("conform: no machine file " + dir.resolve("machines/smal.yaml")), err());
        assertEquals("", out(), "no check ran, none is reported");
    }

    @Test
    void conformNeverWritesIntoAFolderThatHoldsSomething() throws Exception {
        Path m = Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        Path mine = Fakes.write(dir, "mine/det-a.yaml", "my own study\n");
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "local", "--machine", m.toString(), "--work", mine.getParent().toString()));
        assertTrue(err().contains("is not empty"), err());
        assertEquals("my own study\n", java.nio.file.Files.readString(mine), "left as it was");
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "local", "--machine", m.toString(), "--work", mine.toString()));
        assertTrue(err().contains("is not a folder"), err());
    }

    @Test
    void conformSaysWhyASwapCheckFailedAndNeverPassesASwapOutOfAPolicyThatNeverGotIn() throws Exception {
        // the fake simulator performs no swaps: there is no swaps.csv, so no swap happened
        Path m = Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        Path work = dir.resolve("c");
        assertEquals(3, exec("conform", "migration", "none", "--machine", m.toString(), "--work", work.toString()));
        assertTrue(out().contains("placement interleave"), "a migration policy gets pages in every pool to act on\n" + out());
        assertTrue(out().contains("FAIL swap in mid-run (epoch 2): no such swap in swaps.csv"), out());
        assertTrue(out().contains("FAIL swap out mid-run (epoch 6) and the run completes: it was never swapped in"), out());
        assertTrue(out().contains("PASS parameter names are unique"), out());
        assertTrue(out().contains("check(s) failed (studies and results in " + work + ")"), out());
        assertTrue(java.nio.file.Files.isDirectory(work), "a given --work folder is kept");
    }

    /**
     * A run on the policy that does not complete is its own failed check, with the reason, not only "determinism" (a
     * researcher's trial: a crash in the policy read as two runs differing). Here the fake kernel's stream refuses
     * conform's parameters, so the run never starts and there is no error.txt to quote.
     */
    @Test
    void conformSaysARunOnThePolicyDidNotCompleteAndWhy() throws Exception {
        Path m = Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        assertEquals(3, exec("conform", "placement", "local", "--machine", m.toString(), "--work", dir.resolve("c").toString()));
        assertTrue(out().contains("FAIL a run that starts on it completes: no stats.json and no error.txt"), out());
        assertTrue(out().contains("FAIL determinism: two runs with seed 7 give identical stats.json: the run failed (above)"), out());
    }

    /** With its defaults a policy may act on nothing in the check's runs: --param gives it parameters there (a migration trial). */
    @Test
    void conformRunsThePolicyWithTheParametersGiven() throws Exception {
        Path m = Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        exec("conform", "placement", "ratio", "--param", "fast_percent=30", "--machine", m.toString(), "--work", dir.resolve("c").toString());
        assertTrue(java.nio.file.Files.readString(dir.resolve("c/det-a.yaml")).contains("placement: {name: ratio@1.0.0, fast_percent: '30'}"), out());
        assertTrue(java.nio.file.Files.readString(dir.resolve("c/swap.yaml")).contains("to: {name: ratio@1.0.0, fast_percent: '30'}"), out());
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "ratio", "--param", "fast_percent=300", "--machine", m.toString()));
        assertTrue(err().contains("fast_percent") && err().contains("out of range"), err());
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "ratio", "--param", "fast_percent", "--machine", m.toString()));
        assertTrue(err().contains("--param fast_percent is not name=value"), err());
    }

    /**
     * A check that throws something other than a refusal (IllegalArgumentException) is the plugin's fault: a failed
     * check, exit 3, not "choose another machine" (exit 2), which a second review found it called.
     */
    @Test
    void conformCallsACheckThatCrashesAFailedCheckNotABadMachine() throws Exception {
        addPlacementCheckedBy("crashy", java.util.List.of(), (p, run) -> {
            String none = run.allocations().isEmpty() ? null : "x";
            none.length(); // the bug: a NullPointerException on every machine
        });
        Path m = Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        assertEquals(3, exec("conform", "placement", "crashy", "--machine", m.toString(), "--work", dir.resolve("c").toString()));
        assertTrue(out().contains("FAIL check(Params, RunFacts) answers this machine: java.lang.NullPointerException"), out());
        assertFalse(err().contains("choose a machine"), err());
    }
    /** A check that refuses a value given with --param blamed the machine ("--machine m: ... refuses it"): it names the parameter. */
    @Test
    void conformSaysARefusedParameterValueIsTheParametersFault() throws Exception {
        org.hmsim.api.policy.ParamSpec pools = org.hmsim.api.policy.ParamSpec.string("pool", "", "the pool to fill first");
        addPlacementCheckedBy("fussy", java.util.List.of(pools), (p, run) -> {
            if (!p.getString("pool").isEmpty()) throw new IllegalArgumentException("parameter 'pool': this machine has no pool '" + p.getString("pool") + "'");
        });
        Path m = Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        assertEquals(Commands.BAD_INPUT, exec("conform", "placement", "fussy", "--param", "pool=hbm9", "--machine", m.toString()));
        assertTrue(err().contains("conform: --param pool: fussy refuses it on " + m + ": parameter 'pool': this machine has no pool 'hbm9'"), err());
        assertFalse(err().contains("choose a machine"), err());
    }

    /** A placement policy {@code name} with these parameters whose {@code check(Params, RunFacts)} is {@code check}. */
    private void addPlacementCheckedBy(String name, java.util.List<org.hmsim.api.policy.ParamSpec> params,
                                       java.util.function.BiConsumer<org.hmsim.api.policy.Params, org.hmsim.api.policy.RunFacts> check) {
        org.hmsim.api.policy.PolicyProvider fake = new Fakes.Provider(org.hmsim.api.policy.Slot.PLACEMENT, name, "1.0.0", params, false);
        kernel.policies().add(new org.hmsim.api.policy.PolicyProvider() {
            @Override public org.hmsim.api.policy.Slot slot() { return fake.slot(); }

            @Override public String name() { return fake.name(); }

            @Override public String description() { return "a policy whose check is the test's"; }

            @Override public java.util.List<org.hmsim.api.policy.ParamSpec> parameters() { return params; }

            @Override public org.hmsim.api.policy.Policy create(org.hmsim.api.policy.PolicyContext c, org.hmsim.api.policy.Params p) { return fake.create(c, p); }

            @Override public void check(org.hmsim.api.policy.Params p, org.hmsim.api.policy.RunFacts run) { check.accept(p, run); }
        });
    }

    /** The descriptors of this process that are pipes, by number. */
    private static java.util.Set<String> pipes(Path fd) throws java.io.IOException {
        java.util.Set<String> out = new java.util.HashSet<>();
        try (var list = java.nio.file.Files.list(fd)) {
            for (Path p : list.toList()) {
                try {
                    if (java.nio.file.Files.readSymbolicLink(p).toString().startsWith("pipe:")) out.add(p.getFileName().toString());
                } catch (java.io.IOException | UnsupportedOperationException gone) {
                    // closed meanwhile
                }
            }
        }
        return out;
    }
}
