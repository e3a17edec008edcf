package org.hmsim.platform.machine;

/**
 * What a run that failed mid-simulation had done: suppressed in its exception, so error.txt says when it failed and which
 * policies had been swapped in before (runs.csv names the ones it started with: a trial's swapped-in scheduler failed the
 * run with the error blaming "the cta-scheduler policy" and nothing but swaps.csv naming it), and the results folder keeps
 * its statistics up to the failure as {@code partial-stats.json} (a failed run had kept nothing it simulated). No stack
 * trace of its own: it is information, not a second failure.
 */
public final class RunFailureContext extends RuntimeException {
    private final transient RunResult partial;

    public RunFailureContext(String message, RunResult partial) {
        super(message, null, false, false);
        this.partial = partial;
    }

    /** The run's statistics and time series at the failure, or null if they could not be gathered. */
    public RunResult partial() { return partial; }

    /** The context suppressed in {@code failure}, or null (a failure before the simulation began, or a time limit). */
    public static RunFailureContext of(Throwable failure) {
        for (Throwable s : failure.getSuppressed()) if (s instanceof RunFailureContext c) return c;
        return null;
    }
}
