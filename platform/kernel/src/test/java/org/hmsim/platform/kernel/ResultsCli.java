package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.hmsim.platform.kernel.command.Commands;
import org.hmsim.platform.kernel.command.SimKernel;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The commands on a results folder, as a user runs them: a two-run study, its output, its exit codes. */
abstract class ResultsCli {
    @TempDir
    Path dir;
    Path study, out;
    /** The bundle the placement policies local and interleave come from, and the build running the commands (a test may rebuild either). */
    String bundle = "classpath";
    Environment environment = Environment.classpath();
    final ByteArrayOutputStream stdout = new ByteArrayOutputStream(), stderr = new ByteArrayOutputStream();

    @BeforeEach
    void setUp() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        study = study(4096);
        out = dir.resolve("out");
    }

    Path study(int nodes) throws Exception {
        return Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: " + nodes + "}]\n");
    }

    int exec(String... args) { return exec(Fakes.SIMULATOR, args); }

    int exec(Function<RunSpec, RunResult> simulator, String... args) {
        stdout.reset();
        stderr.reset();
        Commands c = new Commands(new SimKernel(Fakes.policies(bundle), Fakes.workloads(), environment, simulator));
        return c.execute(args, new PrintStream(stdout, true, StandardCharsets.UTF_8), new PrintStream(stderr, true, StandardCharsets.UTF_8), false);
    }

    int run(String... more) {
        List<String> args = new ArrayList<>(List.of("run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1"));
        args.addAll(List.of(more));
        return exec(args.toArray(String[]::new));
    }

    String out() { return stdout.toString(StandardCharsets.UTF_8); }

    String err() { return stderr.toString(StandardCharsets.UTF_8); }

    /** A refusal: exit code 2 and exactly one line on stderr that contains {@code what}. */
    void assertOneLineError(int code, String what) {
        assertEquals(Commands.BAD_INPUT, code, err());
        assertEquals(1, err().lines().count(), err());
        assertTrue(err().contains(what), err());
    }

    static byte[] bytes(Path p) throws Exception { return Files.readAllBytes(p); }
}
