package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.SortedMap;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.Slot;

/** Runs one simulation to completion on the calling thread. */
public final class Simulation {
    private Simulation() {}

    /**
     * Assembles the machine, creates the policies, runs the workload's kernels in order and returns the
     * statistics. A policy that throws makes this throw (the caller records the run as failed); so does a
     * run that stalls with work outstanding (a deadlock is a bug, never a result) or one that reaches its
     * simulated-time limit.
     */
    public static RunResult run(RunSpec spec) { return run(spec, List.of()); }

    /**
     * Runs independent simulations on two threads and returns their results in the order given. Each run
     * is self-contained and deterministic, so the results do not depend on the interleaving; tests use it
     * to stay fast on a 2-core machine.
     */
    @SafeVarargs
    public static RunResult[] concurrently(java.util.function.Supplier<RunResult>... runs) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            List<java.util.concurrent.Future<RunResult>> futures = new ArrayList<>();
            for (var r : runs) futures.add(pool.submit(r::get));
            RunResult[] out = new RunResult[runs.length];
            for (int i = 0; i < out.length; i++) out[i] = futures.get(i).get();
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * As {@link #run(RunSpec)}, with {@code extraSwaps} carried out besides those of the policy source (a
     * {@link SwapHost} source also takes live swaps through the {@link SwapControl} it is given).
     */
    public static RunResult run(RunSpec spec, List<ScriptedSwap> extraSwaps) {
        Machine m = new Machine(spec.machine(), spec.policies(), spec.seed(), spec.runId());
        SwapHost host = spec.policies() instanceof SwapHost h ? h : null;
        List<ScriptedSwap> scripts = new ArrayList<>(host != null ? host.scripted() : List.of());
        scripts.addAll(extraSwaps);
        SwapControl control = new SwapControl(spec.runId());
        for (Slot s : Slot.values())
            control.setActive(s, spec.policies().describe(s), host != null ? host.bundle(s) : "classpath");
        ProfilingPass profiling = new ProfilingPass(m, spec, control::aborted); // two-pass policies only (oracle, profiled hints)
        Swapper swapper = new Swapper(m, host, scripts, control, spec.seed(), spec.runId(), profiling);
        Throwable failed = null;
        try {
            if (host != null) host.started(control);
            profiling.prepare();
            // the last moment before anything is simulated: a policy's bundle that left while the run was set up fails it here
            if (host != null) host.starting(control);
            return run(m, spec, swapper);
        } catch (Throwable t) {
            failed = t;
            throw t;
        } finally {
            swapper.discardPending(); // a swap's new policy, created before a drain the run did not live to finish
            control.finish();
            // ended() whatever close() does: the container's swap hub keys runs by id, and a run left registered there
            // was swapped by the next study's bundle events as if it were that study's run of the same id
            try {
                RuntimeException closing = closeAll(m.policies);
                if (closing != null && failed != null) failed.addSuppressed(closing);
                else if (closing != null) throw closing;
            } finally {
                if (host != null) host.ended(control);
            }
        }
    }

    /**
     * Closes every policy of the run; returns the first failure of a policy's own close (the others suppressed in it),
     * for the run to fail with. A LinkageError is a bundle that left with the policy's classes: nothing to close then.
     */
    private static RuntimeException closeAll(Policy[] policies) {
        RuntimeException first = null;
        for (Policy p : policies) {
            try {
                p.close();
            } catch (LinkageError gone) {
                // the policy's bundle went away during the run (it was swapped away or marked departed)
            } catch (RuntimeException e) {
                if (first == null) first = e;
                else first.addSuppressed(e);
            }
        }
        return first;
    }

    static RunResult run(Machine m, RunSpec spec) { return run(m, spec, null, () -> false); }

    static RunResult run(Machine m, RunSpec spec, Swapper swapper) { return run(m, spec, swapper, swapper == null ? () -> false : swapper::aborted); }

