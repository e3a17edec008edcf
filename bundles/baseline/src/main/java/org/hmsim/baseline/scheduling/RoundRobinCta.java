package org.hmsim.baseline.scheduling;

import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.policy.CtaSchedulerPolicy;

/**
 * Round-robin CTA placement: each block goes to the first SM with room after the SM that took the
 * previous block, wrapping around (the GPGPU-Sim / hardware default block distributor).
 */
public final class RoundRobinCta implements CtaSchedulerPolicy {
    private int next;

    @Override
    public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) {
        int n = sms.size();
        for (int i = 0; i < n; i++) {
            int s = (next + i) % n;
            if (canTake[s]) {
                next = (s + 1) % n;
                return s;
            }
        }
        return -1;
    }
}
