package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.Test;

/**
 * Replicated seeds that change nothing (a workload that draws nothing, a machine without DRAM jitter) give whiskers of
 * no width, which read as "no spread": `hmsim run` says so and points at the jitter.
 */
class SeedsThatChangedNothingNoteTest extends ResultsCli {

    /** {@code deterministic}: the workloads whose numbers this simulator makes the same at every seed. */
    private int run(String deterministic) throws Exception {
        Fakes.write(dir, "studies/s.yaml", "study: s\nseeds: [1, 2, 3]\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n");
        Function<RunSpec, RunResult> simulator = spec -> Fakes.SIMULATOR.apply(spec.workload().name().startsWith(deterministic)
                ? new RunSpec(spec.runId(), spec.machine(), spec.workload(), spec.policies(), 1, spec.epochPs(), spec.maxSimTimePs()) : spec);
        return exec(simulator, "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1");
    }

    @Test
    void seedsThatGaveTheSameNumbersAreNamed() throws Exception {
        assertEquals(0, run("stream"), err());
        assertTrue(out().contains("note: the 3 seeds gave the same numbers in 1 of 2 groups of runs") && out().contains("jitter"), out());
    }

    @Test
    void noNoteWhenTheSeedsVaryTheRuns() throws Exception {
        assertEquals(0, run("none"), err());
        assertFalse(out().contains("note:"), out());
    }
}
