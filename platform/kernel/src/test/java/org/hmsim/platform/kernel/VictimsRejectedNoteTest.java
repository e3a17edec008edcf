package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.TreeMap;
import java.util.function.Function;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.Test;

/**
 * A trial's residency policy named victims that were not resident (a bug in every eviction, or an MRU page already gone):
 * the driver evicted its oldest page instead, the runs were labelled with the policy, and only stats.json said so.
 */
class VictimsRejectedNoteTest extends ResultsCli {

    private static Function<RunSpec, RunResult> simulator(double rejected) {
        return spec -> {
            RunResult r = Fakes.SIMULATOR.apply(spec);
            TreeMap<String, Double> stats = new TreeMap<>(r.stats());
            stats.put("uvm.victims_rejected", rejected);
            return new RunResult(r.simTimePs(), r.metrics(), stats, r.seriesNames(), r.seriesRows(), r.events(), r.memoryRequests());
        };
    }

    private int run(double rejected) throws Exception {
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream]\nseeds: [1, 2]\n");
        return exec(simulator(rejected), "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1");
    }

    @Test
    void rejectedVictimsAreNamedWithTheirPolicyAndRuns() throws Exception {
        assertEquals(0, run(3), err());
        assertTrue(out().contains("named 6 victims that were not resident in 2 runs (0001, 0002): each time the driver evicted its oldest page"), out());
    }

    @Test
    void noNoteWhereEveryVictimWasResident() throws Exception {
        assertEquals(0, run(0), err());
        assertFalse(out().contains("victims that were not resident"), out());
    }
}
