package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.hmsim.platform.kernel.results.ResultsFolderException;
import org.hmsim.platform.kernel.results.SwapFiles;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.SwapRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Recorded swaps to replay: an outside swap is taken at an epoch end, or just after the drain of a swap before it there. */
class SwapFilesTest {
    private static final long EPOCH_PS = 1_000_000; // 1 us

    @TempDir
    Path run;

    private List<ScriptedSwap> replay(String... rows) throws Exception {
        Files.writeString(run.resolve("swaps.csv"), SwapRecord.HEADER + "\n" + String.join("\n", rows) + "\n");
        return SwapFiles.toReplay(run, EPOCH_PS);
    }

    private static String row(String ns, String cause, String drainNs) { return row(ns, cause, drainNs, "ok"); }

    private static String row(String ns, String cause, String drainNs, String outcome) {
        return ns + ",2026-11-27T07:00:00Z,placement,ratio@1.0.0,interleave,b,b," + "," + cause + "," + drainNs + ",3,," + outcome;
    }

    /**
     * A swap refused after its drain changed the run's timing and took no effect: a replay (it carries out the swaps that
     * took effect) would silently give other numbers, so it is refused, naming the row; one refused before draining left
     * no trace and replays (as nothing).
     */
    @Test
    void aSwapRefusedAfterItsDrainCannotBeReplayedAndSaysSo() throws Exception {
        String refused = "refused after draining: the components did not drain within 10 ms simulated";
        for (String cause : List.of("shell", "script")) {
            ResultsFolderException e = assertThrows(ResultsFolderException.class,
                    () -> replay(row("3000", "shell", "120"), row("3120", cause, "10000000", refused)));
            assertTrue(e.getMessage().contains("swaps.csv:3: the placement swap to interleave at 3120.0 ns was refused after its drain (" + refused
                    + "); the drain changed the run's timing, which a replay (it carries out only the swaps that took effect) does not reproduce, "
                    + "so this run cannot be replayed to the same numbers"), e.getMessage());
        }
        // written before 2026-11-28, such a refusal was "refused: ..." with the time it drained
        assertThrows(ResultsFolderException.class, () -> replay(row("3000", "bundle", "40", "refused: java.lang.NoClassDefFoundError: org/x/Y")));
        assertEquals(List.of(), replay(row("3000", "shell", "0", "refused: java.lang.IllegalArgumentException: no pool 'hbm'")));
    }

    @Test
    void aShellSwapAtAnEpochEndOrAfterAnEarlierDrainReplaysThere() throws Exception {
        List<ScriptedSwap> one = replay(row("3000", "shell", "120"));
        assertEquals(1, one.size());
        assertEquals(3, one.get(0).value());
        // two requests at the same epoch end: the second is taken once the first has drained (3000 + 120 ns)
        List<ScriptedSwap> two = replay(row("3000", "shell", "120"), row("3120", "shell", "80"));
        assertEquals(List.of(3L, 3L), two.stream().map(ScriptedSwap::value).toList());
        // a swap taken after a time-0 swap's drain, before the first epoch end, replays at the start too (not as epoch 0)
        List<ScriptedSwap> start = replay(row("0", "ranking", "5"), row("5", "shell", "0"));
        assertEquals(List.of(ScriptedSwap.When.TIME, ScriptedSwap.When.TIME), start.stream().map(ScriptedSwap::when).toList());
        assertEquals(List.of(0L, 0L), start.stream().map(ScriptedSwap::value).toList());
        // a scripted swap inside an epoch whose drain runs past its end delays the epoch end's outside swap
        assertEquals(1, replay(row("2950", "script", "100"), row("3050", "bundle", "10")).size());
    }

    @Test
    void aShellSwapBetweenEpochEndsIsRefusedNotMovedSilently() throws Exception {
        ResultsFolderException e = assertThrows(ResultsFolderException.class, () -> replay(row("3500", "shell", "120")));
        assertTrue(e.getMessage().contains("swaps.csv:2: sim_time_ns: 3500.0 is not at an epoch end (the study's epoch is 1000.0 ns), "
                + "where a shell swap is taken, so it cannot be replayed at the same point (not as hmsim wrote it)"), e.getMessage());
        // a scripted swap may be anywhere: its study reproduces it, so it is not replayed
        assertEquals(0, replay(row("3500", "script", "120")).size());
    }
}
