package org.hmsim.bwaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Page copies a migration policy starts near the end of a run go on moving after the last kernel ends, and their
 * bytes count. A utilisation must then be taken over the run and that tail, never above 1, and the time series'
 * last row must be the run's end as it was, without the tail's bytes (an audit found a DDR channel's bus 177 %
 * busy and a last row carrying 179 GB/s on a 40 GB/s pool).
 */
class UtilisationWindowTest {
    @Test
    void copiesAfterTheEndKeepUtilisationsAtMostOneAndOutOfTheLastRow() {
        RunResult r = Sim.placement("local").with(Slot.MIGRATION, "threshold", "threshold", 1)
                .run(Sim.machine("small"), Sim.workload("stream", "elements", 65536));
        long copied = r.stats().get("os.copy_bytes").longValue();
        assertTrue(copied > 0, "the threshold policy copied pages");
        for (Map.Entry<String, Double> e : r.stats().entrySet())
            if (e.getKey().endsWith("utilisation") || e.getKey().contains("utilisation_"))
                assertTrue(e.getValue() <= 1.0 + 1e-9, e.getKey() + " = " + e.getValue());
        for (Map.Entry<String, Double> e : r.metrics().entrySet())
            if (e.getKey().contains("utilisation")) assertTrue(e.getValue() <= 1.0 + 1e-9, e.getKey() + " = " + e.getValue());

        double[] last = r.seriesRows().get(r.seriesRows().size() - 1);
        assertEquals(r.simTimePs() / 1000.0, last[0], 1e-6, "the last row is stamped at the run's end");
        int ddr = r.seriesNames().indexOf("series.ddr.bytes");
        assertTrue(ddr > 0, "a DDR byte series: " + r.seriesNames());
        assertTrue(last[ddr] < r.metrics().get("pool.ddr.bytes"), "the tail's bytes are in the totals, not in the last row");
    }
}
