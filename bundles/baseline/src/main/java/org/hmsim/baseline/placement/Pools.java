package org.hmsim.baseline.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;

/** Pool look-ups the placement policies share: the CPU's pool, the fastest pool, a named subset. */
final class Pools {
    private Pools() {}

    /** The first pool attached to the CPU node (node = number of GPUs); pool 0 if the CPU has none. */
    static int cpuPool(MachineView m) {
        int cpuNode = m.gpuCount();
        for (PoolInfo p : m.pools()) if (p.node() == cpuNode) return p.index();
        return 0;
    }

    /** Index of the pool with the highest peak bandwidth (ties: the lower index). */
    static int fastest(List<PoolInfo> pools) {
        int best = pools.get(0).index();
        double bw = pools.get(0).peakBytesPerSecond();
        for (PoolInfo p : pools) {
            if (p.peakBytesPerSecond() > bw) {
                bw = p.peakBytesPerSecond();
                best = p.index();
            }
        }
        return best;
    }

    /**
     * The pools named in {@code spec} (comma-separated pool names or indices, in the order given), or
     * every pool in index order if {@code spec} is blank.
     */
    static int[] select(String spec, List<PoolInfo> pools) {
        if (spec == null || spec.isBlank()) return pools.stream().mapToInt(PoolInfo::index).toArray();
        List<Integer> out = new ArrayList<>();
        for (String part : spec.split(",")) {
            String k = part.trim();
            if (k.isEmpty()) continue;
            out.add(resolve(k, pools));
        }
        if (out.isEmpty()) throw new IllegalArgumentException("parameter 'pools' = '" + spec + "' names no pool");
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int resolve(String k, List<PoolInfo> pools) {
        for (PoolInfo p : pools) if (p.name().toLowerCase(Locale.ROOT).equals(k.toLowerCase(Locale.ROOT))) return p.index();
        try {
            int i = Integer.parseInt(k);
            if (i >= 0 && i < pools.size()) return i;
        } catch (NumberFormatException ignored) {
            // not an index either
        }
        List<String> names = pools.stream().map(PoolInfo::name).toList();
        throw new IllegalArgumentException("parameter 'pools': no pool '" + k + "' (pools: " + String.join(", ", names) + ")");
    }
}
