package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Function;
import org.hmsim.platform.kernel.results.AtomicFiles;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A results folder that can no longer be written mid-study (a tester's disk filled at run 0005): every later run was
 * marked FAILED in 0.0 s, each pointing at an error.txt that could not be written either; the study ended with a stack
 * trace and exit 1, study.json stayed "running", and status counted otherwise than the console. The study now stops at
 * the first file it cannot write, in one line that names it (exit 2, as an --out that cannot be written), and leaves the
 * runs not written pending, which --resume runs once the folder can be written again. (The tests run as root, where a
 * read-only folder is writable all the same: a file put where the folder was makes every write fail, as a full disk does.)
 */
class UnwritableResultsTest extends ResultsCli {
    @BeforeEach
    void fourRuns() throws Exception {
        study = Fakes.write(dir, "studies/s.yaml", "study: s\nseeds: [1, 2]\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n");
    }

    /** The simulator, which runs {@code fill} as run {@code id} starts simulating (its config.json is written by then). */
    private static Function<RunSpec, RunResult> at(String id, ThrowingRunnable fill) {
        return spec -> {
            if (spec.runId().equals(id)) {
                try {
                    fill.run();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }
            return Fakes.SIMULATOR.apply(spec);
        };
    }

    interface ThrowingRunnable { void run() throws Exception; }

    private int runWith(Function<RunSpec, RunResult> simulator) {
        return exec(simulator, "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1");
    }

    /** A file where a folder was: nothing can be written below it. */
    private static void replaceByFile(Path folder) throws Exception {
        AtomicFiles.deleteTree(folder);
        Files.writeString(folder, "not a folder");
    }

    @Test
    void aRunThatCannotBeWrittenStopsTheStudyAndStaysPendingForResume() throws Exception {
        Path run2 = out.resolve("runs").resolve("0002");
        int code = runWith(at("0002", () -> replaceByFile(run2)));
        assertOneLineError(code, "hmsim run: cannot ");
        assertTrue(err().contains(run2.toString()), "names the file it could not write: " + err());
        assertTrue(err().contains("the study stopped there, 3 run(s) not done") && err().contains("--resume runs them"), err());
        assertFalse(err().contains("Exception") || err().contains("\tat "), "no stack trace: " + err());
        assertFalse(out().contains("FAILED") || out().contains("error.txt"), "no run is called failed: " + out());
        assertTrue(out().contains("1 done, 0 failed, 0 running, 3 pending"), out());
        assertFalse(Files.exists(out.resolve("runs").resolve("0003")), "no run started after it");
        assertTrue(String.valueOf(Json.read(out.resolve("study.json")).get("status")).startsWith("stopped: cannot "), "study.json says why it stopped");
        assertEquals(0, exec("status", out.toString()), err());
        assertTrue(out().contains("4 runs: 1 done, 0 running, 3 pending, 0 failed"), "status counts as the run did: " + out());
        assertTrue(out().contains("the study stopped: cannot "), out());

        Files.delete(run2); // the folder can be written again
        assertEquals(0, run("--resume"), err());
        Path clean = out;
        out = dir.resolve("clean");
        assertEquals(0, run(), err());
        assertArrayEquals(bytes(out.resolve("runs.csv")), bytes(clean.resolve("runs.csv")), "resumed runs.csv as an uninterrupted run's");
    }

    /**
     * Nothing of the folder can be written any more, study.json included: it stays "running", but no process holds the
     * folder, so status and report call the study interrupted, never running, and count the runs as the console did.
     */
    @Test
    void aFolderThatCannotBeWrittenAtAllStopsInOneLineAndStatusAgrees() throws Exception {
        Path moved = dir.resolve("moved");
        int code = runWith(at("0002", () -> {
            Files.move(out, moved);
            Files.writeString(out, "not a folder");
        }));
        assertOneLineError(code, "hmsim run: cannot ");
        assertFalse(err().contains("Exception") || err().contains("\tat "), "no stack trace: " + err());
        assertFalse(out().contains("FAILED") || out().contains("error.txt"), out());
        assertTrue(out().contains("1 done, 0 failed, 0 running, 3 pending"), out());

        Files.delete(out);
        Files.move(moved, out);
        assertEquals("running", Json.read(out.resolve("study.json")).get("status"), "the end's study.json could not be written");
        assertEquals(0, exec("status", out.toString()), err());
        assertTrue(out().contains("4 runs: 1 done, 0 running, 1 interrupted, 2 pending, 0 failed"), out());
        assertTrue(out().contains("no execution is writing here"), out());
        assertEquals(0, exec("report", out.toString()), err());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("study interrupted") && !html.contains("study running"), "the report says what status says");
        assertEquals(0, run("--resume"), err());
    }
}
