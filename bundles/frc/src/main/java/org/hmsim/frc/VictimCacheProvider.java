package org.hmsim.frc;

import java.util.List;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * The victim-cache comparison point of seed 003 (Ch. 6.4.3, Fig. 6.3/6.6: "FA+VC", with a fully associative
 * L2 set by the machine's {@code gpu.l2.ways: 0}): the conventional miss path, plus a fully associative
 * victim cache per L2 bank that keeps the evicted lines and serves misses to them. The mechanism is in the
 * platform's L2 (L2Slice, VictimCache).
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=l2-miss-path", PolicyProvider.NAME + "=victim-cache", PolicyProvider.VERSION + "=1.0.0"})
public final class VictimCacheProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.L2_MISS_PATH; }

    @Override public String name() { return "victim-cache"; }

    @Override public String description() {
        return "Conventional L2 miss path plus a fully associative victim cache per bank (seed 003's FA+VC comparison point): evicted "
                + "lines go to the VC (a dirty one's write-back leaves as it enters, not waited for), an L2 miss that finds its line there "
                + "takes it back after 1 cycle instead of fetching it; the eviction, fetch serialisation and MSHRs stay conventional.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.integer("lines", 0, 0, 1 << 24,
                "victim-cache lines per L2 bank; 0 = unbounded (the thesis's 'potential' study; Fig. 6.6 uses 32 KB = 512 lines of 64 B)"));
    }

    @Override public Policy create(PolicyContext context, Params params) {
        int n = params.getInt("lines");
        int lines = n == 0 ? Integer.MAX_VALUE : n;
        return new L2MissPathPolicy() {
            @Override public int victimCacheLines() { return lines; }
        };
    }
}