    /** {@code aborted}: asked at every epoch end; true ends the run there, with {@link RunAbortedException}. */
    static RunResult run(Machine m, RunSpec spec, Swapper swapper, java.util.function.BooleanSupplier aborted) {
        WorkloadRunner workload = new WorkloadRunner(m, spec.workload());
        long epoch = spec.epochPs() > 0 ? spec.epochPs() : 10_000_000L;
        m.epochPs = epoch; // what PolicyContext.epochPs() answers from here on
        EpochClock epochs = new EpochClock(m, workload, epoch);
        epochs.setAbort(aborted);
        m.throttling().begin(0); // before a swap scripted at time 0 replaces it
        if (swapper != null) {
            workload.setSwapper(swapper);
            epochs.setSwapper(swapper);
            swapper.start(workload);
        }
        TimeSeries.register(m);
        Watchdog watchdog = new Watchdog(m, workload, m.cfg.watchdogPs()); // a deadlock fails the run instead of ticking epochs forever
        watchdog.start();
        epochs.setWatchdog(watchdog);
        epochs.start();
        // the time series' last row is the run's end as it was, not after copies and write-backs still moving have drained
        workload.onFinished(() -> {
            // copies and write-backs still moving drain into the statistics; a timer that never stops re-arming (a
            // policy's) would keep a finished run alive for ever (a researcher's plugin did): the drain ends within this
            m.engine.limitTo(m.engine.now() + DRAIN_AFTER_END_PS);
            epochs.finish(m.engine.now());
            m.workloadEnded();
            if (swapper != null) swapper.workloadEnded(m.engine.now(), epoch);
        });
        try {
            return simulate(m, spec, swapper, aborted, workload, epochs);
        } catch (SimTimeLimitException | RunAbortedException e) {
            throw e; // a time limit carries its own statistics; an abort is the container's, not the run's failure
        } catch (RuntimeException e) {
            e.addSuppressed(failureContext(m, workload, swapper, epochs));
            throw e;
        }
    }

    private static RunResult simulate(Machine m, RunSpec spec, Swapper swapper, java.util.function.BooleanSupplier aborted,
                                      WorkloadRunner workload, EpochClock epochs) {
        workload.start();
        long limit = spec.maxSimTimePs() > 0 ? spec.maxSimTimePs() : Long.MAX_VALUE;
        m.engine.run(limit);
        if (workload.done() && m.engine.pending() > 0) { // only then, so a run that drained has the statistics it always had
            int left = m.engine.pending();
            m.stats.counter("engine.events_left_at_end", "events still queued " + time(DRAIN_AFTER_END_PS) + " after the workload's end, when the run "
                    + "stopped handling them: a timer that never stops re-arming itself (a policy's); absent when the run drained", () -> left);
        }
        if (!workload.done()) {
            if (aborted.getAsBoolean())
                throw new RunAbortedException("stopped at " + m.engine.now() + " ps in kernel " + workload.kernelsLaunched() + " of "
                        + workload.kernelCount() + ": the container stopped under the run");
            if (m.engine.isEmpty() || m.engine.peekTime() <= limit)
                throw new IllegalStateException("simulation stalled at " + m.engine.now() + " ps in kernel " + workload.kernelsLaunched()
                        + " of " + workload.kernelCount() + " with nothing left to do (a model deadlock); in flight: " + inFlight(m));
            RunResult partial = result(m, workload, swapper, epochs, limit);
            throw new SimTimeLimitException("simulated-time limit max_time = " + time(limit) + " reached in kernel launch " + workload.kernelsLaunched()
                    + " of " + workload.kernelCount() + " (counted from 1; a swap's at: kernel counts from 0): the workload did not finish, so the run"
                    + " has no result; its statistics up to the limit are in partial-stats.json and partial-timeseries.csv beside this error", partial);
        }
        return result(m, workload, swapper, epochs, workload.finishedPs());
    }

