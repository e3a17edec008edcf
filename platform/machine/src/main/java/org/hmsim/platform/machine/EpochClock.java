package org.hmsim.platform.machine;

import org.hmsim.api.engine.EventTarget;

/**
 * Ends a statistics epoch every {@code epochPs}: samples the time series and gives the migration and
 * throttling slots their periodic call. It stops rescheduling itself once the workload is done, so it
 * never keeps an otherwise finished simulation alive.
 */
final class EpochClock implements EventTarget {
    private final Machine machine;
    private final WorkloadRunner workload;
    private final long epochPs;
    private long lastSamplePs = -1;
    private long epochs;
    private Swapper swapper;
    private Watchdog watchdog;

    EpochClock(Machine machine, WorkloadRunner workload, long epochPs) {
        this.machine = machine;
        this.workload = workload;
        this.epochPs = epochPs;
    }

    /** Live swaps are staged and taken at epoch ends (the safe point where outside requests enter). */
    void setSwapper(Swapper s) { this.swapper = s; }

    void setWatchdog(Watchdog w) { this.watchdog = w; }

    private java.util.function.BooleanSupplier abort = () -> false;

    /** Asked at every epoch end: true stops the engine there (the run is aborted, see Simulation). */
    void setAbort(java.util.function.BooleanSupplier a) { this.abort = a; }

    void start() { machine.engine.schedule(epochPs, this, 0, 0); }

    @Override
    public void handle(int kind, long payload) {
        if (workload.done()) return;
        if (abort.getAsBoolean()) {
            machine.engine.stop();
            return;
        }
        long now = machine.engine.now();
        if (watchdog != null) watchdog.check(now);
        sample(now);
        epochs++;
        if (swapper != null) swapper.onEpoch(epochs);
        machine.migration().onEpoch(now);
        machine.throttling().onEpoch(now);
        machine.engine.schedule(now + epochPs, this, 0, 0);
    }

    /** The last, possibly shorter, epoch at the end of the run. */
    void finish(long endPs) {
        if (endPs > lastSamplePs) sample(endPs);
    }

    private void sample(long now) {
        machine.stats.sampleEpoch(now);
        lastSamplePs = now;
    }
}
