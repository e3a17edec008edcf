package org.hmsim.platform.machine;

import java.util.List;
import java.util.SortedMap;

/**
 * What one finished simulation produced: its simulated time, the headline metrics (a fixed, documented
 * set in a fixed order: the columns of runs.csv), every statistic by name (sorted, so output is
 * deterministic), and the per-epoch time series ({@code seriesNames} are the columns after the time
 * column; each row starts with the epoch's end time in ns). {@code statDocs} says what each statistic is, units of one
 * kind in one row ({@code gpu0.sm*.l1.hits}; results' statistics.csv).
 */
public record RunResult(long simTimePs, java.util.LinkedHashMap<String, Double> metrics, SortedMap<String, Double> stats,
                        List<String> seriesNames, List<double[]> seriesRows, long events, long memoryRequests,
                        SortedMap<String, String> statDocs) {

    /** A result whose statistics come without descriptions (tests' fakes). */
    public RunResult(long simTimePs, java.util.LinkedHashMap<String, Double> metrics, SortedMap<String, Double> stats,
                     List<String> seriesNames, List<double[]> seriesRows, long events, long memoryRequests) {
        this(simTimePs, metrics, stats, seriesNames, seriesRows, events, memoryRequests, new java.util.TreeMap<>());
    }

    public double simTimeNs() { return simTimePs / 1000.0; }
}
