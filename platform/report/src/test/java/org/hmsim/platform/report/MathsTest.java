package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MathsTest {
    @Test
    void geometricMeanOfPositiveFiniteValues() {
        assertEquals(2.0, Maths.geomean(1, 4), 1e-12);
        assertEquals(Math.cbrt(2 * 3 * 4), Maths.geomean(2, 3, 4), 1e-12);
        assertEquals(2.0, Maths.geomean(1, 4, Double.NaN, 0, Double.POSITIVE_INFINITY), 1e-12, "missing and zero values are left out");
        assertTrue(Double.isNaN(Maths.geomean()));
        // Baseline-independent: the ratio of geomeans equals the geomean of ratios.
        assertEquals(Maths.geomean(2, 8) / Maths.geomean(1, 2), Maths.geomean(2.0 / 1, 8.0 / 2), 1e-12);
    }

    @Test
    void timesBecomeSpeedupsOtherMetricsRatios() {
        assertEquals(2.0, Maths.normalise(50, 100, true), 1e-12, "half the time = speedup 2");
        assertEquals(0.5, Maths.normalise(50, 100, false), 1e-12);
        assertTrue(Double.isNaN(Maths.normalise(5, 0, false)));
        assertTrue(Double.isNaN(Maths.normalise(0, 5, true)));
        assertTrue(Maths.isTime("sim_time_ns"));
        assertTrue(Maths.isTime("kernel_latency"));
        assertFalse(Maths.isTime("ipc"));
        assertFalse(Maths.isTime("pool.gddr.bandwidth_gbps"));
        assertEquals("pool.ddr.bandwidth_gbps (GB/s)", Maths.axisLabel("pool.ddr.bandwidth_gbps"));
    }

    @Test
    void cumulativeSeriesAreDifferentiatedPerEpoch() {
        double[] t = {100, 200, 400};
        assertArrayEquals(new double[] {10, 20, 5}, TimeSeries.rate(t, new double[] {1000, 3000, 4000}));
        double[] hr = TimeSeries.hitRate(new double[] {1, 1, 4}, new double[] {3, 3, 4});
        assertEquals(0.25, hr[0], 1e-12);
        assertTrue(Double.isNaN(hr[1]), "no access in the epoch");
        assertEquals(0.75, hr[2], 1e-12);
    }

    private static void assertArrayEquals(double[] want, double[] got) {
        org.junit.jupiter.api.Assertions.assertArrayEquals(want, got, 1e-12);
    }

    @Test
    void numbersWithUnits() {
        assertEquals(40, Numbers.leading("40GB/s"), 0);
        assertEquals("GB/s", Numbers.unit("40GB/s"));
        assertTrue(Double.isNaN(Numbers.leading("local")));
        assertEquals("+3.10 %", Numbers.percent(0.031));
    }
}
