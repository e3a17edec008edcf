package org.hmsim.platform.machine;

/**
 * A run reached its simulated-time limit ({@code max_time}) before its workload finished. The run fails: its numbers
 * describe part of the workload, so they must not sit in runs.csv beside whole runs. It carries the statistics and time
 * series up to the limit, which the results folder keeps beside the error ({@code partial-stats.json}) for a researcher
 * to see how far the run got and why (a review found everything thrown away, and the limit printed in ps).
 */
public final class SimTimeLimitException extends IllegalStateException {
    private final transient RunResult partial;

    public SimTimeLimitException(String message, RunResult partial) {
        super(message);
        this.partial = partial;
    }

    /** The run's statistics and time series at the limit (sim time = the limit). */
    public RunResult partial() { return partial; }
}
