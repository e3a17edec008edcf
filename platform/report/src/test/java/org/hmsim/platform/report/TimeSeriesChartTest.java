package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.jfree.chart.plot.CombinedDomainXYPlot;
import org.jfree.chart.plot.Marker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.ui.Layer;
import org.junit.jupiter.api.Test;

/** What a researcher's trial found unreadable in time-series figures: 20 swaps' labels, four statistics' names on one axis. */
class TimeSeriesChartTest {

    @Test
    void everySwapHasItsLineButOnlyThoseWithRoomALabel() {
        int epochs = 100, swaps = 20;
        double[] t = new double[epochs];
        double[] bytes = new double[epochs];
        for (int i = 0; i < epochs; i++) {
            t[i] = (i + 1) * 1000.0;
            bytes[i] = i * 4096.0;
        }
        Map<String, double[]> cols = new LinkedHashMap<>();
        cols.put("series.gddr.bytes", bytes);
        List<TimeSeries.Swap> list = new ArrayList<>();
        for (int k = 1; k <= swaps; k++) list.add(new TimeSeries.Swap(k * 5000.0, "residency", k % 2 == 0 ? "lru" : "mine", k % 2 == 0 ? "mine" : "lru"));
        var chart = Charts.timeSeries("run 0001", new TimeSeries(t, cols, list));
        XYPlot top = (XYPlot) ((CombinedDomainXYPlot) chart.getPlot()).getSubplots().get(0);
        @SuppressWarnings("unchecked")
        java.util.Collection<Marker> markers = top.getDomainMarkers(Layer.FOREGROUND);
        assertEquals(swaps, markers.size(), "a line at every swap");
        long labelled = markers.stream().filter(m -> m.getLabel() != null).count();
        assertTrue(labelled >= 2 && labelled <= Math.ceil(1 / Charts.LABEL_ROOM), "labels only with room between them: " + labelled);
    }

    @Test
    void anAxisOfSeveralStatisticsLeavesTheirNamesToTheLegend() {
        assertEquals("policy.residency.victims_chosen", Planner.yLabel(new LinkedHashSet<>(List.of("policy.residency.victims_chosen")), false));
        assertEquals("value (statistic in the legend) per µs", Planner.yLabel(new LinkedHashSet<>(List.of("a.b", "c.d", "e.f", "g.h")), true));
    }
}
