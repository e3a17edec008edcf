package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.Json;
import org.junit.jupiter.api.Test;

/** A damaged study.json or stats.json: one line naming it and exit code 2, or, resuming, the run done again. */
class DamagedJsonTest extends ResultsCli {
    @Test
    void aDamagedStudyJsonIsBadInputForCollectAndStatus() throws Exception {
        assertEquals(0, run());
        Path provenance = out.resolve("study.json");
        Files.writeString(provenance, "garbage");
        assertOneLineError(exec("collect", out.toString()), "collect: " + provenance + " is damaged (line 1, column ");
        assertTrue(err().contains("name the study with --study FILE"), err());
        assertOneLineError(exec("status", out.toString()), "status: " + provenance + " is damaged");
        // run into it: refused (nothing shows the folder is hmsim's), and the reason named is the damage
        byte[] table = bytes(out.resolve("runs.csv"));
        assertOneLineError(run(), provenance + " is damaged (line 1, column ");
        assertTrue(err().contains("so nothing shows that hmsim wrote the folder"), err());
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "nothing changed");
    }

    /** A damaged previous/study.json is the reason named when a run into the folder is refused (a figure file of previous/ was named, as if foreign). */
    @Test
    void aDamagedPreviousStudyJsonIsNamedAsTheReason() throws Exception {
        assertEquals(0, run());
        assertEquals(0, run());
        Path provenance = out.resolve("previous/study.json");
        Files.writeString(provenance, "{\"broken");
        byte[] table = bytes(out.resolve("runs.csv"));
        assertOneLineError(run(), "holds files hmsim did not write");
        assertTrue(err().contains(" in previous/ (" + provenance + " is damaged (line 1, column "), err());
        assertTrue(err().contains("so nothing shows that hmsim wrote the folder)"), err());
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "nothing changed");
    }

    @Test
    void aDamagedStatsJsonIsReportedByCollectAndRedoneByResume() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Path stats = out.resolve("runs/0001/stats.json");
        Files.writeString(stats, "{bad");
        assertOneLineError(exec("collect", out.toString(), "--study", study.toString()), "collect: " + stats + " is damaged");
        assertTrue(err().contains("--resume runs that run again"), err());
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "nothing was assembled");

        assertEquals(0, run("--resume"));
        assertTrue(out().startsWith(stats + " is damaged (line 1, column 2: "), out());
        assertTrue(out().contains(": run 0001 runs again (the file is kept as stats.json.damaged)"), out());
        assertEquals("{bad", Files.readString(out.resolve("runs/0001/stats.json.damaged")));
        assertEquals("0001", Json.read(stats).get("run"));
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertEquals(0, run(), "a folder with a kept stats.json.damaged is still hmsim's own");
    }

    /**
     * collect assembles what the runs recorded under the study's plan: a study edited since (here the workloads'
     * order, so run 0001 would be labelled bfs) or another study file is refused, naming the difference, and nothing
     * is written (found by a review: the runs were relabelled, exit 0).
     */
    @Test
    void collectRefusesAStudyTheRunsWereNotMadeOf() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv")), provenance = bytes(out.resolve("study.json"));
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [{name: bfs, nodes: 4096}, stream]\n");
        assertOneLineError(exec("collect", out.toString()), "holds results of another version of");
        assertTrue(err().contains("(run 0001: workload.name: stream then, bfs now)") && err().contains("nothing was assembled"), err());
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertArrayEquals(provenance, bytes(out.resolve("study.json")));
    }

    /** A finished run whose config.json is gone, or whose stats.json holds no metrics, is damaged: resume redoes it. */
    @Test
    void aRunWithoutItsConfigOrMetricsRunsAgainOnResume() throws Exception {
        assertEquals(0, run());
        Path config = out.resolve("runs/0001/config.json"), stats = out.resolve("runs/0002/stats.json");
        Files.delete(config);
        Files.writeString(stats, "{}");
        assertOneLineError(exec("collect", out.toString(), "--study", study.toString()), "collect: " + config + " is missing");
        assertEquals(0, run("--resume"));
        assertTrue(out().contains(config + " is missing, so run 0001 cannot be checked against the study: run 0001 runs again"), out());
        assertTrue(out().contains(stats + " is damaged (it holds no metrics): run 0002 runs again"), out());
        assertTrue(Files.isRegularFile(config));
        assertEquals("0002", Json.read(stats).get("run"));
    }

    /**
     * Another run's stats.json copied into a run's folder (a trial merging folders by hand put run 0001's numbers in
     * run 0002's row, and collect and --resume took them): it says whose it is, so it is damage.
     */
    @Test
    void anotherRunsStatsJsonIsDamage() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Path stats = out.resolve("runs/0002/stats.json");
        Files.copy(out.resolve("runs/0001/stats.json"), stats, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertOneLineError(exec("collect", out.toString(), "--study", study.toString()), "collect: " + stats + " is damaged (it is run 0001's, not run 0002's)");
        assertEquals(0, run("--resume"));
        assertTrue(out().contains(stats + " is damaged (it is run 0001's, not run 0002's): run 0002 runs again"), out());
        assertEquals("0002", Json.read(stats).get("run"));
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
    }

    /**
     * A metric that is not a number (found by an audit: --resume and collect wrote it into runs.csv, which report then
     * called damaged) makes the run's stats.json damaged: collect refuses it, resume redoes the run.
     */
    @Test
    void aMetricThatIsNotANumberIsDamage() throws Exception {
        assertEquals(0, run());
        Path stats = out.resolve("runs/0001/stats.json");
        byte[] table = bytes(out.resolve("runs.csv"));
        Files.writeString(stats, Files.readString(stats).replaceFirst("\"l2_hit_rate\" : [0-9.Ee+-]+", "\"l2_hit_rate\" : \"abc\""));
        assertOneLineError(exec("collect", out.toString(), "--study", study.toString()), "collect: " + stats + " is damaged (metric l2_hit_rate is \"abc\", not a number)");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "collect wrote runs.csv");
        assertEquals(0, run("--resume"));
        assertTrue(out().contains(stats + " is damaged (metric l2_hit_rate is \"abc\", not a number): run 0001 runs again"), out());
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
    }

    /** collect with runs/ gone assembles nothing (found by an audit: it replaced runs.csv with its header and emptied the figures). */
    @Test
    void collectWithoutRunsChangesNothing() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        try (var files = Files.walk(out.resolve("runs"))) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
        assertOneLineError(exec("collect", out.toString(), "--study", study.toString()), "collect: " + out.resolve("runs") + " is missing");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
    }

    /** A config.json that cannot be read is the file kept aside (config.json.damaged), not the good stats.json under its name. */
    @Test
    void aDamagedConfigJsonIsKeptUnderItsOwnName() throws Exception {
        assertEquals(0, run());
        Path config = out.resolve("runs/0001/config.json");
        Files.writeString(config, "{x");
        assertEquals(0, run("--resume"), err());
        assertTrue(out().contains(config + " is damaged (") && out().contains("run 0001 runs again (the file is kept as config.json.damaged)"), out());
        assertEquals("{x", Files.readString(out.resolve("runs/0001/config.json.damaged")));
        assertEquals("0001", Json.read(config).get("run"));
    }

    /** A config.json that is not the run's ({@code {}}) is damaged too: the run is redone, the folder not refused as another study's. */
    @Test
    void aConfigJsonThatIsNotTheRunsIsRedoneOnResume() throws Exception {
        assertEquals(0, run());
        Path config = out.resolve("runs/0001/config.json");
        Files.writeString(config, "{}");
        assertEquals(0, run("--resume"), err());
        assertTrue(out().contains(config + " is not run 0001's configuration"), out());
        assertEquals("0001", Json.read(config).get("run"));
    }

    /** A damaged file's message says what is wrong in plain words, not Jackson's internals (a bad-input trial). */
    @Test
    void damageIsSaidWithoutJacksonsInternals() throws Exception {
        Path f = dir.resolve("cut.json");
        Files.writeString(f, "{\"run\": \"0001\"");
        String cut = org.junit.jupiter.api.Assertions.assertThrows(org.hmsim.platform.kernel.results.ResultsFolderException.class, () -> Json.read(f)).getMessage();
        assertTrue(cut.contains("Unexpected end-of-input") && !cut.contains("Source") && !cut.contains("StreamReadFeature"), cut);
        Files.writeString(f, "[1, 2]");
        String array = org.junit.jupiter.api.Assertions.assertThrows(org.hmsim.platform.kernel.results.ResultsFolderException.class, () -> Json.read(f)).getMessage();
        assertTrue(array.contains("a JSON object was expected, found an array") && !array.contains("LinkedHashMap"), array);
    }
}
