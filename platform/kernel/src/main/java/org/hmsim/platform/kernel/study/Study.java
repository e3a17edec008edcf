package org.hmsim.platform.kernel.study;

import java.nio.file.Path;
import java.util.List;

/**
 * A parsed and fully validated study: every run is planned, every machine of every sweep point parsed,
 * every policy and workload resolved with its parameters. Nothing has run yet.
 *
 * @param display the study file as named on the command line (for messages)
 * @param sha256 hex SHA-256 of the study file's bytes (provenance)
 * @param sweepColumns the runs.csv columns of swept parameters, in the order of the study's sweep
 * @param swaps scripted live swaps as written (validated in shape; performed by the live-swap issue)
 * @param report figures as written (used by the report issue)
 * @param follow the slots that follow the highest-ranked provider ({@code policies: {slot: {follow: highest-ranked}}})
 * @param notes settings and policies that run but act on nothing, or as something else, on some runs, each with its runs
 *              (printed by {@code validate} and {@code run}; not errors)
 */
public record Study(String name, Path file, String display, String sha256, List<Long> seeds, long epochPs,
                    long maxTimePs, List<String> sweepColumns, List<PlannedRun> runs, List<Object> swaps,
                    List<Object> report, String shape, java.util.Set<org.hmsim.api.policy.Slot> follow, List<String> notes,
                    List<String> statistics) {

    public Study {
        follow = follow.isEmpty() ? java.util.Set.of() : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(follow));
        notes = List.copyOf(notes);
        statistics = List.copyOf(statistics);
    }

    /** Which statistics of stats.json this study lists under {@code statistics:} (by name, or matching a pattern). */
    public java.util.function.Predicate<String> listedStatistics() { return TopLevelKeys.listed(statistics); }

    /** A study that puts no statistic of stats.json in runs.csv beyond the metrics. */
    public Study(String name, Path file, String display, String sha256, List<Long> seeds, long epochPs, long maxTimePs,
                 List<String> sweepColumns, List<PlannedRun> runs, List<Object> swaps, List<Object> report, String shape,
                 java.util.Set<org.hmsim.api.policy.Slot> follow, List<String> notes) {
        this(name, file, display, sha256, seeds, epochPs, maxTimePs, sweepColumns, runs, swaps, report, shape, follow, notes, List.of());
    }

    /** A study with no notes. */
    public Study(String name, Path file, String display, String sha256, List<Long> seeds, long epochPs, long maxTimePs,
                 List<String> sweepColumns, List<PlannedRun> runs, List<Object> swaps, List<Object> report, String shape,
                 java.util.Set<org.hmsim.api.policy.Slot> follow) {
        this(name, file, display, sha256, seeds, epochPs, maxTimePs, sweepColumns, runs, swaps, report, shape, follow, List.of());
    }

    /** A study whose slots follow no ranking. */
    public Study(String name, Path file, String display, String sha256, List<Long> seeds, long epochPs, long maxTimePs,
                 List<String> sweepColumns, List<PlannedRun> runs, List<Object> swaps, List<Object> report, String shape) {
        this(name, file, display, sha256, seeds, epochPs, maxTimePs, sweepColumns, runs, swaps, report, shape, java.util.Set.of());
    }
}
