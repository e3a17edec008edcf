package org.hmsim.platform.machine;

import java.util.List;
import java.util.stream.Stream;
import org.hmsim.api.policy.Slot;

/**
 * One performed (or refused) swap, as runs/&lt;run&gt;/swaps.csv records it.
 *
 * @param simTimePs when the safe point was reached and issue stopped
 * @param wallTime ISO-8601 wall-clock time of that moment
 * @param drainSimPs simulated time from stopping issue to resuming (the drain)
 * @param drainWallNs wall time the swap took on the simulation thread, drain included
 * @param outcome {@code ok}, or why the swap was refused (the old policy then stays)
 */
public record SwapRecord(long simTimePs, String wallTime, Slot slot, String from, String fromBundle, String to,
                         String toBundle, String params, String cause, long drainSimPs, long drainWallNs,
                         String state, String outcome) {

    public static final String HEADER = "sim_time_ns,wall_time,slot,from,to,from_bundle,to_bundle,params,cause,drain_sim_ns,drain_wall_us,state,outcome";

    /** The policy swapped to with its parameters, {@code srrip@1.0.0(rrpv_bits=4)}: a swap to the same name may change only those. */
    public String toWithParams() { return withParams(to, params); }

    /** {@code policy(params)}, or the policy alone without parameters: how swaps and errors name a policy. */
    public static String withParams(String policy, String params) { return policy + (params == null || params.isEmpty() ? "" : "(" + params + ")"); }

    /** The cells of the CSV row matching {@link #HEADER} (absent values empty). */
    public List<String> cells() {
        return Stream.of(num(simTimePs / 1000.0), wallTime, slot.id(), from, to, fromBundle, toBundle, params,
                cause, num(drainSimPs / 1000.0), num(drainWallNs / 1000.0), state, outcome).map(c -> c == null ? "" : c).toList();
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }
}
