package org.hmsim.bwaware.placement;

import java.util.List;
import java.util.Locale;
import java.util.random.RandomGenerator;
import org.hmsim.api.engine.Units;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;

/**
 * The per-pool bandwidths BW-AWARE works from (seed 000 §2.2): the machine description's peak
 * bandwidths (the thesis's SBIT table), optionally overridden per pool by measured values (a STREAM
 * probe's results, §2.7: "from ACPI-like tables or a STREAM probe"), and the shares f_i = b_i / Σ b_j
 * with the draw that turns them into a pool per page.
 */
public final class Bandwidths {
    private final double[] bytesPerSecond;
    private final int[] drawOrder;    // pools by ascending bandwidth: the thesis's "r < x -> CO" comes first
    private final double[] cumulative; // cumulative share (0..1] in drawOrder, or whole percents when rounded
    private final boolean percent;

    /**
     * @param overrides {@code "gddr=190GB/s,ddr=72GB/s"} (pool names or indices; a pool at 0 gets no pages);
     *                  blank = the machine description's peaks
     * @param percentStep 0 = draw with the exact shares; k > 0 = round each share to a multiple of k %
     *                    and draw r uniform in [0, 99] as the thesis does (k = 10 turns 28C-72B into 30C-70B)
     */
    public Bandwidths(MachineView machine, String overrides, int percentStep) {
        List<PoolInfo> pools = machine.pools();
        bytesPerSecond = perPool(overrides, pools);
        drawOrder = java.util.stream.IntStream.range(0, pools.size()).boxed()
                .sorted((a, b) -> {
                    int c = Double.compare(bytesPerSecond[a], bytesPerSecond[b]);
                    return c != 0 ? c : Integer.compare(b, a);
                }).mapToInt(Integer::intValue).toArray();
        double sum = 0;
        for (double b : bytesPerSecond) sum += b;
        percent = percentStep > 0;
        cumulative = new double[drawOrder.length];
        double[] share = new double[drawOrder.length];
        for (int i = 0; i < drawOrder.length; i++) share[i] = bytesPerSecond[drawOrder[i]] / sum;
        if (percent) share = roundedPercents(share, percentStep);
        double c = 0;
        for (int i = 0; i < share.length; i++) cumulative[i] = c += share[i];
    }

    /** The overrides checked against a machine's pools (at validation): each names one, and some pool keeps a bandwidth. */
    public static void check(String overrides, List<PoolInfo> pools) { perPool(overrides, pools); }

    /**
     * Each pool's bandwidth: the machine's peak, or the override that names it; throws naming the parameter for a pool
     * the machine lacks or when every pool is left at 0.
     */
    private static double[] perPool(String overrides, List<PoolInfo> pools) {
        double[] bps = new double[pools.size()];
        for (PoolInfo p : pools) bps[p.index()] = p.peakBytesPerSecond();
        for (var e : parse(overrides).entrySet()) {
            try {
                bps[poolIndex(e.getKey(), pools)] = e.getValue();
            } catch (IllegalArgumentException unknown) {
                throw new IllegalArgumentException("parameter 'bandwidths': " + unknown.getMessage());
            }
        }
        double sum = 0;
        for (double b : bps) sum += b;
        if (sum <= 0) throw new IllegalArgumentException("parameter 'bandwidths': every pool has bandwidth 0");
        return bps;
    }

