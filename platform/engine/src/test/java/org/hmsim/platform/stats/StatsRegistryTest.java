package org.hmsim.platform.stats;

import static org.junit.jupiter.api.Assertions.*;

import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.junit.jupiter.api.Test;

class StatsRegistryTest {
    long hits;

    @Test
    void scopedCountersAreReadAtSnapshotAndSampledPerEpoch() {
        StatsRegistry reg = new StatsRegistry();
        Stats l1 = reg.scope("gpu0").scope("sm3").scope("l1");
        l1.counter("hits", "L1 hits", () -> hits);
        l1.sampleEachEpoch("hits");
        hits = 5;
        reg.sampleEpoch(1000);
        hits = 9;
        reg.sampleEpoch(2000);
        assertEquals(9.0, reg.snapshot().get("gpu0.sm3.l1.hits"));
        assertEquals(java.util.List.of("gpu0.sm3.l1.hits"), reg.sampledNames());
        assertArrayEquals(new double[] {1.0, 5.0}, reg.seriesRows().get(0));
        assertArrayEquals(new double[] {2.0, 9.0}, reg.seriesRows().get(1));
        assertEquals("L1 hits", reg.docs().get("gpu0.sm3.l1.hits"));
    }

    @Test
    void duplicateNamesAreRejected() {
        StatsRegistry reg = new StatsRegistry();
        reg.counter("x", "x", () -> 1);
        assertThrows(IllegalArgumentException.class, () -> reg.counter("x", "again", () -> 2));
    }

    @Test
    void histogramsSummarise() {
        StatsRegistry reg = new StatsRegistry();
        Histogram h = reg.scope("dram").histogram("latency", "read latency, ps", 1_000_000);
        for (int i = 1; i <= 100; i++) h.record(i * 1000);
        assertEquals(100.0, reg.snapshot().get("dram.latency.count"));
        assertEquals(50_500, reg.snapshot().get("dram.latency.mean"), 100);
    }
}
