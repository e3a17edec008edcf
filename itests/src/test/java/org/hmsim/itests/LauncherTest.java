package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void aPipedShellExitsWithTheCodeOfTheLastFailedSimCommand() throws Exception {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "study: x\nmachine: nowhere.yaml\nworkloads: [stream]\n");
        Output shell = run(Hmsim.home().resolve("bin/hmsim"), String.join("\n", "sim:validate " + bad, "sim:policies", ""), "shell");
        assertEquals(2, shell.code, "a script sees that a command failed\n" + shell);
        assertTrue(shell.err.contains("sim:validate: exit code 2"), shell::toString);
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
