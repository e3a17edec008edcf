package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/hmsim} as a user runs it: through a symlink, with a typo, and as a shell fed from a pipe. */
class LauncherTest {
    @TempDir Path dir;

    @Test
    void theScriptFindsItsInstallationThroughASymlinkAndRefusesUnknownCommands() throws Exception {
        Path script = Hmsim.home().resolve("bin/hmsim");
        assertTrue(Files.isExecutable(script), "bin/hmsim is executable");
        Path link = Files.createSymbolicLink(dir.resolve("hmsim"), script);

        Output help = run(link, "", "--help");
        assertEquals(0, help.code, help::toString);
        assertTrue(help.out.startsWith("usage: hmsim"), help::toString);

        Output typo = run(link, "", "rnu");
        assertEquals(2, typo.code, typo::toString);
        assertTrue(typo.err.contains("unknown command 'rnu'"), typo::toString);
    }

    @Test
    void theShellRunsSimCommandsAndInstallsBundlesLikeAnyFelixShell() throws Exception {
        // Fed from a pipe, `hmsim shell` uses the plain Gogo console, runs the lines and stops at end of input.
        String script = String.join("\n",
                "sim:policies",
                "start " + Hmsim.pluginJar().toUri(),
                "echo ---installed---",
                "sim:policies", "");
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), script, "shell");

        assertEquals(0, shell.code, shell::toString);
        int mark = shell.out.indexOf("---installed---");
        assertTrue(mark > 0, shell::toString);
        String before = shell.out.substring(0, mark), after = shell.out.substring(mark);
        assertTrue(before.contains("  local ") && !before.contains("first-fit"), "baseline only before\n" + shell);
        assertTrue(after.contains("  first-fit 1.0.0  [org.hmsim.example.plugin"), "first-fit after start\n" + shell);
    }

    /**
     * After an update of the api bundle (bundle 1: the launcher installs bundle/ in name order) the old revision stays
     * wired until a refresh; Gogo 1.1.2's own {@code refresh} throws without arguments, so {@code sim:refresh} does it,
     * and the kernel it restarts serves commands again.
     */
    @Test
    void simRefreshRewiresAfterAnApiUpdateAndTheKernelComesBack() throws Exception {
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n",
                "update 1", "sim:refresh", "echo ---again---", "sim:refresh", "echo ---after---", "sim:policies", ""), "shell");
        assertEquals(0, shell.code, shell::toString);
        int again = shell.out.indexOf("---again---"), after = shell.out.indexOf("---after---");
        assertTrue(again > 0 && after > again, shell::toString);
        assertTrue(shell.out.substring(0, again).contains("refreshed org.hmsim.api "), shell::toString);
        assertTrue(shell.out.substring(again, after).contains("nothing to refresh"), shell::toString);
        assertTrue(shell.out.substring(after).contains("  local 1.0.0  [org.hmsim.baseline"), "policies listed again\n" + shell);
    }

    /**
     * {@code hmsim --version} says the running kernel's version and the source it was built from; it said the launcher
     * jar's 0.1.0-SNAPSHOT while study.json recorded the kernel bundle's stamp (an artifact evaluator).
     */
    @Test
    void versionSaysTheKernelsVersionAndSource() throws Exception {
        Output v = run(Hmsim.home().resolve("bin/hmsim"), "", "--version");
        assertEquals(0, v.code, v::toString);
        assertTrue(v.out.matches("hmsim 0\\.1\\.0\\.\\d{12}( \\(source [0-9a-f]{7,40}(-dirty)?\\))?\\R"), v::toString);
        boolean fromGit = new ProcessBuilder("git", "rev-parse", "--git-dir").directory(Hmsim.home().toFile()).start().waitFor() == 0;
        if (fromGit) assertTrue(v.out.contains("(source "), "built in a git checkout: the commit is known\n" + v);
    }

    /** The shell's help and usage name the commands as typed there: {@code help sim:run} said only "parameters: String[]", {@code sim:await --help} "Usage: hmsim await". */
    @Test
    void theShellsHelpNamesItsCommandsAsTypedThere() throws Exception {
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n",
                "help sim:run", "echo ---usage---", "sim:await --help", "echo ---nested---", "sim:trace import --help", ""), "shell");
        assertEquals(0, shell.code, shell::toString);
        int usage = shell.out.indexOf("---usage---"), nested = shell.out.indexOf("---nested---");
        assertTrue(usage > 0 && nested > usage, shell::toString);
        String help = shell.out.substring(0, usage);
        assertTrue(help.contains("Runs a study in the background") && help.contains("sim:run --help lists them"), shell::toString);
        assertTrue(shell.out.substring(usage, nested).contains("Usage: sim:await [-hV] [--timeout=T]"), shell::toString);
        assertTrue(shell.out.substring(nested).contains("Usage: sim:trace import "), shell::toString);
    }

    @Test
    void aPipedShellExitsWithTheCodeOfTheLastFailedSimCommand() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "study: x\nmachine: nowhere.yaml\nworkloads: [stream]\n");
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "sim:validate " + bad, "sim:policies", ""), "shell");
        assertEquals(2, shell.code, "a script sees that a command failed\n" + shell);
        assertTrue(shell.err.contains("sim:validate: exit code 2"), shell::toString);
    }

    /** A typo in a piped script (an unknown command) fails the shell with 2, bad input; a clean script still exits 0. */
    @Test
    void aPipedShellWithAnUnknownCommandExitsTwo() throws Exception {
        Output typo = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "sim:frobnicate", "sim:policies", ""), "shell");
        assertEquals(2, typo.code, "a script sees that a command was not found\n" + typo);
        assertTrue((typo.out + typo.err).contains("Command not found: sim:frobnicate"), typo::toString);
        Output clean = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "lb", "sim:policies", "exit", ""), "shell"); // a bare exit quits
        assertEquals(0, clean.code, clean::toString);
    }

    /**
     * {@code exit} ends the shell where it stands, {@code exit N} with N, and neither prints an exception. Gogo's own
     * was {@code System.exit}: {@code exit 3} printed "InterruptedException: null", and a bare {@code exit} fitted
     * no signature and left the shell running (a piped script went on to its next line).
     */
    @Test
    void exitEndsTheShellAtOnceWithTheCodeAsked() throws Exception {
        Output bare = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "exit", "echo ---not-reached---", ""), "shell");
        assertEquals(0, bare.code, bare::toString);
        assertFalse(bare.out.contains("---not-reached---"), "the shell went on after exit\n" + bare);
        assertFalse((bare.out + bare.err).contains("Exception"), bare::toString);

        Output three = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "sim:frobnicate", "exit 3", "echo ---not-reached---", ""), "shell");
        assertEquals(3, three.code, "exit 3 wins over the failed command's 2\n" + three);
        assertFalse(three.out.contains("---not-reached---"), "the shell went on after exit 3\n" + three);
        assertFalse((three.out + three.err).contains("InterruptedException"), three::toString);

        Output zero = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "sim:frobnicate", "exit 0", ""), "shell");
        assertEquals(0, zero.code, "exit 0 after a failure\n" + zero);

        // in a sourced file or one run by gosh (a child session), exit ends the shell that ran it
        Path script = Files.writeString(dir.resolve("ends.gosh"), "echo in-script\nexit 5\n");
        for (String how : new String[] {"source ", "gosh "}) {
            Output nested = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", how + script, "echo ---not-reached---", ""), "shell");
            assertEquals(5, nested.code, how + nested);
            assertFalse(nested.out.contains("---not-reached---"), how + "the shell went on after the script's exit\n" + nested);
        }

        Output bad = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "exit abc", "echo ---not-reached---", ""), "shell");
        assertEquals(2, bad.code, "a bad exit code is bad input, and still ends the shell\n" + bad);
        assertTrue(bad.err.contains("exit: expected at most one exit code (a whole number), was 'abc'"), bad::toString);
        assertFalse(bad.out.contains("---not-reached---"), bad::toString);
    }

    /**
     * {@code exit} in a file run by {@code source} or {@code gosh} ended the shell only after the file's last line: the
     * lines after it still ran, a {@code sim:run} among them (which moved the folder's results to previous/ and was
     * then stopped). The file now ends at its {@code exit}; the code is the one asked, or for a bare exit the last
     * failure's.
     */
    @Test
    void exitInAScriptEndsItWhereItStands() throws Exception {
        Path script = Files.writeString(dir.resolve("stops.gosh"), "echo ---in-script---\nexit 5\necho ---after-exit---\nsim:validate nowhere.yaml\n");
        Path bare = Files.writeString(dir.resolve("bare.gosh"), "echo ---in-script---\nexit\necho ---after-exit---\n");
        for (String how : new String[] {"source ", "gosh "}) {
            Output nested = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", how + script, "echo ---not-reached---", ""), "shell");
            assertEquals(5, nested.code, how + nested);
            assertTrue(nested.out.contains("---in-script---"), how + nested);
            assertFalse(nested.out.contains("---after-exit---"), how + "the script went on after its exit\n" + nested);
            assertFalse(nested.err.contains("nowhere.yaml"), how + "a command after exit ran\n" + nested);
            assertFalse(nested.out.contains("---not-reached---"), how + nested);

            Output zero = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", how + bare, "echo ---not-reached---", ""), "shell");
            assertEquals(0, zero.code, "a bare exit in a script is no failure\n" + how + zero);
            assertFalse(zero.out.contains("---after-exit---"), how + "the script went on after its exit\n" + zero);
            assertFalse(zero.out.contains("---not-reached---"), how + zero);
        }
    }

    /**
     * Gogo passes a variable that was never set ({@code $x}) as null: a sim: command threw a NullPointerException with
     * its stack trace and exit 1, {@code sim:stop $x} and {@code exit $x} a bare "NullPointerException" and exit 0. Each
     * now names the empty argument and fails with 2, bad input, without running.
     */
    @Test
    void anUnsetShellVariableIsBadInputNamedByItsPosition() throws Exception {
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n",
                "sim:report $x", "sim:report results --out $x", "sim:stop $x", "stop $x", "sim:refresh $x", "echo ---went-on---", ""), "shell");
        assertEquals(2, shell.code, shell::toString);
        assertTrue(shell.err.contains("sim:report: argument 1 is empty (an unset shell variable?)"), shell::toString);
        assertTrue(shell.err.contains("sim:report: argument 3 is empty (an unset shell variable?)"), shell::toString);
        assertTrue(shell.err.contains("sim:stop: argument 1 is empty (an unset shell variable?)"), shell::toString);
        assertTrue(shell.err.contains("sim:refresh: argument 1 is empty (an unset shell variable?)"), shell::toString);
        assertFalse((shell.out + shell.err).contains("Exception"), "no exception, no stack trace\n" + shell);
        assertTrue(shell.out.contains("---went-on---"), "the shell goes on, as after any failed command\n" + shell);

        Output exit = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "exit $x", "echo ---not-reached---", ""), "shell");
        assertEquals(2, exit.code, "exit with an empty argument is bad input, and still ends the shell\n" + exit);
        assertTrue(exit.err.contains("exit: argument 1 is empty (an unset shell variable?)"), exit::toString);
        assertFalse(exit.out.contains("---not-reached---"), exit::toString);
        assertFalse((exit.out + exit.err).contains("Exception"), exit::toString);
    }

    /**
     * At the interactive prompt (JLine's console, which hmsim starts only on a terminal) a line with a closing bracket
     * that opens nothing ended the shell with exit 0: Gogo's console took the reader's empty result for Ctrl-D. The
     * terminal is util-linux's {@code script}, a pseudo-terminal around the shell; the typed lines wait in it until
     * the prompt reads them.
     */
    @Test
    void aStrayClosingBracketAtTheInteractivePromptIsExplainedAndTheShellGoesOn() throws Exception {
        Path scriptTool = Path.of("/usr/bin/script");
        assumeTrue(Files.isExecutable(scriptTool), "util-linux's script (a pseudo-terminal for the JLine console) is not installed here");
        Path typed = Files.writeString(dir.resolve("typed.txt"), "sim:run )\recho ---went-on---\rexit 3\r");
        Path out = dir.resolve("tty.txt");
        Process p = new ProcessBuilder(scriptTool.toString(), "-qfec", Hmsim.home().resolve("bin/hmsim") + " shell", "/dev/null")
                .directory(dir.toFile()).redirectInput(typed.toFile()).redirectOutput(out.toFile()).redirectErrorStream(true).start();
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shell finished within 60 s");
        } finally {
            p.destroyForcibly();
        }
        String tty = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(tty.contains("syntax error (the line was not run): unexpected token ')' in: sim:run )"), tty);
        assertTrue(tty.contains("---went-on---"), "the prompt came back after the refused line\n" + tty);
        assertEquals(3, p.exitValue(), "the shell ended at exit 3, not at the refused line\n" + tty);
    }

    /**
     * A line Gogo cannot parse (an unclosed quote or bracket, a stray closing one) ran nothing and left the exit code
     * at 0: a piped script with a typo looked as if it had worked. It is bad input (2), and a line on stderr says what
     * is wrong in words, with the line. Gogo's own line stays on stdout: its console prints it (see ShellFailureListener).
     */
    @Test
    void aSyntaxErrorInAPipedScriptExitsTwoAndSaysWhatIsWrong() throws Exception {
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n",
                "sim:run \"examples/studies/quickstart.yaml", "sim:run {", "sim:run )", "echo ---went-on---", ""), "shell");
        assertEquals(2, shell.code, "a script sees that a line could not be parsed\n" + shell);
        assertTrue(shell.err.contains("syntax error (the line was not run): unclosed quote (\") in: sim:run \"examples/studies/quickstart.yaml"),
                shell::toString);
        assertTrue(shell.err.contains("syntax error (the line was not run): unclosed bracket (no closing }) in: sim:run {"), shell::toString);
        assertTrue(shell.err.contains("syntax error (the line was not run): unexpected token ')' in: sim:run )"), shell::toString);
        assertFalse(shell.err.contains("org.apache.felix") || shell.err.contains("Exception"), "no Gogo class names on stderr\n" + shell);
        assertTrue(shell.out.contains("---went-on---"), shell::toString);

        // a file run by source or gosh is parsed whole first: nothing of it runs, and the error names its line
        Path script = Files.writeString(dir.resolve("typo.gosh"), "echo ---in-script---\nsim:validate 'examples/studies/quickstart.yaml\necho two\n");
        for (String how : new String[] {"source ", "gosh "}) {
            Output nested = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", how + script, "echo ---went-on---", ""), "shell");
            assertEquals(2, nested.code, how + nested);
            assertTrue(nested.err.contains("syntax error in line 2 of the script (none of it was run): unclosed quote (') in: sim:validate 'examples"),
                    how + nested);
            assertEquals(1, nested.err.split("syntax error", -1).length - 1, "said once, not again for the line that ran the file\n" + nested);
            assertFalse(nested.out.contains("---in-script---"), how + nested);
        }
    }

    @Test
    void aHeadlessCommandSeesEveryPluginAlreadyInThePluginsFolder() throws Exception {
        // FileInstall scans asynchronously: the launcher must wait for its first scan, or `policies`
        // would list the built-in policies only.
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        Files.copy(Hmsim.pluginJar(), plugins.resolve("first-fit.jar"));

        Output listed = run(Hmsim.home().resolve("bin/hmsim"), "", "policies", "-Dhmsim.plugins=" + plugins);

        assertEquals(0, listed.code, listed::toString);
        assertTrue(listed.out.contains("  first-fit 1.0.0  [org.hmsim.example.plugin"), listed::toString);
    }

    /**
     * A plugin built against a newer api does not resolve. Headless and in the shell (dropped into plugins/ while it
     * runs) it gets one line naming the jar, the package and versions it needs and those this container has; FileInstall's
     * own report, a stack trace, is kept quiet.
     */
    @Test
    void aPluginThatCannotResolveIsExplainedInOneLineHeadlessAndInTheShell() throws Exception {
        String says = "newer-api.jar: INSTALLED (not resolved) — it needs package org.hmsim.api.policy version 2.0.0 up to (not including) 3.0.0;"
                + " this container has 1.";
        Path plugins = Files.createDirectory(dir.resolve("plugins"));
        Path jar = newerApiPlugin(dir.resolve("newer-api.jar"));
        Files.copy(jar, plugins.resolve("newer-api.jar"));
        var plainManifest = new java.util.jar.Manifest();
        plainManifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        try (var plain = new java.util.jar.JarOutputStream(Files.newOutputStream(plugins.resolve("plain.jar")), plainManifest)) {
            plain.flush(); // a jar, but no bundle
        }
        bundleJar(plugins.resolve("no-component.jar"), "com.example.nocomp", "org.hmsim.api.policy;version=\"[1.0,2)\"");
        long t0 = System.nanoTime();
        Output headless = run(Hmsim.home().resolve("bin/hmsim"), "", "policies", "-Dhmsim.plugins=" + plugins);
        assertTrue(System.nanoTime() - t0 < 8_000_000_000L, "jars that cannot come up do not hold the command up (took ~11 s)");
        assertEquals(0, headless.code, headless::toString);
        assertTrue(headless.err.contains("hmsim: warning: " + says), headless::toString);
        assertTrue(headless.err.contains("hmsim: warning: plain.jar: not an OSGi bundle"), headless::toString);
        assertTrue(headless.err.contains("hmsim: warning: no-component.jar: active but declares no DS component"), headless::toString);
        assertFalse(headless.err.contains("\tat "), "no stack trace\n" + headless);

        Path hot = Files.createDirectory(dir.resolve("hot"));
        Process p = start(List.of("shell"), "-Dhmsim.plugins=" + hot);
        try (var stdin = p.getOutputStream()) {
            stdin.write("sim:policies\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            await(p, () -> Files.readString(dir.resolve("stdout.txt"), StandardCharsets.UTF_8).contains("placement:"), "the shell's first answer");
            Files.copy(jar, hot.resolve("newer-api.jar"));
            await(p, () -> Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8).contains(says), "the warning for the dropped jar");
        }
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shell ended at the end of its input");
        } finally {
            p.destroyForcibly();
        }
        String err = Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8);
        assertEquals(1, err.split("newer-api.jar", -1).length - 1, "one line\n" + outputs());
        assertFalse(err.contains("\tat "), "no stack trace\n" + outputs());
    }

    /** A bundle that imports the policy api at 2.x, as a plugin built against a newer hmsim would. */
    private static Path newerApiPlugin(Path jar) throws Exception {
        return bundleJar(jar, "com.example.newer", "org.hmsim.api.policy;version=\"[2.0,3)\"");
    }

    /** A bundle of a manifest only: its name and imports. */
    private static Path bundleJar(Path jar, String name, String imports) throws Exception {
        var mf = new java.util.jar.Manifest();
        var a = mf.getMainAttributes();
        a.put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Bundle-ManifestVersion", "2");
        a.putValue("Bundle-SymbolicName", name);
        a.putValue("Bundle-Version", "1.0.0");
        a.putValue("Import-Package", imports);
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), mf)) {
            return jar;
        }
    }

    @Test
    void sigtermDuringAStudySaysInOneLineWhatIsKeptAndResumeFinishesIt() throws Exception {
        Path study = longStudy();
        Path out = dir.resolve("results");
        Process p = start(List.of("run", study.toString(), "--out", out.toString(), "--jobs", "1"));
        try {
            awaitFinishedRun(p, out);
            p.destroy(); // SIGTERM, as Ctrl-C's SIGINT: the JVM's shutdown stops the container under the study
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "hmsim stopped within 60 s of SIGTERM");
        } finally {
            p.destroyForcibly();
        }
        String err = Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8);
        assertTrue(p.exitValue() != 0, "an interrupted run does not exit 0\n" + err);
        assertTrue(err.contains("hmsim run: interrupted; the runs that finished are kept in " + out), err);
        assertTrue(!err.contains("Exception") && !err.contains("\tat "), "no stack trace of the stopping framework\n" + err);

        Output resumed = run(Hmsim.home().resolve("bin/hmsim"), "", "run", study.toString(), "--out", out.toString(), "--resume", "--no-report");
        assertEquals(0, resumed.code, resumed::toString);
        assertEquals(RUNS + 1, Files.readAllLines(out.resolve("runs.csv")).size(), "every run in runs.csv after --resume\n" + resumed);
    }

    @Test
    void aBackgroundStudyStoppedInThePipedShellSetsTheShellsExitCode() throws Exception {
        Path out = dir.resolve("results");
        Process p = pipedShellRunning(out, (stdin, shell) -> {
            stdin.write("sim:stop\n".getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            // the study's summary line comes after it has set the shell's exit code
            await(shell, () -> Files.readString(dir.resolve("stdout.txt"), StandardCharsets.UTF_8).contains("(stopped)"), "the stopped study's summary");
        });
        assertEquals(4, p.exitValue(), "a stopped background study's code (4) is the shell's\n" + outputs());
    }

    /**
     * The piped shell's input ends while a run is in flight: the runs in flight stop at their next safe point
     * (no error recorded), study.json says "stopped", the folder is released, and the shell exits 4. A review found
     * the shell exiting 0 with study.json still "running".
     */
    @Test
    void theShellEndingUnderARunInFlightRecordsTheStudyAsStoppedAndExits4() throws Exception {
        Path out = dir.resolve("results");
        Process p = pipedShellRunning(out, (stdin, shell) -> { }); // end of input while the next run is in flight: the shell stops under it
        String all = outputs();
        assertEquals(4, p.exitValue(), "the study was stopped\n" + all);
        String provenance = Files.readString(out.resolve("study.json"), StandardCharsets.UTF_8);
        assertTrue(provenance.contains("\"stopped\""), "study.json records the stop\n" + provenance + all);
        try (var runs = Files.list(out.resolve("runs"))) {
            assertTrue(runs.noneMatch(r -> Files.exists(r.resolve("error.txt"))), "a run stopped by the container is not a failed run\n" + all);
        }
        assertFalse(Files.readString(out.resolve("runs.csv"), StandardCharsets.UTF_8).contains("failed"), all);
        Output resumed = run(Hmsim.home().resolve("bin/hmsim"), "", "run", longStudy().toString(), "--out", out.toString(), "--resume", "--no-report");
        assertEquals(0, resumed.code, "the folder was released and --resume finishes the study\n" + resumed);
        assertEquals(RUNS + 1, Files.readAllLines(out.resolve("runs.csv")).size(), resumed::toString);
    }

    /**
     * A script that starts a study and waits for it ends with its report written: sim:run draws the report after the
     * study, and a shell ending right after sim:await closed the framework under it (no report.html, a
     * NoClassDefFoundError on stderr, 3 times out of 3; found by a design review).
     */
    @Test
    void aScriptEndingAfterSimAwaitHasTheStudysReport() throws Exception {
        Path study = Files.writeString(dir.resolve("two.yaml"), String.join("\n",
                "study: two",
                "machine: " + Hmsim.smallMachine(),
                "workloads: [{name: stream, elements: 16384}]",
                "seeds: [1, 2]",
                "report: [{title: time, metric: sim_time_ns, by: workload}, {title: bytes, metric: line_requests, by: workload}]", ""));
        Path out = dir.resolve("results");
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n",
                "sim:run " + study + " --out " + out + " --jobs 1", "sim:await", ""), "shell");
        assertEquals(0, shell.code, shell::toString);
        assertTrue(Files.isRegularFile(out.resolve("report.html")), "report.html written before the shell ended\n" + shell);
        try (var figures = Files.list(out.resolve("figures"))) {
            assertEquals(2, figures.filter(f -> f.toString().endsWith(".png")).count(), shell::toString);
        }
        assertFalse(shell.err.contains("could not be written"), shell::toString);
        int report = shell.out.indexOf("report: "), ended = shell.out.indexOf("study two ended");
        assertTrue(report >= 0 && ended > report, "sim:await answers once the report is written\n" + shell);
    }

    /**
     * On a terminal {@code hmsim run} draws a progress bar: it never did headless, where the jline bundle its character
     * widths come from was not installed (found by a design review). The terminal is util-linux's {@code script}.
     */
    @Test
    void runOnATerminalDrawsAProgressBar() throws Exception {
        Path script = Path.of("/usr/bin/script");
        assumeTrue(Files.isExecutable(script), "util-linux script (a pseudo-terminal) is not installed here");
        Path study = Files.writeString(dir.resolve("bar.yaml"), String.join("\n", "study: bar", "machine: " + Hmsim.smallMachine(),
                "workloads: [{name: stream, elements: 16384}]", "seeds: [1, 2]", ""));
        String command = Hmsim.home().resolve("bin/hmsim") + " run " + study + " --out " + dir.resolve("results") + " --no-report";
        Output tty = run(script, "", "-qec", command, "/dev/null");
        assertEquals(0, tty.code, tty::toString);
        assertTrue(tty.out.contains("100% [") && tty.out.contains("2/2 runs"), "a bar on the terminal\n" + tty);
        Output piped = run(Hmsim.home().resolve("bin/hmsim"), "", "run", study.toString(), "--out", dir.resolve("piped").toString(), "--no-report");
        assertFalse(piped.out.contains("% ["), "plain lines into a pipe\n" + piped);
    }

    private interface Input { void write(java.io.OutputStream stdin, Process shell) throws Exception; }

    /**
     * A piped shell that runs {@link #longStudy()} into {@code out}; once one run has finished (the next in flight)
     * {@code then} writes more input, and the input ends. Returns the ended shell.
     */
    private Process pipedShellRunning(Path out, Input then) throws Exception {
        Process p = start(List.of("shell"));
        try (var stdin = p.getOutputStream()) {
            stdin.write(("sim:run " + longStudy() + " --out " + out + " --jobs 1\n").getBytes(StandardCharsets.UTF_8));
            stdin.flush();
            awaitFinishedRun(p, out);
            then.write(stdin, p);
        }
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the shell ended at the end of its input");
        } finally {
            p.destroyForcibly();
        }
        return p;
    }

    private String outputs() throws Exception {
        return "--- stdout\n" + Files.readString(dir.resolve("stdout.txt"), StandardCharsets.UTF_8) + "--- stderr\n"
                + Files.readString(dir.resolve("stderr.txt"), StandardCharsets.UTF_8);
    }

    private static final int RUNS = 8;

    /** A study of {@value #RUNS} runs, each long enough that a signal lands while some are still to run. */
    private Path longStudy() throws Exception {
        return Files.writeString(dir.resolve("long.yaml"), String.join("\n",
                "study: long",
                "machine: " + Hmsim.smallMachine(),
                "workloads: [{name: stream, elements: 262144}]",
                "seeds: " + java.util.stream.IntStream.rangeClosed(1, RUNS).boxed().toList(), ""));
    }

    /** Waits until one run of the study in {@code out} has its stats.json, that is, has finished. */
    private static void awaitFinishedRun(Process p, Path out) throws Exception {
        await(p, () -> {
            Path runs = out.resolve("runs");
            if (!Files.isDirectory(runs)) return false;
            try (var s = Files.list(runs)) {
                return s.anyMatch(r -> Files.exists(r.resolve("stats.json")));
            }
        }, "a finished run in " + out);
    }

    private interface Check { boolean holds() throws Exception; }

    private static void await(Process p, Check c, String what) throws Exception {
        long deadline = System.nanoTime() + 90_000_000_000L;
        while (!c.holds()) {
            assertTrue(p.isAlive(), "hmsim ended before " + what);
            assertTrue(System.nanoTime() < deadline, "waited 90 s for " + what);
            Thread.sleep(50);
        }
    }

    /** Starts bin/hmsim with stdout and stderr to files in {@code dir}; stdin stays a pipe. */
    private Process start(List<String> args) throws Exception { return start(args, ""); }

    /** As {@link #start(List)}, with {@code jvmOptions} for the JVM (HMSIM_JAVA_OPTS). */
    private Process start(List<String> args, String jvmOptions) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Hmsim.home().resolve("bin/hmsim").toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(dir.resolve("stdout.txt").toFile()).redirectError(dir.resolve("stderr.txt").toFile());
        pb.environment().put("HMSIM_JAVA_OPTS", jvmOptions);
        return pb.start();
    }

    /** Runs bin/hmsim; arguments starting with -D go to the JVM (HMSIM_JAVA_OPTS), the others to hmsim. */
    private Output run(Path script, String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(script.toString()));
        StringBuilder jvm = new StringBuilder();
        for (String a : args) {
            if (a.startsWith("-D")) jvm.append(a).append(' ');
            else cmd.add(a);
        }
        Path in = Files.writeString(dir.resolve("stdin.txt"), stdin);
        Path out = dir.resolve("stdout.txt"), err = dir.resolve("stderr.txt");
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("HMSIM_JAVA_OPTS", jvm.toString().trim());
        Process p = pb.start();
        try {
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), "hmsim finished within 60 s");
        } finally {
            p.destroyForcibly();
        }
        return new Output(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private record Output(int code, String out, String err) {
        @Override
        public String toString() { return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err; }
    }
}
