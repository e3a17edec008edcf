package org.hmsim.platform.machine;

import java.util.List;
import org.hmsim.api.policy.Slot;

/**
 * What a {@link PolicySource} offers when its runs may be swapped live (the kernel's source does; a
 * plain source gives runs that only scripted swaps passed to {@link Simulation#run(RunSpec, List)} can change).
 * Called on the simulation's thread.
 */
public interface SwapHost {
    /**
     * Resolves {@code policy} ({@code name} or {@code name@version}) for {@code slot} with {@code params},
     * as installed now; throws {@link IllegalArgumentException} (or a subclass) if it cannot.
     */
    SwapTarget resolve(Slot slot, String policy, java.util.Map<String, Object> params);

    /** The bundle of the policy the run starts with in {@code slot}. */
    String bundle(Slot slot);

    /** The study's scripted swaps for this run (and swaps to replay). */
    default List<ScriptedSwap> scripted() { return List.of(); }

    /** The run started: {@code control} takes swaps from other threads until {@link #ended}. */
    default void started(SwapControl control) {}

    /**
     * The run is about to simulate its first event: its machine and policies are built (and its profiling pass run),
     * nothing is simulated yet. A host that learns of departures checks here that the providers the run's policies came
     * from are still installed, and throws if one left while the run was set up: the run then fails (or is done again)
     * before anything is simulated, instead of starting on a departed bundle's code. After {@link #started}, so that a
     * departure after this check finds the run registered and is handled as one in flight.
     */
    default void starting(SwapControl control) {}

    /**
     * Throws if the provider of {@code target} left since the swap resolved it (the swap drained meanwhile): the swap is
     * refused, as the departed bundle's classes may no longer load. Called after the drain, before the hand-over.
     */
    default void checkInstalled(SwapTarget target) {}

    /**
     * {@code target} is now active in {@code slot}. Its provider may have gone away while the swap drained
     * (between {@link #resolve} and now); a host that learns of such departures checks here, so that the
     * run does not go on with the code of a bundle that is gone.
     */
    default void swapped(SwapControl control, Slot slot, SwapTarget target) {}

    /**
     * A swap of {@code slot} resolved but was refused when carried out ({@code why}: its target's bundle left
     * before it was created or while it drained, its factory, profile hand-over or importState threw). The slot keeps its policy, whose own bundle may be
     * gone by now: a host that tracks departures checks here.
     */
    default void refused(SwapControl control, Slot slot, Throwable why) {}

    /** Whether {@code target} is the very provider {@code slot}'s active policy came from (a swap to it would change nothing). */
    default boolean alreadyActive(Slot slot, SwapTarget target) { return false; }

    /** The run ended (normally or not); its records are final. */
    default void ended(SwapControl control) {}
}
