package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** --resume continues only the same study: results of another version are refused, and what changed is named. */
class ResumeVersionTest extends ResultsCli {
    @Test
    void resumeRefusesResultsOfAnotherVersionOfTheStudy() throws Exception {
        assertEquals(0, run());
        Object firstStart = org.hmsim.platform.kernel.results.Json.read(out.resolve("study.json")).get("started");
        byte[] table = bytes(out.resolve("runs.csv")), config = bytes(out.resolve("runs/0002/config.json"));
        study(8192);
        assertOneLineError(run("--resume"), "--resume: " + out + " holds results of another version of " + study
                + " (run 0002: workload.params.nodes: 4096 then, 8192 now); run without --resume");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertArrayEquals(config, bytes(out.resolve("runs/0002/config.json")));

        Files.writeString(study(4096), Files.readString(study) + "# a comment\n");
        assertOneLineError(run("--resume"), "(the file changed since: SHA-256 ");
        study(4096);
        assertEquals(0, run("--resume"));
        assertTrue(out().contains("2 already done, resuming"), out());
        // study.json says the folder took two executions and when the first began (it described the last alone: a trial)
        var provenance = org.hmsim.platform.kernel.results.Json.read(out.resolve("study.json"));
        assertEquals(2, ((Number) provenance.get("executions")).intValue());
        assertEquals(firstStart, provenance.get("first_started"));
    }

    /**
     * Runs done with --replay-swaps are other runs than the study's own: resuming them without the replay mixed
     * replayed and plain runs in one runs.csv with nothing to tell them apart (found by a determinism review).
     */
    @Test
    void resumeRefusesToMixRunsWithAndWithoutReplayedSwaps() throws Exception {
        Path recorded = recordedWithASwapIn("0001");
        assertEquals(0, run("--replay-swaps", recorded.toString()), err());
        assertTrue(Files.readString(out.resolve("runs/0001/config.json")).contains("\"replayed_swaps\" : [ \"epoch 3: replacement -> random@1.0.0\" ]"),
                Files.readString(out.resolve("runs/0001/config.json")));
        String from = recorded.toAbsolutePath().normalize().toString();
        assertOneLineError(run("--resume"), "--resume: the execution that began this folder replayed the swaps of " + from + " (--replay-swaps "
                + from + "), and this one would replay none: resume with --replay-swaps " + from);
        assertEquals(0, run("--resume", "--replay-swaps", recorded.toString()), err());
    }

    /**
     * An execution with --replay-swaps stopped before the run whose swaps it replays: resumed without the flag, that run
     * ran unswapped beside the replayed ones, with no finished run to give it away (a determinism trial). study.json
     * records where the swaps came from, and the resume must say the same.
     */
    @Test
    void resumeOfAnInterruptedReplayInsistsOnTheSameSwaps() throws Exception {
        Path recorded = recordedWithASwapIn("0002");
        assertEquals(0, run("--replay-swaps", recorded.toString()), err());
        String from = recorded.toAbsolutePath().normalize().toString();
        assertTrue(Files.readString(out.resolve("study.json")).contains("\"replay_swaps_from\" : \"" + from.replace("\\", "\\\\") + "\""));
        deleteTree(out.resolve("runs/0002")); // as if stopped before run 0002 ended
        assertOneLineError(run("--resume"), "--resume: the execution that began this folder replayed the swaps of " + from);
        Path other = dir.resolve("other");
        assertEquals(0, exec("run", study.toString(), "--out", other.toString(), "--no-report", "--jobs", "1"), err());
        assertOneLineError(run("--resume", "--replay-swaps", other.toString()), ", not of " + other.toAbsolutePath().normalize());
        assertEquals(0, run("--resume", "--replay-swaps", recorded.toString()), err());
        assertTrue(Files.readString(out.resolve("runs/0002/config.json")).contains("\"replayed_swaps\" : [ \"epoch 3: replacement -> random@1.0.0\" ]"));
        // and a folder begun without a replay is not resumed with one
        assertEquals(0, run(), err());
        assertOneLineError(run("--resume", "--replay-swaps", recorded.toString()), "--resume: the execution that began this folder replayed no swaps");
    }

