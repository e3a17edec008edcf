package org.hmsim.api.engine;

/**
 * The discrete-event loop of one simulation. Time is a {@code long} in picoseconds. Events at the same
 * time run in the order they were scheduled (a sequence number breaks ties), so a run is deterministic.
 * One engine is driven by one thread; nothing here is thread-safe.
 *
 * <p>Scheduling allocates nothing: the event is stored as (time, target, kind, payload) in primitive
 * arrays. A component that has nothing to do schedules nothing and is woken by its inputs.
 */
@org.osgi.annotation.versioning.ProviderType
public interface Engine {

    /** Current simulated time in picoseconds. */
    long now();

    /**
     * Calls {@code target.handle(kind, payload)} at {@code timePs}. A time in the past is a bug in the
     * caller and is rejected.
     */
    void schedule(long timePs, EventTarget target, int kind, long payload);

    /** Same as {@code schedule(now() + delayPs, ...)}. */
    default void scheduleIn(long delayPs, EventTarget target, int kind, long payload) {
        schedule(now() + delayPs, target, kind, payload);
    }

    /** Number of events handled so far. */
    long eventsHandled();
}
