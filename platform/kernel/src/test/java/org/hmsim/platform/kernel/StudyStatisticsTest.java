package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code statistics:} puts statistics of stats.json in runs.csv, so a figure can draw them: a researcher's residency
 * plugin counted its victims and prefetches, and no figure could show them ("is not a metric of runs.csv").
 */
class StudyStatisticsTest extends ResultsCli {

    private int study(String statistics, String report) throws Exception {
        study = Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream, {name: bfs, nodes: 4096}]\n"
                + statistics + report);
        return run();
    }

    @Test
    void listedStatisticsAreRunsCsvColumnsWithStatsJsonsValues() throws Exception {
        assertEquals(0, study("statistics: [gpu0.l2.m*]\n", "report:\n  - {metric: gpu0.l2.misses, by: workload}\n"), err());
        List<String> rows = Files.readAllLines(out.resolve("runs.csv"));
        List<String> head = List.of(rows.get(0).split(","));
        assertTrue(head.contains("gpu0.l2.misses"), rows.get(0));
        assertFalse(head.contains("gpu0.l2.hits"), "only what the pattern matches: " + rows.get(0));
        var stats = org.hmsim.platform.kernel.results.Json.parse(Files.readString(out.resolve("runs/0001/stats.json")));
        double misses = Double.parseDouble(rows.get(1).split(",")[head.indexOf("gpu0.l2.misses")]);
        assertEquals(((Number) ((java.util.Map<?, ?>) stats.get("stats")).get("gpu0.l2.misses")).doubleValue(), misses, "the run's statistic");
        assertEquals(misses, ((Number) ((java.util.Map<?, ?>) stats.get("metrics")).get("gpu0.l2.misses")).doubleValue(),
                "kept among the run's metrics, so collect and --resume rebuild the same runs.csv");
    }

    /** A misspelt entry only left its column out, without a word: the run's summary names it (a trial's {@code victim_chosen}). */
    @Test
    void anEntryThatMatchedNoStatisticOfAnyRunIsNamed() throws Exception {
        assertEquals(0, study("statistics: [gpu0.l2.misses, gpu0.l2.mises, policy.nobody.*]\n", ""), err());
        String note = out().lines().filter(l -> l.startsWith("note: statistics:")).findFirst().orElse("(none) in " + out());
        assertTrue(note.contains("'gpu0.l2.mises', 'policy.nobody.*' matched no statistic of any run"), note);
        assertFalse(note.contains("'gpu0.l2.misses'"), "an entry that matched is not named: " + note);
        assertEquals(0, study("statistics: [gpu0.l2.m*]\n", ""), err());
        assertFalse(out().contains("note: statistics:"), "no note when every entry matched: " + out());
    }

    @Test
    void aFigureOfAStatisticTheStudyDoesNotListSaysHow() throws Exception {
        assertOneLineError(study("", "report:\n  - {metric: gpu0.l2.misses, by: workload}\n"), "is drawn once the study lists it under statistics:");
    }

    @Test
    void badEntriesAreNamedAtTheirPlace() throws Exception {
        assertOneLineError(study("statistics: [sim_time_ns]\n", ""), "statistics[0]: 'sim_time_ns' is a metric of runs.csv already");
        assertOneLineError(study("statistics: [gpu0.l2.hits, gpu0.l2.hits]\n", ""), "statistics[1]: 'gpu0.l2.hits' is listed twice");
        assertOneLineError(study("statistics: ['gpu0 hits']\n", ""), "statistics[0]: 'gpu0 hits' is not a statistic's name");
        assertOneLineError(study("statistics: gpu0.l2.hits\n", ""), "statistics: expected a list of statistics");
    }
}
