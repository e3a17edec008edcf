package org.hmsim.baseline.cache;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code posted-write-back} L2 miss path. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=l2-miss-path", PolicyProvider.NAME + "=posted-write-back", PolicyProvider.VERSION + "=1.0.0"})
public final class PostedWriteBackMissPathProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.L2_MISS_PATH; }

    @Override public String name() { return "posted-write-back"; }

    @Override public String description() {
        return "GPGPU-Sim's L2 miss handling: the victim's write-back is posted and the fetch starts into its way at once, "
                + "without waiting for the write-back or for L1 invalidations (conventional: seed 003's serialised path).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) { return new PostedWriteBackMissPath(); }
}
