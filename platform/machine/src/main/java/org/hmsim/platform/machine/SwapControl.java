package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.hmsim.api.policy.Slot;

/**
 * The thread-safe handle of one running simulation for live swaps: any thread (the shell, a bundle
 * event) may {@link #submit} a swap; the simulation thread takes it at its next safe point (an epoch
 * end) and never lets another thread touch model state (DESIGN §6). Also reports the active policies
 * and the swaps done so far.
 */
public final class SwapControl {
    private final String runId;
    private final ConcurrentLinkedQueue<SwapRequest> inbox = new ConcurrentLinkedQueue<>();
    private final String[] active = new String[Slot.values().length];
    private final String[] bundles = new String[Slot.values().length];
    private final List<SwapRecord> records = new ArrayList<>();
    private volatile boolean finished, aborted;

    SwapControl(String runId) { this.runId = runId; }

    public String runId() { return runId; }

    /** Queues a swap for the next safe point; false if the run has already ended. */
    public boolean submit(SwapRequest r) {
        if (finished) return false;
        inbox.add(r);
        return true;
    }

    SwapRequest poll() { return inbox.poll(); }

    boolean hasPending() { return !inbox.isEmpty(); }

    public boolean finished() { return finished; }

    /**
     * Ends the run at its next safe point without a result (the container is stopping under it): the simulation
     * throws {@link RunAbortedException}, and its run is left to be done again by {@code --resume}.
     */
    public void abort() { aborted = true; }

    public boolean aborted() { return aborted; }

    void finish() {
        finished = true;
        inbox.clear();
    }

    synchronized void setActive(Slot s, String id, String bundle) {
        active[s.ordinal()] = id;
        bundles[s.ordinal()] = bundle;
    }

    /** {@code name@version} of each slot's active policy. */
    public synchronized Map<Slot, String> active() {
        Map<Slot, String> m = new EnumMap<>(Slot.class);
        for (Slot s : Slot.values()) if (active[s.ordinal()] != null) m.put(s, active[s.ordinal()]);
        return m;
    }

    /** The bundle of each slot's active policy. */
    public synchronized Map<Slot, String> bundles() {
        Map<Slot, String> m = new EnumMap<>(Slot.class);
        for (Slot s : Slot.values()) if (bundles[s.ordinal()] != null) m.put(s, bundles[s.ordinal()]);
        return m;
    }

    synchronized void add(SwapRecord r) { records.add(r); }

    /** The record of exactly this request (not an equal one), by identity: what the shell that asked reports. */
    private final Map<SwapRequest, SwapRecord> byRequest = new java.util.IdentityHashMap<>();

    synchronized void add(SwapRecord r, SwapRequest from) {
        records.add(r);
        byRequest.put(from, r);
    }

    /** The record of request {@code r} once the run carried it out or refused it, else null. */
    public synchronized SwapRecord recordOf(SwapRequest r) { return byRequest.get(r); }

    /** The swaps performed (or refused) so far, in order. */
    public synchronized List<SwapRecord> records() { return List.copyOf(records); }
}
