package org.hmsim.sahc;

import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.PolicyProvider;
import org.osgi.service.component.annotations.Component;

/** {@code directory}: the seed's baseline, every last-level miss through the block-grain directory. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=coherence", PolicyProvider.NAME + "=directory", PolicyProvider.VERSION + "=1.0.0"})
public final class DirectoryProvider extends FixedPathProvider {
    public DirectoryProvider() { super(CoherencePolicy.PATH_DIRECTORY); }

    @Override public String name() { return "directory"; }

    @Override public String description() {
        return "Seed 001 baseline: every CPU and GPU last-level miss goes through the block-grain inclusive CPU-GPU directory "
                + "(banks, MSHRs, lookup latency, probes, recalls: the machine's cpu.directory section). Needs a machine with a cpu: section.";
    }
}
