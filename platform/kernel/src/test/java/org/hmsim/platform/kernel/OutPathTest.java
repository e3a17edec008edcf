package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.Test;

/** An --out that cannot hold results is refused in one line, with exit code 2, before any run starts. */
class OutPathTest extends ResultsCli {
    @Test
    void unusableOutPathsAreOneLineErrorsBeforeAnythingRuns() throws Exception {
        Path file = Fakes.write(dir, "afile", "keep me");
        AtomicInteger simulated = new AtomicInteger();
        Function<RunSpec, RunResult> counting = spec -> {
            simulated.incrementAndGet();
            return Fakes.SIMULATOR.apply(spec);
        };
        assertOneLineError(exec(counting, "run", study.toString(), "--out", file.toString()), "--out: " + file + " is a file, not a folder");
        assertOneLineError(exec(counting, "run", study.toString(), "--out", file.resolve("sub").toString()), "--out: cannot write into " + file.resolve("sub"));
        assertEquals("keep me", Files.readString(file));
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "Linux /proc");
        assertOneLineError(exec(counting, "run", study.toString(), "--out", "/proc/foo"), "--out: cannot write into /proc/foo");
        assertEquals(0, simulated.get());
    }
}
