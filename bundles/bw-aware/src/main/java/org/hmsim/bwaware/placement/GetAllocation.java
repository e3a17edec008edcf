package org.hmsim.bwaware.placement;

import java.util.Arrays;
import org.hmsim.api.os.AllocationHint;

/**
 * The thesis's {@code GetAllocation(size[], hotness[]) -> hint[]} (seed 000 §2.4, Ch. 4.4): if the
 * bandwidth-optimised pool can hold its BW-AWARE share of the whole footprint, every structure gets BW;
 * otherwise the structures are ranked by hotness and those that fit in BO get BO, the rest CO.
 * The thesis leaves two points open (summary §7 item 6), settled by parameters:
 * <ul>
 *   <li>{@code rankBy}: {@code total} ranks by the profiled access count, {@code density} by accesses per byte;</li>
 *   <li>{@code fit}: {@code prefix} stops at the first structure that does not fit (the literal "how many of
 *   [1:N] fit"), {@code greedy} skips it and keeps trying colder, smaller ones, {@code spill} gives it BO as well
 *   (the pool fills and the OS spills the rest of it to CO) and stops.</li>
 * </ul>
 * Structures never accessed get CO.
 */
public final class GetAllocation {
    private GetAllocation() {}

    public static AllocationHint[] hints(long[] size, double[] hotness, long boCapacityBytes, double boShare, String rankBy, String fit) {
        int n = size.length;
        AllocationHint[] out = new AllocationHint[n];
        long footprint = 0;
        for (long s : size) footprint += s;
        if (footprint * boShare <= boCapacityBytes) {
            Arrays.fill(out, AllocationHint.BW);
            return out;
        }
        Arrays.fill(out, AllocationHint.CO);
        boolean density = "density".equals(rankBy);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> {
            double ka = density ? hotness[a] / size[a] : hotness[a], kb = density ? hotness[b] / size[b] : hotness[b];
            return ka != kb ? Double.compare(kb, ka) : Integer.compare(a, b);
        });
        long room = boCapacityBytes;
        for (int o : order) {
            if (hotness[o] <= 0) break;
            if (size[o] <= room) {
                out[o] = AllocationHint.BO;
                room -= size[o];
                continue;
            }
            if (fit.equals("greedy")) continue;
            if (fit.equals("spill") && room > 0) out[o] = AllocationHint.BO;
            break;
        }
        return out;
    }
}
