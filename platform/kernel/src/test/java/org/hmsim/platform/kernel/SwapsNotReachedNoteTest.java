package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.Test;

/**
 * A swap scripted for a time or an epoch after a run's end never comes, and the run reads as the run without it: `hmsim
 * run` names such runs (a study of 10 ms swaps on runs of 50 us gave numbers identical to no swap, without a word).
 */
class SwapsNotReachedNoteTest extends ResultsCli {

    private int runWithALateSwap(double notReachedOnStream) throws Exception {
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n"
                + "swaps:\n  - {at: 10ms, slot: replacement, to: random}\n");
        Function<RunSpec, RunResult> simulator = spec -> {
            RunResult r = Fakes.SIMULATOR.apply(spec);
            r.metrics().put("swaps_not_reached", spec.workload().name().contains("bfs") ? 0.0 : notReachedOnStream);
            return r;
        };
        return exec(simulator, "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1");
    }

    @Test
    void theRunsThatEndedBeforeAScriptedSwapAreNamed() throws Exception {
        assertEquals(0, runWithALateSwap(1), err());
        assertTrue(out().contains("note: 1 run ended before a swap the study scripts for a time or an epoch (0001): not performed there"), out());
    }

    @Test
    void noNoteWhenEveryScriptedSwapCame() throws Exception {
        assertEquals(0, runWithALateSwap(0), err());
        assertFalse(out().contains("note:"), out());
    }
}
