package org.hmsim.bwaware.migration;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code copy-first} migration: the GDDR+memcpy baseline, a bulk copy to GPU memory before the first kernel. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=migration", PolicyProvider.NAME + "=copy-first", PolicyProvider.VERSION + "=1.0.0"})
public final class CopyFirstProvider implements PolicyProvider {
    /** Moves pages: not on a machine with CPU caches, whose lines of the old frame nothing would drop. */
    @Override public void check(org.hmsim.api.policy.Params params, org.hmsim.api.policy.RunFacts run) {
        run.refusePageMigration("migration " + name());
        MigrationSettings.refuseSeveralGpus(run, "migration " + name());
        // seed 000's migrations serve one program: pages of every allocation towards the one fastest pool, kernel 0 as its start
        run.refuseMix("migration " + name(), "moves pages towards the machine's one fastest pool for one program (kernel 0 is its start)");
        check(params, run.pools());
    }

    @Override public Slot slot() { return Slot.MIGRATION; }

    @Override public String name() { return "copy-first"; }

    @Override public String description() {
        return "GDDR+memcpy baseline (seed 000 §2.1, Fig. 2.2): data starts in CPU memory and is bulk-copied to GPU memory before the "
                + "first kernel (at the pools' and link's bandwidth; the copy time counts), then the kernels run from GPU memory.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.integer("copies_in_flight", 64, 1, 65_536,
                "page copies outstanding during the bulk copy (enough to saturate the DDR pool, as a DMA engine would)"));
    }

    @Override public Policy create(PolicyContext context, Params params) {
        return new CopyFirstMigration(context, params.getInt("copies_in_flight"));
    }
}