    private static void deleteTree(Path p) throws java.io.IOException {
        try (var files = Files.walk(p)) {
            for (Path f : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) Files.delete(f);
        }
    }

    /** {@link #recorded()} with a hand swap (lru to random at 30 us) recorded in run {@code id}. */
    private Path recordedWithASwapIn(String id) throws Exception {
        Path recorded = recorded();
        Files.writeString(recorded.resolve("runs/" + id + "/swaps.csv"), org.hmsim.platform.machine.SwapRecord.HEADER + "\n"
                + "30000,2026-11-26T00:00:00Z,replacement,lru@1.0.0,random@1.0.0,classpath,classpath,,shell,0,1,-,ok\n");
        return recorded;
    }

    /** The study's runs in another folder, to record swaps beside (--replay-swaps matches them by their config.json). */
    private Path recorded() {
        Path recorded = dir.resolve("recorded");
        assertEquals(0, exec("run", study.toString(), "--out", recorded.toString(), "--no-report", "--jobs", "1"), err());
        return recorded;
    }

    /** A swaps.csv hmsim could not have written is refused before anything runs, naming its line and field (stack traces before). */
    @Test
    void aDamagedSwapsCsvToReplayIsNamedByLineAndField() throws Exception {
        Path recorded = recorded();
        String head = org.hmsim.platform.machine.SwapRecord.HEADER + "\n";
        String ok = "30000,2026-11-26T00:00:00Z,replacement,lru@1.0.0,random@1.0.0,classpath,classpath,,shell,0,1,-,ok\n";
        Path f = recorded.resolve("runs/0001/swaps.csv");
        String[][] cases = {
                {head + ok.replace("30000", "abc"), ":2: sim_time_ns: 'abc' is not a number"},
                {head + ok.replace("30000", "-5000"), ":2: sim_time_ns: -5000.0 is not a time in the run"},
                {head + ok.replace(",replacement,", ",nosuchslot,"), ":2: slot: unknown slot 'nosuchslot'"},
                {head + ok.replace(",,shell", ",fast_percent,shell"), ":2: params: 'fast_percent' is not NAME=VALUE"},
                {"sim_time_ns,slot\n" + ok, ":1: to: the header has no such column"},
                {head + ok + "1,2\n", ":3: row: has 2 fields"}};
        for (String[] c : cases) {
            Files.writeString(f, c[0]);
            assertOneLineError(run("--replay-swaps", recorded.toString()), "--replay-swaps: " + f + c[1]);
            assertTrue(!Files.exists(out), "nothing ran");
        }
        // rows it could read but not replay here: a policy this container lacks, another epoch (the swaps would land elsewhere)
        Files.writeString(f, head + ok.replace("random@1.0.0", "nosuch@1.0.0"));
        assertOneLineError(run("--replay-swaps", recorded.toString()), "--replay-swaps: " + f + ": the replacement swap to nosuch@1.0.0: unknown replacement policy");
        // a parameter out of range is named, with the swap's parameters (a trial's said only 'value 0 is out of range')
        Files.writeString(f, head + ok.replace(",lru@1.0.0,random@1.0.0,", ",ratio@1.0.0,ratio@1.0.0,").replace(",replacement,", ",placement,")
                .replace("classpath,classpath,,", "classpath,classpath,fast_percent=101,"));
        assertOneLineError(run("--replay-swaps", recorded.toString()), "--replay-swaps: " + f + ": the placement swap to ratio@1.0.0 with {fast_percent=101},"
                + " parameter 'fast_percent': ");
        Files.writeString(f, head + ok);
        Files.writeString(recorded.resolve("runs/0001/config.json"), "{\"run\": \"0001\", \"epoch_ps\": 3}");
        assertOneLineError(run("--replay-swaps", recorded.toString()), "records epoch_ps 3, this study's epoch is");
        assertTrue(!Files.exists(out), "nothing ran");
    }
}
