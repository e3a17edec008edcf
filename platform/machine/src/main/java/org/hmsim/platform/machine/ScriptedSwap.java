package org.hmsim.platform.machine;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;

/**
 * A swap written in the study file (docs/study-files.md, "swaps"): at a simulated time, before a
 * kernel launches, at the end of an epoch, or every N epochs cycling through {@code to}.
 *
 * @param value picoseconds ({@link When#TIME}), 0-based kernel index ({@link When#KERNEL}), epoch
 *              number ({@link When#EPOCH}: the end of epoch N, 1-based) or the period in epochs
 *              ({@link When#EVERY_EPOCHS})
 * @param to one target, or the cycle of targets for {@link When#EVERY_EPOCHS} (the k-th firing swaps to
 *           {@code to[k % n]}, so the first firing goes to the second entry when the run starts with the first)
 */
public record ScriptedSwap(When when, long value, Slot slot, List<Choice> to, String cause) {
    public enum When { TIME, KERNEL, EPOCH, EVERY_EPOCHS }

    /** A policy ({@code name} or {@code name@version}) and its parameters. */
    public record Choice(String policy, Map<String, Object> params) {
        public Choice {
            params = Map.copyOf(params);
        }
    }

    public ScriptedSwap {
        to = List.copyOf(to);
        if (to.isEmpty()) throw new IllegalArgumentException("a scripted swap needs a target");
        if (value < 0 || (when == When.EVERY_EPOCHS && value == 0)) throw new IllegalArgumentException("bad swap point " + value);
    }

    public ScriptedSwap(When when, long value, Slot slot, Choice to) { this(when, value, slot, List.of(to), "script"); }

    SwapRequest request(long firing) {
        Choice c = to.get((int) (firing % to.size()));
        return new SwapRequest(slot, c.policy(), c.params(), cause);
    }
}
