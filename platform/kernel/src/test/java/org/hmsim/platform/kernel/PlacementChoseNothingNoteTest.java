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
 * A researcher's bw-aware placement beside threshold migration (host_data: true maps every page into DDR before the first
 * kernel) ran as DDR-only, labelled bw-aware, without a word: `hmsim run` notes a placement that chose no page's pool.
 */
class PlacementChoseNothingNoteTest extends ResultsCli {

    /** The fake simulator, with os statistics: every page host-mapped (none placed) where {@code hostMapsAll}. */
    private static Function<RunSpec, RunResult> simulator(boolean hostMapsAll) {
        return spec -> {
            RunResult r = Fakes.SIMULATOR.apply(spec);
            TreeMap<String, Double> stats = new TreeMap<>(r.stats());
            stats.put("os.first_touch_faults", hostMapsAll ? 0.0 : 40.0);
            stats.put("os.host_maps", hostMapsAll ? 40.0 : 0.0);
            return new RunResult(r.simTimePs(), r.metrics(), stats, r.seriesNames(), r.seriesRows(), r.events(), r.memoryRequests());
        };
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