    /** When the run failed, the policies swapped in before, and its statistics up to then (if they can still be read). */
    private static RunFailureContext failureContext(Machine m, WorkloadRunner workload, Swapper swapper, EpochClock epochs) {
        long now = m.engine.now();
        StringBuilder b = new StringBuilder("the run failed at " + time(now) + " simulated, in kernel launch " + workload.kernelsLaunched()
                + " of " + workload.kernelCount());
        if (swapper != null) {
            java.util.Map<org.hmsim.api.policy.Slot, SwapRecord> last = new java.util.EnumMap<>(org.hmsim.api.policy.Slot.class);
            for (SwapRecord r : swapper.records()) if ("ok".equals(r.outcome())) last.put(r.slot(), r);
            if (!last.isEmpty()) {
                b.append("; policies swapped in before it (runs.csv names the ones the run started with):");
                // the last swap of each slot: the policy in force when the run failed, one that failed it as it was installed too
                last.values().forEach(r -> b.append(' ').append(r.slot().id()).append('=').append(r.toWithParams())
                        .append(" (at ").append(time(r.simTimePs()))
                        .append(r == swapper.failedInstall() ? "; the run failed as it was installed" : "").append(')'));
            }
        }
        RunResult partial = null;
        try {
            partial = result(m, workload, swapper, epochs, now);
            b.append("; its statistics up to the failure are in partial-stats.json and partial-timeseries.csv");
        } catch (RuntimeException | LinkageError unreadable) { // the failure left a component unable to report
            b.append("; its statistics could not be gathered (").append(unreadable).append(')');
        }
        return new RunFailureContext(b.toString(), partial);
    }

    /** The run's statistics, metrics and series at {@code end}: the workload's end, or the time limit. */
    private static RunResult result(Machine m, WorkloadRunner workload, Swapper swapper, EpochClock epochs, long end) {
        m.stats.endAt(end); // utilisations divide by the run's time, not by the clock's last epoch boundary
        epochs.finish(end);
        SortedMap<String, Double> stats = m.stats.snapshot();
        LinkedHashMap<String, Double> metrics = Metrics.headline(m, stats, end, workload.kernelCount());
        if (workload.multiprogram()) Metrics.programs(metrics, workload.programEndsPs(), m.gpus.size());
        // runs.csv names the policies a run started with; this says whether it ended on others
        if (swapper != null) metrics.put("swaps", (double) swapper.performed());
        // only in a run that ended before a scripted swap, as the statistic (elsewhere an empty cell of runs.csv)
        if (swapper != null && stats.containsKey("swap.scripted_not_reached")) metrics.put("swaps_not_reached", stats.get("swap.scripted_not_reached"));
        return new RunResult(end, metrics, stats, m.stats.sampledNames(), m.stats.seriesRows(), m.engine.eventsHandled(), Metrics.lineRequests(m),
                m.stats.describedNames());
    }

    /**
     * How long after its workload's end a run goes on handling events (the copies, write-backs and acknowledgements still
     * moving, which count in bytes and energy): 10 ms simulated, far past any of those (µs), so only a timer that never
     * stops (a policy re-arming itself each time) is cut; {@code engine.events_left_at_end} counts what it cut.
     */
    static final long DRAIN_AFTER_END_PS = 10_000_000_000L;

    /** {@code 1ms}, {@code 2.5us}: a duration as a study file writes it. */
    static String time(long ps) {
        String[] units = {"s", "ms", "us", "ns"};
        long[] scale = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < units.length; i++)
            if (ps >= scale[i]) return java.math.BigDecimal.valueOf(ps).divide(java.math.BigDecimal.valueOf(scale[i])).stripTrailingZeros().toPlainString() + units[i];
        return ps + "ps";
    }

    private static String inFlight(Machine m) {
        StringBuilder b = new StringBuilder();
        m.gpus.forEach(g -> b.append(g.name()).append('=').append(g.inFlight()).append(' '));
        m.pools.forEach(p -> b.append(p.name()).append('=').append(p.inFlight()).append(' '));
        m.links.forEach(l -> b.append(l.name()).append('=').append(l.inFlight()).append(' '));
        return b.toString().trim();
    }
}
