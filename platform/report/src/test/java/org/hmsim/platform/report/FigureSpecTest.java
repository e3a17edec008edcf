package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FigureSpecTest {
    @Test
    void theExamplesOfTheDocs() throws Exception {
        FigureSpec bar = FigureSpec.parse(Map.of("metric", "sim_time_ns", "normalise_to", Map.of("placement", "local"), "by", "workload"));
        assertEquals(FigureSpec.Kind.BAR, bar.kind());
        assertEquals(Map.of("placement", "local"), bar.normalise().values());
        assertTrue(bar.geomean(), "normalised bars get a geometric mean by default");
        FigureSpec line = FigureSpec.parse(Map.of("metric", "pool.gddr.bandwidth_gbps", "x", "policies.placement.fast_percent"));
        assertEquals(FigureSpec.Kind.LINE, line.kind());
        assertNull(line.normalise());
        FigureSpec stacked = FigureSpec.parse(Map.of("kind", "stacked", "metrics", List.of("pool.gddr.bytes", "pool.ddr.bytes"), "by", "workload"));
        assertTrue(stacked.shares());
        FigureSpec ts = FigureSpec.parse(Map.of("kind", "timeseries", "runs", List.of("0001", 3)));
        assertEquals(List.of("0001", "3"), ts.runs());
        FigureSpec faults = FigureSpec.parse(Map.of("kind", "timeseries", "metrics", List.of("uvm.faults"), "rate", false));
        assertEquals(List.of("uvm.faults"), faults.metrics());
        assertTrue(!faults.rate() && ts.rate() && ts.metrics().isEmpty());
        assertTrue(FigureSpec.parse(Map.of("metric", "ipc", "normalize_to", "baseline")).normalise().study());
        assertEquals(Map.of("machine", List.of("coda"), "fast_percent", List.of("0", "50")),
                FigureSpec.parse(Map.of("metric", "ipc", "where", Map.of("machine", "coda", "fast_percent", List.of(0, 50)))).where());
    }

    @Test
    void mistakesNameTheirKey() {
        assertEquals("polices", key(Map.of("metric", "ipc", "polices", 1)));
        Map<String, Object> two = new java.util.LinkedHashMap<>(Map.of("metric", "ipc"));
        two.put("bi", "workload");
        two.put("normalize", "x");
        FigureSpecException both = org.junit.jupiter.api.Assertions.assertThrows(FigureSpecException.class, () -> FigureSpec.parse(two));
        org.junit.jupiter.api.Assertions.assertTrue(both.getMessage().startsWith("unknown keys 'bi', 'normalize' (a figure has "), both.getMessage());
        assertEquals("", key(Map.of("kind", "line", "metric", "ipc")), "a line without x");
        assertEquals("x", key(Map.of("kind", "bar", "metric", "ipc", "x", "a")));
        assertEquals("normalise_to", key(Map.of("kind", "stacked", "metrics", List.of("a", "b"), "normalise_to", "baseline")));
        assertEquals("kind", key(Map.of("kind", "pie", "metric", "ipc")));
        assertEquals("", key(Map.of("by", "workload")), "no metric");
        assertEquals("normalise_to.placement", key(Map.of("metric", "ipc", "normalise_to", Map.of("placement", List.of("a")))));
        assertEquals("geomean", key(Map.of("metric", "ipc", "geomean", "yes")));
        assertEquals("", key("sim_time_ns"), "a figure is a mapping");
        assertEquals("where", key(Map.of("metric", "ipc", "where", "coda")));
        assertEquals("where.machine", key(Map.of("metric", "ipc", "where", Map.of("machine", List.of()))));
        assertEquals("rate", key(Map.of("metric", "ipc", "rate", false)), "rate is for timeseries figures with metrics");
        assertEquals("rate", key(Map.of("kind", "timeseries", "rate", false)));
    }

    /** by and invert where the figure draws the same without them were accepted, and the change they asked for never came. */
    @Test
    void byAndInvertWhereTheyChangeNothingAreRefused() throws Exception {
        Map<String, Object> line = Map.of("metric", "ipc", "x", "fast_percent", "by", "placement");
        assertEquals("by", key(line));
        assertEquals("by", key(Map.of("kind", "timeseries", "by", "workload")));
        assertEquals("invert", key(Map.of("kind", "stacked", "metrics", List.of("a", "b"), "invert", true)));
        assertEquals("invert", key(Map.of("kind", "timeseries", "invert", false)));
        assertEquals("invert", key(Map.of("metric", "ipc", "invert", true)), "not normalised");
        assertEquals("invert", key(Map.of("metric", "ipc", "x", "fast_percent", "normalise_to", "none", "invert", true)));
        assertEquals("a line figure has no by: it draws one line per combination of the other varied columns (where: picks them)",
                assertThrows(FigureSpecException.class, () -> FigureSpec.parse(line)).getMessage());
        // where they act they stay
        assertEquals(Boolean.FALSE, FigureSpec.parse(Map.of("metric", "ipc", "by", "machine", "normalise_to", "baseline", "invert", false)).invert());
        assertEquals(Boolean.TRUE, FigureSpec.parse(Map.of("metric", "ipc", "x", "fast_percent", "normalize_to", Map.of("placement", "local"), "invert", true)).invert());
        assertEquals("machine", FigureSpec.parse(Map.of("kind", "stacked", "metrics", List.of("a", "b"), "by", "machine")).by());
        // an earlier results folder's study.json still draws the figure it recorded
        assertEquals(FigureSpec.Kind.LINE, FigureSpec.parseRecorded(line).kind());
    }

    private static String key(Object spec) {
        return assertThrows(FigureSpecException.class, () -> FigureSpec.parse(spec)).key();
    }
}
