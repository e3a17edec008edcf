package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every metric a run puts in runs.csv is in docs/metrics.md (a researcher looks its meaning up there), on
 * machines that bring their own metrics: two pools behind a link, several GPUs, demand paging, a CPU side.
 */
class MetricsDocumentedTest {
    @Test
    void everyRunMetricIsInDocsMetrics() throws Exception {
        Set<String> documented = documented();
        List<RunResult> runs = new ArrayList<>();
        runs.add(TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 16384), new ClasspathPolicies()));
        runs.add(TestMachines.run(TestMachines.machine("coda"), TestMachines.workload("block-exclusive", 1, "ctas", 32), new ClasspathPolicies()));
        runs.add(TestMachines.run(TestMachines.machine("coda"), new org.hmsim.platform.workloads.mix.MixWorkload("mix",
                List.of(TestMachines.workload("block-exclusive", 1, "ctas", 16), TestMachines.workload("stream", 1, "elements", 8192))), new ClasspathPolicies()));
        runs.add(TestMachines.run(TestMachines.machine("etc", "uvm.oversubscription", 0.5), TestMachines.workload("etc-2dconv", 1), new ClasspathPolicies()));
        runs.add(TestMachines.run(TestMachines.machine("sahc"), TestMachines.workload("apu-kmeans", 1, "elements", 1024, "iterations", 1), new ClasspathPolicies()));
        Set<String> missing = new TreeSet<>();
        for (RunResult r : runs)
            for (String m : r.metrics().keySet()) if (!documented.contains(generic(m))) missing.add(m + " (as " + generic(m) + ")");
        assertEquals(Set.of(), missing, "metrics of runs.csv not in docs/metrics.md's table");
    }

    /**
     * Every statistic of stats.json has its row in the run's statistics.csv ({@link RunResult#statDocs()}), with a
     * description, and the rows are few: units of one kind share one (76 of a quickstart run's 145 statistics were in no
     * document; found by a design review).
     */
    @Test
    void everyStatisticIsDescribedInFewRows() {
        RunResult r = TestMachines.run(TestMachines.machine("etc", "uvm.oversubscription", 0.5), TestMachines.workload("etc-2dconv", 1), new ClasspathPolicies());
        List<Pattern> rows = new ArrayList<>();
        for (var e : r.statDocs().entrySet()) {
            org.junit.jupiter.api.Assertions.assertFalse(e.getValue().isBlank(), e.getKey() + " has no description");
            rows.add(Pattern.compile(Pattern.quote(e.getKey()).replace("*", "\\E[0-9]+\\Q").replace(".{count,mean,p50,p99,max}", "\\E\\.(count|mean|p50|p99|max)\\Q")));
        }
        Set<String> undescribed = new TreeSet<>();
        for (String stat : r.stats().keySet()) if (rows.stream().noneMatch(p -> p.matcher(stat).matches())) undescribed.add(stat);
        assertEquals(Set.of(), undescribed, "statistics without a row in statistics.csv");
        org.junit.jupiter.api.Assertions.assertTrue(r.statDocs().containsKey("gpu0.sm*.l1.hits"), "the SMs' L1s share a row: " + r.statDocs().keySet());
        org.junit.jupiter.api.Assertions.assertTrue(r.statDocs().size() * 4 < r.stats().size(), r.statDocs().size() + " rows for " + r.stats().size() + " statistics");
    }

    /** A pool's or link's metric with its name as the docs write it: pool.hbm0.bytes -> pool.<p>.bytes. */
    private static String generic(String metric) {
        return metric.replaceFirst("^program\\d+_", "program<p>_").replaceFirst("^pool\\.[^.]+\\.", "pool.<p>.").replaceFirst("^link\\.[^.]+\\.", "link.<l>.");
    }

    /** The names in backquotes in the first column of docs/metrics.md's table. */
    private static Set<String> documented() throws Exception {
        Set<String> names = new TreeSet<>();
        Pattern name = Pattern.compile("`([^`]+)`");
        for (String line : Files.readAllLines(Presets.examples().getParent().resolve("docs/metrics.md"))) {
            if (!line.startsWith("| `")) continue;
            Matcher m = name.matcher(line.substring(0, line.indexOf('|', 1)));
            while (m.find()) names.add(m.group(1));
        }
        return names;
    }
}
