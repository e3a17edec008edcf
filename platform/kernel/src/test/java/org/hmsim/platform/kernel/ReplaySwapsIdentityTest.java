package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.machine.SwapRecord;
import org.junit.jupiter.api.Test;

/**
 * --replay-swaps replays a recorded run's swaps only into the same run: a run id is a position in a study's plan, and
 * matching by id alone replayed one run's swaps into another (a bad-input audit).
 */
class ReplaySwapsIdentityTest extends ResultsCli {
    private static final String SWAP = "30000,2026-11-26T00:00:00Z,replacement,lru@1.0.0,random@1.0.0,classpath,classpath,,shell,0,1,-,ok\n";

    /** The study's runs recorded in {@code recorded}, with a hand swap in run {@code id}. */
    private Path recorded(String id) throws Exception {
        Path recorded = dir.resolve("recorded");
        assertEquals(0, exec("run", study.toString(), "--out", recorded.toString(), "--no-report", "--jobs", "1"), err());
        Files.writeString(recorded.resolve("runs").resolve(id).resolve("swaps.csv"), SwapRecord.HEADER + "\n" + SWAP);
        return recorded;
    }

    @Test
    void swapsOfARunWithOtherParametersAreRefused() throws Exception {
        Path recorded = recorded("0002");
        study(8192);
        assertOneLineError(run("--replay-swaps", recorded.toString()), "--replay-swaps: " + recorded.resolve("runs/0002/config.json")
                + " records another run under id 0002 than " + study + " plans (workload.params.nodes: 4096 then, 8192 now)");
        assertTrue(!Files.exists(out), "nothing ran");
    }

    @Test
    void swapsOfAnotherWorkloadUnderTheSameIdAreRefused() throws Exception {
        Path recorded = recorded("0001");
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [{name: bfs, nodes: 4096}, stream]\n");
        assertOneLineError(run("--replay-swaps", recorded.toString()), "(workload.name: stream then, bfs now)");
        Fakes.write(dir, "studies/s.yaml", "study: s\nseed: 7\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n");
        assertOneLineError(run("--replay-swaps", recorded.toString()), "(seed: ");
        assertTrue(!Files.exists(out), "nothing ran");
    }

    @Test
    void swapsWithoutTheRunsConfigurationCannotBeMatchedAndAreRefused() throws Exception {
        Path recorded = recorded("0001");
        Path config = recorded.resolve("runs/0001/config.json");
        Files.delete(config);
        assertOneLineError(run("--replay-swaps", recorded.toString()), "--replay-swaps: " + config + " is missing, so the swaps recorded beside it cannot be matched to run 0001");
        Files.writeString(config, "{\"run\": \"0002\"}");
        assertOneLineError(run("--replay-swaps", recorded.toString()), config + " is not run 0001's configuration");
        assertTrue(!Files.exists(out), "nothing ran");
    }

    /**
     * A swap refused after its drain changed the recorded run's timing and took no effect: the replay would carry out the
     * swaps that took effect and give other numbers without a word, so it is refused before anything runs, naming the row.
     */
    @Test
    void aRunWithASwapRefusedAfterItsDrainIsNotReplayedSilently() throws Exception {
        Path recorded = recorded("0002");
        Path swaps = recorded.resolve("runs/0002/swaps.csv");
        Files.writeString(swaps, SwapRecord.HEADER + "\n" + SWAP
                + "31000,2026-11-26T00:00:00Z,coherence,none@1.0.0,none@1.0.0,classpath,classpath,,shell,1970.64,36536,-,"
                + "refused after draining: importState failed: java.lang.IllegalStateException: bad state\n");
        assertOneLineError(run("--replay-swaps", recorded.toString()), "--replay-swaps: " + swaps + ":3: the coherence swap to none@1.0.0 at 31000.0 ns "
                + "was refused after its drain (refused after draining: importState failed: java.lang.IllegalStateException: bad state); the drain "
                + "changed the run's timing, which a replay (it carries out only the swaps that took effect) does not reproduce, so this run cannot be "
                + "replayed to the same numbers");
        assertTrue(!Files.exists(out), "nothing ran");
    }

    /** A folder replayed into itself is refused: the run would move its swaps to previous/ and a resume would find none. */
    @Test
    void aFolderIsNotReplayedIntoItself() throws Exception {
        Path recorded = recorded("0002");
        assertOneLineError(exec("run", study.toString(), "--out", recorded.toString(), "--no-report", "--jobs", "1", "--replay-swaps", recorded.toString()),
                "--replay-swaps: " + recorded + " is the --out folder itself");
        assertTrue(Files.exists(recorded.resolve("runs/0002/swaps.csv")) && !Files.exists(recorded.resolve("previous")), "nothing moved");
    }

    /** The same runs replay, also from a study of another name (a copy): the name is no part of a run. */
    @Test
    void theSameRunReplaysItsSwaps() throws Exception {
        Path recorded = recorded("0002");
        assertEquals(0, run("--replay-swaps", recorded.toString()), err());
        assertTrue(Files.readString(out.resolve("runs/0002/config.json")).contains("\"replayed_swaps\" : [ \"epoch 3: replacement -> random@1.0.0\" ]"));
        Fakes.write(dir, "studies/s.yaml", "study: copy\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n");
        // (into a folder of its own: the first one holds study s's results)
        assertEquals(0, exec("run", study.toString(), "--out", dir.resolve("copy").toString(), "--no-report", "--jobs", "1", "--replay-swaps", recorded.toString()), err());
    }
}
