package org.hmsim.platform.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The metric names a study's figures are checked against are docs/metrics.md's, and names and patterns resolve as runs.csv's. */
class MetricNamesTest {

    /** The names in backquotes in the first column of docs/metrics.md's table, in order. */
    static List<String> documented() throws Exception {
        Path dir = Path.of("").toAbsolutePath();
        while (!Files.isRegularFile(dir.resolve("docs/metrics.md"))) dir = dir.getParent();
        List<String> names = new ArrayList<>();
        Pattern name = Pattern.compile("`([^`]+)`");
        for (String line : Files.readAllLines(dir.resolve("docs/metrics.md"))) {
            if (!line.startsWith("| `")) continue;
            Matcher m = name.matcher(line.substring(0, line.indexOf('|', 1)));
            while (m.find()) names.add(m.group(1));
        }
        return names;
    }

    @Test
    void theListIsTheDocsTable() throws Exception {
        assertEquals(documented(), MetricNames.DOCUMENTED, "MetricNames.DOCUMENTED and docs/metrics.md's table differ");
    }

    @Test
    void namesAndPatternsResolveAsRunsCsvColumns() {
        assertTrue(MetricNames.known("sim_time_ns"));
        assertTrue(MetricNames.known("pool.hbm3.bandwidth_gbps"), "any pool's name");
        assertTrue(MetricNames.known("link.gpu0-cpu.wire_bytes"), "any link's name");
        assertTrue(MetricNames.known("program2_time_ns"));
        assertTrue(MetricNames.known("pool.*.bytes"));
        assertTrue(MetricNames.known("uvm.*"));
        assertTrue(MetricNames.known("*_ns"));
        assertFalse(MetricNames.known("sim_tme_ns"));
        assertFalse(MetricNames.known("pool.gddr.bandwidth"));
        assertFalse(MetricNames.known("nothing.*"));
        assertEquals("sim_time_ns", MetricNames.closest("sim_tme_ns"));
        assertEquals("pool.<p>.bandwidth_gbps", MetricNames.closest("pool.gddr.bandwidth"));
    }
}
