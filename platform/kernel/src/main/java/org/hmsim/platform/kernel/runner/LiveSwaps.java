package org.hmsim.platform.kernel.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.SwapControl;
import org.hmsim.platform.machine.SwapRequest;

/**
 * The runs of this container that can be swapped live (DESIGN §6), by run id, and where swaps come
 * from outside a run: the shell ({@code sim:swap}), the bundle lifecycle (a provider of an active policy
 * goes away: its runs swap at their next safe point to the same policy's newest remaining version, else
 * to the slot's default, and back to the policy when a new version of it arrives), and
 * {@code --replay-swaps}. Only {@link SwapControl#submit} reaches a run: the simulation thread does the rest.
 * One kernel per container, so the hub is static; nothing here references a provider after its unbind.
 */
public final class LiveSwaps {
    private static volatile PolicyRegistry registry;
    private static final Map<String, SwapControl> RUNNING = new ConcurrentHashMap<>();
    /** run id + slot -> the policy name a run lost with its bundle (to return to on the next version). */
    private static final Map<String, String> ORPHANED = new ConcurrentHashMap<>();
    /** run id + "/" + slot -> the slots still on a departed provider's code (no swap away has landed yet). */
    private static final java.util.Set<String> DEPARTED = ConcurrentHashMap.newKeySet();
    /** run id -> the slots it lets follow the highest-ranked provider, with the policy each falls back to. */
    private static final Map<String, Map<Slot, String>> FOLLOWING = new ConcurrentHashMap<>();

    private LiveSwaps() {}

    public static void useRegistry(PolicyRegistry r) { registry = r; }

    static PolicyRegistry registry() { return registry; }

    /** Set while the kernel goes away: a run that registers now (it began as the study was told to stop) ends at once. */
    private static volatile boolean aborting;

    /** The runs in flight end at their next safe point without a result, and so does any that starts now. */
    public static void abortAll() {
        aborting = true;
        for (SwapControl c : RUNNING.values()) c.abort();
    }

    /** Whether the container is stopping: its bundles leave, and a run that starts now is done again by --resume. */
    static boolean aborting() { return aborting; }

    /** A (re)activated kernel runs studies again. */
    public static void resumeRunning() { aborting = false; }

    static void started(SwapControl c) {
        RUNNING.put(c.runId(), c);
        if (aborting) c.abort();
    }

    static void ended(SwapControl c) {
        RUNNING.remove(c.runId(), c);
        FOLLOWING.remove(c.runId());
        ORPHANED.keySet().removeIf(k -> k.startsWith(c.runId() + "/"));
        DEPARTED.removeIf(k -> k.startsWith(c.runId() + "/"));
    }

    /** Run {@code c}'s {@code slot} is on an installed provider again (a swap was carried out). */
    static void settled(SwapControl c, Slot slot) { DEPARTED.remove(c.runId() + "/" + slot.id()); }

    /** Whether run {@code runId}'s {@code slot} still runs a policy whose bundle left, with nothing installed to swap to. */
    public static boolean departed(String runId, Slot slot) { return DEPARTED.contains(runId + "/" + slot.id()); }

    /** The runs in progress, by run id. */
    public static Map<String, SwapControl> running() { return new TreeMap<>(RUNNING); }

    /** Run {@code c} lets {@code slots} follow the highest-ranked provider (slot -> the policy to fall back to). */
    static void following(SwapControl c, Map<Slot, String> slots) {
        if (c.finished()) return; // it ended already: nothing may outlive it under its id
        FOLLOWING.put(c.runId(), Map.copyOf(slots));
        if (c.finished()) { // it ended meanwhile, perhaps before ended() could remove this
            FOLLOWING.remove(c.runId());
            return;
        }
        for (Slot s : slots.keySet()) rankingChanged(s); // a provider that came or went while the run was set up
    }

