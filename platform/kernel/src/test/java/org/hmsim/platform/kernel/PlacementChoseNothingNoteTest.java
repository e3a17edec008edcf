package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A researcher's bw-aware placement beside threshold migration (host_data: true maps every page into DDR before the first
 * kernel) ran as DDR-only, labelled bw-aware, without a word: `hmsim run` notes a placement that chose no page's pool.
 */
class PlacementChoseNothingNoteTest extends ResultsCli {

    /** The fake simulator, with os statistics: every page host-mapped (none placed) where {@code hostMapsAll}. */
    private static java.util.function.Function<org.hmsim.platform.machine.RunSpec, org.hmsim.platform.machine.RunResult> simulator(boolean hostMapsAll) {
        return Fakes.withStats(java.util.Map.of("os.first_touch_faults", hostMapsAll ? 0.0 : 40.0, "os.host_maps", hostMapsAll ? 40.0 : 0.0));
    }

    private int run(boolean hostMapsAll) throws Exception {
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies:\n  placement: {sweep: [local, interleave]}\n");
        return exec(simulator(hostMapsAll), "run", study.toString(), "--out", out.toString(), "--no-report", "--jobs", "1");
    }

    @Test
    void aPlacementThatChoseNoPagesPoolIsNamed() throws Exception {
        assertEquals(0, run(true), err());
        assertTrue(out().contains("note: placement interleave chose no page's pool in 1 run (0002)") && out().contains("host_data"), out());
        assertFalse(out().contains("placement local chose"), "the default placement is what runs without a choice: " + out());
    }

    @Test
    void noNoteWhereThePlacementChose() throws Exception {
        assertEquals(0, run(false), err());
        assertFalse(out().contains("chose no page's pool"), out());
    }
}
