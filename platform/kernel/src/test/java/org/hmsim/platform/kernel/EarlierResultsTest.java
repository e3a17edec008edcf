package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.Test;

/**
 * What a run does to a folder that already holds something: it never removes or overwrites a file it did
 * not write, and keeps earlier results in previous/ until new ones replace them.
 */
class EarlierResultsTest extends ResultsCli {
    @Test
    void filesHmsimDidNotWriteAreNeitherRemovedNorOverwritten() throws Exception {
        Path data = Fakes.write(out, "runs/myexp/data.txt", "mine");
        Path stray = Fakes.write(out, "runs.csv", "not hmsim's");
        assertOneLineError(run(), out + " holds files hmsim did not write, e.g. " + stray);
        assertOneLineError(run("--resume"), stray.toString());
        Files.delete(stray);
        Fakes.write(out, "study.json", "{}");
        assertOneLineError(run(), "e.g. " + data);
        assertEquals("mine", Files.readString(data));
        assertFalse(Files.exists(out.resolve("previous")));
        assertEquals("{}", Files.readString(out.resolve("study.json")), "nothing was written either");
    }

    /** A run into another study's results is refused before anything moves (a typo in --out cost a newcomer a results set). */
    @Test
    void anotherStudysResultsAreNotMovedAside() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Path other = Fakes.write(dir, "studies/other.yaml", "study: other\nmachine: ../machines/small.yaml\nworkloads: [stream]\n");
        assertOneLineError(exec("run", other.toString(), "--out", out.toString(), "--no-report", "--jobs", "1"),
                "--out: " + out + " holds the results of study 's', not of 'other': a run would move them to previous/");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertFalse(Files.exists(out.resolve("previous")), "nothing was changed");
    }

    @Test
    void aRerunMovesEarlierResultsIntoPreviousAndLeavesOtherFilesAlone() throws Exception {
        Path notes = Fakes.write(out, "notes.txt", "mine");
        assertEquals(0, run());
        byte[] first = bytes(out.resolve("runs.csv")), firstStats = bytes(out.resolve("runs/0002/stats.json"));
        for (String ext : List.of("svg", "png", "csv")) Fakes.write(out, "figures/fig-01-bar-ipc." + ext, "a report's figure"); // as a report writes them
        assertEquals(0, run());
        assertTrue(Files.exists(out.resolve("previous/figures/fig-01-bar-ipc.csv")), "a figure's CSV is hmsim's: moved with the rest");
        assertTrue(out().startsWith("earlier results moved to " + out.resolve("previous") + "\n"), out());
        assertArrayEquals(first, bytes(out.resolve("previous/runs.csv")));
        assertArrayEquals(firstStats, bytes(out.resolve("previous/runs/0002/stats.json")));
        assertTrue(Files.exists(out.resolve("previous/study.json")));
        Files.writeString(out.resolve("runs/0001/stats.json"), Files.readString(out.resolve("runs/0001/stats.json")).replace("{", "{\"mark\": 2,"));
        assertEquals(0, run());
        assertTrue(out().contains("(replacing the ones there before)"), out());
        assertTrue(Files.readString(out.resolve("previous/runs/0001/stats.json")).contains("\"mark\": 2"), "the second results replace the first");
        assertEquals("mine", Files.readString(notes));
        try (var s = Files.list(out)) {
            assertEquals(List.of(".hmsim.lock", "notes.txt", "previous", "runs", "runs.csv", "study.json"),
                    s.map(p -> p.getFileName().toString()).sorted().toList(), "no staging folder is left");
        }
    }

    @Test
    void earlierResultsSurviveARerunWhoseRunsAllFail() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Function<RunSpec, RunResult> broken = spec -> {
            throw new IllegalStateException("broken simulator");
        };
        assertEquals(3, exec(broken, "run", study.toString(), "--out", out.toString(), "--no-report"));
        assertArrayEquals(table, bytes(out.resolve("previous/runs.csv")));
        assertTrue(Files.exists(out.resolve("previous/runs/0001/stats.json")));
        assertTrue(Files.exists(out.resolve("runs/0001/error.txt")));
    }

    @Test
    void twoFailingExecutionsInARowKeepTheGoodResultsInPrevious() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv")), stats = bytes(out.resolve("runs/0001/stats.json"));
        Function<RunSpec, RunResult> broken = spec -> {
            throw new IllegalStateException("broken simulator");
        };
        assertEquals(3, exec(broken, "run", study.toString(), "--out", out.toString(), "--no-report"));
        assertEquals(3, exec(broken, "run", study.toString(), "--out", out.toString(), "--no-report"));
        assertTrue(out().contains("no run of the earlier execution in " + out + " succeeded: its files were removed"), out());
        assertArrayEquals(table, bytes(out.resolve("previous/runs.csv")), "the good results are still there");
        assertArrayEquals(stats, bytes(out.resolve("previous/runs/0001/stats.json")));
        assertTrue(Files.exists(out.resolve("runs/0001/error.txt")), "the latest failure is there to read");
        assertEquals(0, run());
        assertArrayEquals(stats, bytes(out.resolve("previous/runs/0001/stats.json")), "a good run afterwards does not push them out either");
        assertTrue(Files.exists(out.resolve("runs/0001/stats.json")));
    }

    /**
     * A trial interrupted a re-run (its finished 12 runs went to previous/), then a second one: the first's 7 runs
     * replaced the 12. An execution that did not finish does not push more finished runs out of previous/: refused.
     */
    @Test
    void anUnfinishedExecutionDoesNotPushMoreFinishedRunsOutOfPrevious() throws Exception {
        assertEquals(0, run());
        assertEquals(0, run());
        byte[] kept = bytes(out.resolve("previous/runs.csv")), table = bytes(out.resolve("runs.csv"));
        // what an interrupted execution leaves: one run ended, the other begun, study.json saying so
        Files.delete(out.resolve("runs/0002/stats.json"));
        Path provenance = out.resolve("study.json");
        Files.writeString(provenance, Files.readString(provenance).replaceFirst("\"status\" *: *\"finished\"", "\"status\": \"stopped\""));
        assertTrue(Files.readString(provenance).contains("\"stopped\""), "the case");
        assertOneLineError(run(), out + " holds an execution that did not finish (stopped, 1 run with results) and " + out.resolve("previous")
                + " one with more (2), which a new execution would replace: run with --resume to finish the first");
        assertArrayEquals(kept, bytes(out.resolve("previous/runs.csv")), "nothing was changed");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertEquals(0, run("--resume"));
        assertEquals(0, run(), "finished, it moves to previous/ as any");
        assertTrue(out().contains("(replacing the ones there before)"), out());
    }

    @Test
    void anExecutionThatEndedNoRunDoesNotPushResultsOutOfPrevious() throws Exception {
        assertEquals(0, run());
        assertEquals(0, run());
        byte[] kept = bytes(out.resolve("previous/runs.csv"));
        // What a study stopped before its first run ended leaves: study.json, a bare runs.csv, a config.json.
        for (String id : List.of("0001", "0002")) {
            Files.delete(out.resolve("runs/" + id + "/stats.json"));
            Files.delete(out.resolve("runs/" + id + "/timeseries.csv"));
        }
        Path table = out.resolve("runs.csv");
        Files.writeString(table, Files.readString(table).lines().findFirst().orElseThrow() + "\n");
        assertEquals(0, run(), this::err); // failed once in CI with exit 2 (not reproduced): say why if it does again
        assertTrue(out().startsWith("no run of the earlier execution in " + out + " had ended: its files were removed"), out());
        assertArrayEquals(kept, bytes(out.resolve("previous/runs.csv")));
    }

    @Test
    void aMoveCutShortIsFinishedLaterAndAClashLosesNeitherFile() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv")), provenance = bytes(out.resolve("study.json"));
        // An earlier set-aside got as far as runs.csv and a runs/ that is not the one here now.
        Files.createDirectories(out.resolve(".previous.new"));
        Files.move(out.resolve("runs.csv"), out.resolve(".previous.new/runs.csv"));
        Fakes.write(out, ".previous.new/runs/0001/stats.json", "{}");
        assertEquals(0, exec("status", out.toString()));
        assertTrue(out().contains("previous/: moving the earlier results there was interrupted"), out());
        assertFalse(out().contains("--resume continues it"), "status must not promise that --resume continues a folder half moved: " + out());
        assertEquals(0, run());
        assertTrue(out().startsWith("finished an interrupted move: earlier results moved to " + out.resolve("previous")), out());
        assertTrue(out().contains(out.resolve("runs") + " differs from the one the interrupted move had set aside: both are kept, it as "
                + out.resolve("previous/runs.1")), out());
        assertArrayEquals(table, bytes(out.resolve("previous/runs.csv")));
        assertArrayEquals(provenance, bytes(out.resolve("previous/study.json")));
        assertEquals("{}", Files.readString(out.resolve("previous/runs/0001/stats.json")));
        assertTrue(Files.exists(out.resolve("previous/runs.1/0002/stats.json")));
        assertFalse(Files.exists(out.resolve(".previous.new")));
        assertEquals(0, run(), "previous/ with an entry kept under a number is still hmsim's");
        assertFalse(Files.exists(out.resolve("previous/runs.1")));
    }

    @Test
    void aFileThatCollectWroteAgainDuringAnInterruptedMoveDoesNotBlockTheFolder() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Files.createDirectories(out.resolve(".previous.new"));
        Files.move(out.resolve("runs.csv"), out.resolve(".previous.new/runs.csv"));
        assertEquals(0, exec("collect", out.toString()), err());
        assertEquals(0, run("--resume"), err());
        assertTrue(out().startsWith("finished an interrupted move: earlier results moved to " + out.resolve("previous") + "\n"), out());
        assertArrayEquals(table, bytes(out.resolve("previous/runs.csv")));
        assertFalse(Files.exists(out.resolve("previous/runs.csv.1")), "the same runs.csv twice: one is dropped");

        Files.createDirectories(out.resolve(".previous.new"));
        Files.move(out.resolve("runs.csv"), out.resolve(".previous.new/runs.csv"));
        Files.writeString(out.resolve("runs.csv"), Files.readString(out.resolve(".previous.new/runs.csv")) + "\n");
        byte[] staged = bytes(out.resolve(".previous.new/runs.csv")), other = bytes(out.resolve("runs.csv"));
        assertEquals(0, run(), err());
        assertTrue(out().contains("both are kept, it as " + out.resolve("previous/runs.csv.1")), out());
        assertArrayEquals(staged, bytes(out.resolve("previous/runs.csv")));
        assertArrayEquals(other, bytes(out.resolve("previous/runs.csv.1")));
    }

    @Test
    void aLoneStudyJsonThatIsNotHmsimsIsRefused() throws Exception {
        Path mine = Fakes.write(out, "study.json", "{\"my\":\"own config\"}\n");
        assertOneLineError(run(), out + " holds files hmsim did not write, e.g. " + mine);
        assertEquals("{\"my\":\"own config\"}\n", Files.readString(mine));
        Files.writeString(mine, "not JSON");
        assertOneLineError(run(), "e.g. " + mine);
        assertEquals("not JSON", Files.readString(mine));
    }

    @Test
    void finishedResultsWithoutRunsAreMovedNotRemoved() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        try (var s = Files.walk(out.resolve("runs"))) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        Fakes.write(out, "report.html", "<html></html>");
        assertEquals(0, run());
        assertTrue(out().startsWith("earlier results moved to " + out.resolve("previous")), out());
        assertArrayEquals(table, bytes(out.resolve("previous/runs.csv")));
        assertEquals("<html></html>", Files.readString(out.resolve("previous/report.html")));
    }

    @Test
    void previousIsReplacedOnlyIfEverythingInItIsHmsims() throws Exception {
        assertEquals(0, run());
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Path notes = Fakes.write(out, "previous/notes.txt", "mine");
        assertOneLineError(run(), out + " holds files hmsim did not write, e.g. " + notes);
        Files.delete(notes);
        Path provenance = out.resolve("previous/study.json");
        Files.writeString(provenance, "{\"my\":\"own config\"}");
        assertOneLineError(run(), out + " holds files hmsim did not write, e.g. " + out.resolve("previous"));
        assertEquals("{\"my\":\"own config\"}", Files.readString(provenance));
        assertTrue(Files.exists(out.resolve("previous/runs/0001/stats.json")));
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "nothing changed");
    }

    @Test
    void aSupersededPreviousIsRemovedOnlyIfEverythingInItIsHmsims() throws Exception {
        Path mine = Fakes.write(out, ".previous.old/mine.txt", "mine");
        assertOneLineError(run(), out + " holds files hmsim did not write, e.g. " + mine);
        assertEquals("mine", Files.readString(mine));
        Files.delete(mine);
        Fakes.write(out, ".previous.old/runs.csv", "run,status\n0001,ok\n");
        assertOneLineError(run(), "e.g. " + out.resolve(".previous.old/runs.csv"));
        assertTrue(Files.exists(out.resolve(".previous.old/runs.csv")), "no study.json says hmsim wrote it");

        Files.delete(out.resolve(".previous.old/runs.csv"));
        Files.delete(out.resolve(".previous.old"));
        assertEquals(0, run());
        assertEquals(0, run());
        Files.move(out.resolve("previous"), out.resolve(".previous.old"));
        Fakes.write(out, ".previous.old/.assemble.lock", "");
        assertEquals(0, run(), err());
        assertFalse(Files.exists(out.resolve(".previous.old")), "hmsim's own superseded results go");
    }

    @Test
    void anOutInsidePartOfAnotherResultsFolderIsRefused() throws Exception {
        assertEquals(0, run());
        for (String part : List.of("previous", "runs", "runs/0001/x", ".previous.new")) {
            Path inner = out.resolve(part);
            boolean existed = Files.exists(inner);
            assertOneLineError(exec("run", study.toString(), "--out", inner.toString(), "--no-report", "--jobs", "1"),
                    "--out: " + inner + " lies within ");
            assertTrue(err().contains(out.resolve("study.json").toString()), err());
            assertEquals(existed, Files.exists(inner), "nothing was written");
        }
        assertEquals(0, run(), "the outer folder is still hmsim's");
    }

    @Test
    void aFolderThatCannotBeMovedIsRefusedBeforeAnythingChanges() throws Exception {
        assertEquals(0, run());
        Path run1 = out.resolve("runs/0001");
        Files.setPosixFilePermissions(run1, PosixFilePermissions.fromString("r-xr-xr-x"));
        try {
            if (Files.isWritable(run1)) { // root (as in CI) may move a read-only folder: the earlier results are set aside
                assertEquals(0, run());
                assertTrue(Files.isDirectory(out.resolve("previous/runs/0001")), "set aside although read-only, as root can");
                return;
            }
            byte[] table = bytes(out.resolve("runs.csv"));
            assertOneLineError(run(), run1 + " is read-only; nothing was changed");
            assertArrayEquals(table, bytes(out.resolve("runs.csv")));
            assertFalse(Files.exists(out.resolve("previous")));
        } finally {
            for (Path p : List.of(run1, out.resolve("previous/runs/0001")))
                if (Files.exists(p)) Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
    }

    @Test
    void resumeContinuesAStudyThatWasStoppedAndKeepsItsFinishedRuns() throws Exception {
        AtomicInteger simulated = new AtomicInteger();
        Function<RunSpec, RunResult> once = spec -> {
            if (simulated.incrementAndGet() > 1) throw new IllegalStateException("the framework went away");
            return Fakes.SIMULATOR.apply(spec);
        };
        assertEquals(3, exec(once, "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1"));
        byte[] done = bytes(out.resolve("runs/0001/stats.json"));
        assertEquals(0, run("--resume"));
        assertArrayEquals(done, bytes(out.resolve("runs/0001/stats.json")), "the finished run is kept, not redone");
        assertEquals(2, Files.readString(out.resolve("runs.csv")).lines().filter(l -> l.contains(",ok,")).count());
        assertFalse(Files.exists(out.resolve("previous")), "--resume sets nothing aside");
    }
}
