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

    long oldCount = 7, newCount, oldLoad = 3, newLoad = 1, oldOnly = 4;

    /**
     * A live swap: the new policy's statistics wait for the swap's commit; then counters go on from the old policy's
     * values, gauges read the new policy, histograms of the same range go on, and what the old policy had alone is
     * frozen at its value once it has closed (the registry keeps no reader of it).
     */
    @Test
    void aHandoverContinuesCountersReplacesGaugesAndFreezesTheRest() {
        StatsRegistry reg = new StatsRegistry();
        Stats old = reg.scope("policy").scope("throttling");
        old.counter("throttles", "throttles so far", () -> oldCount);
        old.gauge("throttled_sms", "SMs throttled now", () -> oldLoad);
        old.counter("epochs", "only the old policy has these", () -> oldOnly);
        old.histogram("epoch_ps", "epoch lengths", 1_000_000).record(1000);
        old.sampleEachEpoch("throttles");
        old.sampleEachEpoch("throttled_sms");
        reg.sampleEpoch(1000);

        StatsRegistry.Handover h = reg.handover("policy.throttling.");
        Stats next = h.scope("policy").scope("throttling");
        next.counter("throttles", "throttles so far", () -> newCount);
        next.gauge("throttled_sms", "SMs throttled now", () -> newLoad);
        next.counter("releases", "new in the successor", () -> 2);
        next.histogram("epoch_ps", "epoch lengths", 1_000_000).record(3000);
        next.sampleEachEpoch("throttles");
        assertThrows(IllegalArgumentException.class, () -> next.counter("throttles", "twice", () -> 0));
        assertEquals(7.0, reg.value("policy.throttling.throttles"), "not committed: the old policy's");
        assertFalse(reg.has("policy.throttling.releases"));

        h.commit();
        newCount = 2;
        oldCount = 100; // the old policy no longer counts
        assertEquals(9.0, reg.value("policy.throttling.throttles"), "7 before the swap + 2 after");
        assertEquals(1.0, reg.value("policy.throttling.throttled_sms"), "a gauge reads the new policy");
        assertEquals(2.0, reg.value("policy.throttling.releases"));
        assertEquals(2.0, reg.snapshot().get("policy.throttling.epoch_ps.count"), "one histogram over the run");
        assertEquals(4.0, reg.value("policy.throttling.epochs"));
        h.freezeRest();
        oldOnly = 50;
        assertEquals(4.0, reg.value("policy.throttling.epochs"), "frozen at the old policy's value when it closed");
        reg.sampleEpoch(2000);
        assertArrayEquals(new double[] {2.0, 9.0, 1.0}, reg.seriesRows().get(1), "the columns go on");
        assertEquals(java.util.List.of("policy.throttling.throttles", "policy.throttling.throttled_sms"), reg.sampledNames());
    }

    /** A swap refused before its commit leaves the run's statistics as they were. */
    @Test
    void aHandoverNeverCommittedChangesNothing() {
        StatsRegistry reg = new StatsRegistry();
        reg.scope("policy").scope("compression").counter("hits", "hits", () -> 5);
        StatsRegistry.Handover h = reg.handover("policy.compression.");
        h.scope("policy").scope("compression").counter("hits", "hits", () -> 1000);
        h.scope("policy").scope("compression").gauge("ratio", "ratio", () -> 2);
        assertEquals(5.0, reg.value("policy.compression.hits"));
        assertFalse(reg.has("policy.compression.ratio"));
    }
}
