package org.hmsim.bwaware.migration;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code range-expansion} migration: {@link PageMigrator} with threshold 1, range 64, balancing false by default. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=migration", PolicyProvider.NAME + "=range-expansion", PolicyProvider.VERSION + "=1.0.0"})
public final class RangeExpansionProvider implements PolicyProvider {
    /** Moves pages: not on a machine with CPU caches, whose lines of the old frame nothing would drop. */
    @Override public void check(org.hmsim.api.policy.Params params) { MigrationSettings.refuseUnusedBalancing(params); }

    @Override public void check(org.hmsim.api.policy.Params params, org.hmsim.api.policy.RunFacts run) {
        run.refusePageMigration("migration " + name());
        MigrationSettings.refuseSeveralGpus(run, "migration " + name());
        // seed 000's migrations serve one program: pages of every allocation towards the one fastest pool, kernel 0 as its start
        run.refuseMix("migration " + name(), "moves pages towards the machine's one fastest pool for one program (kernel 0 is its start)");
        check(params, run.pools());
    }

    @Override public Slot slot() { return Slot.MIGRATION; }

    @Override public String name() { return "range-expansion"; }

    @Override public String description() {
        return "Threshold migration with range expansion (seed 000 §2.6): each candidate also enqueues its neighbouring pages of the same allocation, furthest first; untranslated pages need no shootdown.";
    }

    @Override public List<ParamSpec> parameters() { return MigrationSettings.specs(1, 64, false); }

    @Override public Policy create(PolicyContext context, Params params) {
        return new PageMigrator(context, MigrationSettings.of(params));
    }
}