    /**
     * Providers of {@code slot} came or went: every run that follows the slot's highest-ranked provider and
     * is not on it swaps at its next safe point (to it, or back to the policy the study named). The target
     * is resolved again when the swap is carried out, so several changes before a safe point give the last.
     */
    static void rankingChanged(Slot slot) {
        PolicyRegistry r = registry;
        if (r == null) return;
        for (Map.Entry<String, Map<Slot, String>> f : FOLLOWING.entrySet()) {
            String base = f.getValue().get(slot);
            SwapControl c = RUNNING.get(f.getKey());
            if (base == null || c == null) continue;
            org.hmsim.platform.kernel.registry.PolicyEntry top = r.highestRanked(slot, base);
            if (top == null || (top.id().equals(c.active().get(slot)) && top.bundle().equals(c.bundles().get(slot)))) continue;
            c.submit(new SwapRequest(slot, LivePolicies.HIGHEST_RANKED + base, Map.of(), "ranking"));
        }
    }

    private static boolean follows(SwapControl c, Slot slot) {
        Map<Slot, String> f = FOLLOWING.get(c.runId());
        return f != null && f.containsKey(slot);
    }

    /** Asks run {@code runId} to swap; false if no such run is in progress. */
    public static boolean submit(String runId, SwapRequest r) {
        SwapControl c = RUNNING.get(runId);
        return c != null && c.submit(r);
    }

    /**
     * A provider is going away (its service is unregistered: bundle stopped, updated or uninstalled).
     * Call after it left the registry. Runs whose active policy it provided swap at their next safe point.
     * Returns the ids of the runs that were on it (in id order), for the container to say so.
     */
    public static List<String> providerGone(PolicyProvider p, String bundle) {
        Slot slot = p.slot();
        String name = p.name();
        List<String> affected = new ArrayList<>();
        for (SwapControl c : running().values()) {
            String active = c.active().get(slot);
            if (active == null || !active.equals(name + "@" + p.version()) || !bundle.equals(c.bundles().get(slot))) continue;
            if (follows(c, slot)) continue; // it swaps by ranking (rankingChanged)
            if (!c.finished()) affected.add(c.runId());
            orphan(c, slot, name);
        }
        rankingChanged(slot);
        return affected;
    }

    /**
     * What the container prints when {@code bundle}'s provider of {@code slot} policy {@code policy} left while runs were
     * on it (found by a bundle-author walkthrough: an uninstall under a running study printed nothing; only sim:status
     * and swaps.csv showed the swap); null when none was.
     */
    public static String goneNotice(Slot slot, String policy, String bundle, List<String> runs) {
        if (runs.isEmpty()) return null;
        String name = policy.contains("@") ? policy.substring(0, policy.indexOf('@')) : policy;
        return "hmsim: " + bundle + " left: " + (runs.size() == 1 ? "run " : "runs ") + String.join(", ", runs) + " on its " + slot.id()
                + " policy " + policy + " swap" + (runs.size() == 1 ? "s" : "") + " at the next epoch end to the newest remaining version of "
                + name + ", else to the slot's default " + org.hmsim.platform.kernel.registry.Defaults.name(slot)
                + " (sim:status and each run's swaps.csv show the outcome)";
    }

    /** Run {@code c} lost the provider of its {@code slot}'s policy {@code name}: swap at its next safe point. */
    static void orphan(SwapControl c, Slot slot, String name) {
        // a run that ended as its provider left: its id is the next study's run's, which must not inherit this (ended()
        // runs after finish(), so a run that finished between the two checks is cleaned here or there)
        String key = c.runId() + "/" + slot.id();
        if (c.finished()) return;
        ORPHANED.put(key, name);
        DEPARTED.add(key);
        if (c.finished()) {
            ORPHANED.remove(key, name);
            DEPARTED.remove(key);
            return;
        }
        c.submit(new SwapRequest(slot, LivePolicies.SAME_OR_DEFAULT + name, Map.of(), "bundle"));
    }

    /** A provider arrived: runs that lost this policy with its bundle take the new version. */
    public static void providerAdded(PolicyProvider p) {
        List<String> keys = new ArrayList<>(ORPHANED.keySet());
        for (String k : keys) {
            String runId = k.substring(0, k.indexOf('/'));
            if (!k.endsWith("/" + p.slot().id()) || !p.name().equals(ORPHANED.get(k))) continue;
            SwapControl c = RUNNING.get(runId);
            ORPHANED.remove(k);
            if (c != null) c.submit(new SwapRequest(p.slot(), LivePolicies.SAME_OR_DEFAULT + p.name(), Map.of(), "bundle"));
        }
        rankingChanged(p.slot());
    }
}