    /**
     * {@code "gddr=190GB/s,ddr=72GB/s"} as pool (name or index, as written) to bytes per second; throws naming the
     * parameter for a part that is not {@code pool=bandwidth}. Which pools exist only the machine can tell.
     */
    public static java.util.Map<String, Double> parse(String spec) {
        java.util.Map<String, Double> out = new java.util.LinkedHashMap<>();
        if (spec == null) return out;
        for (String part : spec.split(",")) {
            String kv = part.trim();
            if (kv.isEmpty()) continue;
            int eq = kv.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("parameter 'bandwidths': '" + kv + "' is not pool=bandwidth");
            try {
                out.put(kv.substring(0, eq).trim(), Units.bytesPerSecond(kv.substring(eq + 1).trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("parameter 'bandwidths': '" + kv + "': " + e.getMessage());
            }
        }
        return out;
    }

    /** A pool by name (case-insensitive) or index. */
    public static int poolIndex(String key, List<PoolInfo> pools) {
        for (PoolInfo p : pools) if (p.name().toLowerCase(Locale.ROOT).equals(key.toLowerCase(Locale.ROOT))) return p.index();
        try {
            int i = Integer.parseInt(key);
            if (i >= 0 && i < pools.size()) return i;
        } catch (NumberFormatException ignored) {
            // not an index either
        }
        throw new IllegalArgumentException("no pool '" + key + "' (pools: " + String.join(", ", pools.stream().map(PoolInfo::name).toList()) + ")");
    }

    /** Shares rounded to multiples of {@code step} % that still sum to 100 (largest remainders first). */
    private static double[] roundedPercents(double[] share, int step) {
        int units = Math.max(1, 100 / step);
        int[] n = new int[share.length];
        double[] rest = new double[share.length];
        int used = 0;
        for (int i = 0; i < share.length; i++) {
            double exact = share[i] * units;
            n[i] = (int) Math.floor(exact);
            rest[i] = exact - n[i];
            used += n[i];
        }
        while (used < units) {
            int best = 0;
            for (int i = 1; i < rest.length; i++) if (rest[i] > rest[best] || (rest[i] == rest[best] && i > best)) best = i;
            n[best]++;
            rest[best] = -1;
            used++;
        }
        double[] out = new double[share.length];
        for (int i = 0; i < out.length; i++) out[i] = n[i] * (double) step / 100.0;
        if (units * step != 100) for (int i = 0; i < out.length; i++) out[i] *= 100.0 / (units * step);
        return out;
    }

    /** A pool drawn with the shares (§2.2); no draw at all when one pool has every page ("LOCAL skips the comparison"). */
    public int draw(RandomGenerator random) {
        int last = drawOrder.length - 1;
        for (int i = 0; i <= last; i++) if (shareAt(i) >= 1.0 - 1e-12) return drawOrder[i];
        double r = percent ? random.nextInt(100) / 100.0 : random.nextDouble();
        for (int i = 0; i < last; i++) if (r < cumulative[i]) return drawOrder[i];
        return drawOrder[last];
    }

    private double shareAt(int i) { return cumulative[i] - (i == 0 ? 0 : cumulative[i - 1]); }

    /** The share of pages (and of traffic, at the optimum) pool {@code pool} gets. */
    public double share(int pool) {
        for (int i = 0; i < drawOrder.length; i++) if (drawOrder[i] == pool) return shareAt(i);
        return 0;
    }

    public double bytesPerSecond(int pool) { return bytesPerSecond[pool]; }

    /** The pool with the highest bandwidth (the thesis's BO pool). */
    public int fastest() { return drawOrder[drawOrder.length - 1]; }

    /** Pools by descending bandwidth. */
    public int[] byDescendingBandwidth() {
        int[] out = new int[drawOrder.length];
        for (int i = 0; i < out.length; i++) out[i] = drawOrder[drawOrder.length - 1 - i];
        return out;
    }

    /**
     * The capacity-optimised pool (the thesis's CO): the first pool attached to the CPU node, or the
     * slowest pool if the CPU has none.
     */
    public static int capacityPool(MachineView m) {
        for (PoolInfo p : m.pools()) if (p.node() == m.gpuCount()) return p.index();
        int slow = 0;
        for (PoolInfo p : m.pools()) if (p.peakBytesPerSecond() < m.pools().get(slow).peakBytesPerSecond()) slow = p.index();
        return slow;
    }
}
