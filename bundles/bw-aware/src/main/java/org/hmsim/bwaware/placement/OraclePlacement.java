package org.hmsim.bwaware.placement;

import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.AccessProfile;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.ProfiledPolicy;
import org.hmsim.api.stats.Stats;

/**
 * Oracle placement (seed 000 §2.3, Ch. 4.3): pass 1 counts DRAM accesses per page (the platform's
 * profiling pass); pass 2 sorts pages hot to cold and fills the fastest pool with the hottest pages until
 * its share of the profiled traffic reaches its bandwidth target (b_B/Σb, 71.4 % for 200/80 GB/s) or
 * its capacity runs out, then the next fastest pool likewise; the rest (and pages the profile never saw
 * reach DRAM) go to the capacity pool. With two pools and ample capacity this is also the Ch. 5
 * definition: the minimum number of hottest pages that fully subscribes GPU memory bandwidth.
 *
 * <p>Without a profile (in the profiling pass itself) it places as {@code bw-aware} does.
 */
final class OraclePlacement implements PlacementPolicy, ProfiledPolicy {
    private final MachineView machine;
    private final MemoryManager memory;
    private final String overrides;
    private final double target;
    private final double capacityFraction;
    private final double tieBand;
    private final RandomGenerator random;
    private final Stats stats;
    private Bandwidths bandwidths;
    private byte[][] poolOfPage;   // [allocation][page] -> pool index, or -1 = capacity pool
    private long[] baseVpn;
    private int capacityPool;
    private long hotPages, placedHot;
    private double plannedShare;
    private HotnessCdf cdf;

    OraclePlacement(MachineView machine, MemoryManager memory, String overrides, double target, double capacityFraction,
                    double tieBand, RandomGenerator random, Stats stats) {
        this.tieBand = tieBand;
        this.machine = machine;
        this.memory = memory;
        this.overrides = overrides;
        this.target = target;
        this.capacityFraction = capacityFraction;
        this.random = random;
        this.stats = stats;
        if (stats != null) {
            stats.counter("oracle_pages", "pages the oracle assigned to a faster pool than the capacity pool", () -> hotPages);
            stats.counter("oracle_hot_faults", "first touches placed in a faster pool by the profile", () -> placedHot);
            stats.gauge("oracle_planned_fast_share", "share of the profiled DRAM accesses planned for the fastest pool", () -> plannedShare);
            for (int pct : new int[] {1, 5, 10, 20, 50}) {
                double f = pct / 100.0;
                stats.gauge("profile_hottest_" + pct + "pct_share", "share of the profiled (post-cache) DRAM accesses in the hottest "
                        + pct + " % of the footprint's pages (Fig. 4.5 CDF; -1 = no profile)", () -> cdf == null ? -1 : cdf.shareOfHottest(f));
            }
        }
    }

    private Bandwidths bandwidths() {
        if (bandwidths == null) bandwidths = new Bandwidths(machine, overrides, 0);
        return bandwidths;
    }

    @Override
    public void useProfile(AccessProfile profile) {
        List<Allocation> allocs = profile.allocations();
        cdf = new HotnessCdf(profile);
        Bandwidths bw = bandwidths();
        capacityPool = Bandwidths.capacityPool(machine);
        long pageBytes = memory.pageBytes();
        int n = 0;
        for (Allocation a : allocs) n += (int) ((a.bytes() + pageBytes - 1) / pageBytes);
        // pages hot -> cold: sort (accesses, allocation, page) packed as keys, ties by address order
        long[][] counts = new long[allocs.size()][];
        baseVpn = new long[allocs.size()];
        poolOfPage = new byte[allocs.size()][];
        Integer[] order = new Integer[n];
        int[] allocOf = new int[n], pageOf = new int[n];
        long[] acc = new long[n];
        int k = 0;
        for (int a = 0; a < allocs.size(); a++) {
            counts[a] = profile.pageAccesses(a);
            baseVpn[a] = allocs.get(a).baseVa() / pageBytes;
            poolOfPage[a] = new byte[counts[a].length];
            Arrays.fill(poolOfPage[a], (byte) -1);
            for (int i = 0; i < counts[a].length; i++, k++) {
                order[k] = k;
                allocOf[k] = a;
                pageOf[k] = i;
                acc[k] = counts[a][i];
            }
        }
        // Pages about equally hot (same bucket of width tie_band) are ordered by a seeded random key, not by
        // address: otherwise a uniform workload's cut-off puts whole arrays (or the first part of the address
        // space) in one pool, and every time phase of a streaming kernel would use one pool only.
        int[] bucket = new int[n];
        long[] key = new long[n];
        double logBand = Math.log1p(Math.max(1e-9, tieBand));
        for (int i = 0; i < n; i++) {
            bucket[i] = acc[i] <= 0 ? -1 : tieBand <= 0 ? (int) Math.min(Integer.MAX_VALUE, acc[i]) : (int) Math.floor(Math.log(acc[i]) / logBand);
            key[i] = random.nextLong();
        }
        Arrays.sort(order, (x, y) -> bucket[x] != bucket[y] ? Integer.compare(bucket[y], bucket[x])
                : acc[x] != acc[y] && tieBand <= 0 ? Long.compare(acc[y], acc[x]) : Long.compare(key[x], key[y]));
        double total = profile.totalAccesses();
        int next = 0;
        int[] pools = bw.byDescendingBandwidth();
        for (int pi = 0; pi < pools.length && total > 0; pi++) {
            int pool = pools[pi];
            if (pool == capacityPool) continue;
            double share = pi == 0 && target >= 0 ? target : bw.share(pool);
            long room = (long) Math.floor(memory.totalFrames(pool) * capacityFraction);
            double cum = 0;
            long used = 0;
            while (next < n && cum < share * total && used < room && acc[order[next]] > 0) {
                int o = order[next++];
                poolOfPage[allocOf[o]][pageOf[o]] = (byte) pool;
                cum += acc[o];
                used++;
            }
            hotPages += used;
            if (pi == 0) plannedShare = cum / total;
        }
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (poolOfPage == null) return bandwidths().draw(random);
        int a = allocation.id();
        if (a >= poolOfPage.length) return capacityPool;
        long i = vpn - baseVpn[a];
        if (i < 0 || i >= poolOfPage[a].length)
            throw new IllegalStateException("oracle: page 0x" + Long.toHexString(vpn) + " of '" + allocation.name() + "' is not in the profiled address space");
        int p = poolOfPage[a][(int) i];
        if (p >= 0) placedHot++;
        return p >= 0 ? p : capacityPool;
    }
}
