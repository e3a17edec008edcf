package org.hmsim.platform.gpu;

import java.util.Objects;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.WarpSchedulerPolicy;

/** The policy slots a GPU consults, as one holder so the constructor stays short. */
public record GpuPolicies(WarpSchedulerPolicy warpScheduler, ReplacementPolicy replacement,
                          CacheabilityPolicy cacheability, L2MissPathPolicy l2MissPath,
                          CtaSchedulerPolicy ctaScheduler, CoherencePolicy coherence) {
    public GpuPolicies {
        Objects.requireNonNull(warpScheduler, "warp-scheduler policy");
        Objects.requireNonNull(replacement, "replacement policy");
        Objects.requireNonNull(cacheability, "cacheability policy");
        Objects.requireNonNull(l2MissPath, "l2-miss-path policy");
        Objects.requireNonNull(ctaScheduler, "cta-scheduler policy");
        Objects.requireNonNull(coherence, "coherence policy");
    }
}
