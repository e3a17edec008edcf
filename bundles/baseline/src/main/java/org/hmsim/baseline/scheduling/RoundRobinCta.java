package org.hmsim.baseline.scheduling;

import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.CtaSchedulerPolicy;

/**
 * Round-robin CTA placement: each block goes to the first SM with room after the SM that took the
 * previous block, wrapping around (the GPGPU-Sim / hardware default block distributor).
 */
public final class RoundRobinCta implements CtaSchedulerPolicy {
    /**
     * Where the next search starts, per list of SMs offered: the machine's (every GPU's SMs, keyed by GPU 0) or, in a
     * multiprogrammed mix, one GPU's. A review found one shared pointer letting co-running programs shift each other's
     * block placement.
     */
    private int[] next = new int[1];

    @Override
    public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) {
        int n = sms.size();
        CoreView first = n == 0 ? null : sms.get(0);
        int list = first == null ? 0 : Math.max(0, first.gpu());
        if (list >= next.length) next = java.util.Arrays.copyOf(next, list + 1);
        for (int i = 0; i < n; i++) {
            int s = (next[list] + i) % n;
            if (canTake[s]) {
                next[list] = (s + 1) % n;
                return s;
            }
        }
        return -1;
    }
}
