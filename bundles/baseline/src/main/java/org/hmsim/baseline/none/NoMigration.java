package org.hmsim.baseline.none;

import java.util.List;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code none} migration policy: pages stay in the pool placement chose. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=migration", PolicyProvider.NAME + "=none", PolicyProvider.VERSION + "=1.0.0"})
public final class NoMigration implements PolicyProvider {
    @Override public Slot slot() { return Slot.MIGRATION; }

    @Override public String name() { return "none"; }

    @Override public String description() {
        return "No migration: pages stay where placement put them (the baseline).";
    }

    @Override public List<ParamSpec> parameters() { return List.of(); }

    @Override public Policy create(PolicyContext context, Params params) {
        // Every hook of the interface defaults to doing nothing: the instance only has to exist.
        return new MigrationPolicy() {};
    }
}
