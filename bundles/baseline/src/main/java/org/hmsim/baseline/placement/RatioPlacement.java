package org.hmsim.baseline.placement;

import java.util.List;
import java.util.random.RandomGenerator;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.PlacementPolicy;

/**
 * The static xC-yB ratio (seed 000 §2.1) drawn per page as BW-AWARE does (§2.2): draw r uniform in
 * [0, 99]; r >= 100 - y puts the page in the fastest pool (by peak bandwidth), otherwise in another
 * pool. No draw is made when y is 0 or 100 ("LOCAL skips the comparison"). With more than two pools
 * the slow share is split over the other pools in proportion to their bandwidth by a second draw.
 * A full pool is the OS's business: it spills the page (§2.2).
 */
final class RatioPlacement implements PlacementPolicy {
    private final MachineView machine;
    private final int fastPercent;
    private final RandomGenerator random;
    private int fast = -1;
    private int[] others;
    private double[] cumulative;

    RatioPlacement(MachineView machine, int fastPercent, RandomGenerator random) {
        this.machine = machine;
        this.fastPercent = fastPercent;
        this.random = random;
    }

    @Override
    public int choosePool(long vpn, Allocation allocation, int gpu) {
        if (fast < 0) resolve(machine.pools());
        if (others.length == 0 || fastPercent == 100) return fast;
        if (fastPercent != 0 && random.nextInt(100) >= 100 - fastPercent) return fast;
        if (others.length == 1) return others[0];
        double u = random.nextDouble() * cumulative[cumulative.length - 1];
        for (int i = 0; i < others.length; i++) if (u < cumulative[i]) return others[i];
        return others[others.length - 1];
    }

    private void resolve(List<PoolInfo> pools) {
        fast = Pools.fastest(pools);
        others = pools.stream().mapToInt(PoolInfo::index).filter(i -> i != fast).toArray();
        cumulative = new double[others.length];
        double sum = 0;
        for (int i = 0; i < others.length; i++) {
            sum += pools.get(others[i]).peakBytesPerSecond();
            cumulative[i] = sum;
        }
    }
}
