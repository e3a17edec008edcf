package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A trial's residency policy named victims that were not resident (a bug in every eviction, or an MRU page already gone):
 * the driver evicted its oldest page instead, the runs were labelled with the policy, and only stats.json said so.
 */
class VictimsRejectedNoteTest extends ResultsCli {

    private int run(double rejected) throws Exception {
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream]\nseeds: [1, 2]\n");
        return exec(Fakes.withStats(java.util.Map.of("uvm.victims_rejected", rejected)), "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1");
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
