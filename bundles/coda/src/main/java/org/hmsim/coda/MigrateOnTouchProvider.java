package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code migrate-on-touch} migration policy: migration-based first touch. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=migration", PolicyProvider.NAME + "=migrate-on-touch", PolicyProvider.VERSION + "=1.0.0"})
public final class MigrateOnTouchProvider implements PolicyProvider {
    /** Moves pages: not on a machine with CPU caches, whose lines of the old frame nothing would drop. */
    @Override public void check(org.hmsim.api.policy.Params params, org.hmsim.api.policy.RunFacts run) {
        run.refusePageMigration("migration " + name());
        check(params, run.pools());
    }

    /**
     * A mix's programs share no data and each program's pages are homed in its own GPU's memory (or spread, under fine):
     * no GPU first-touches a page held whole in another's, so nothing moves (a trial's mix ran labelled migrate-on-touch
     * with 0 migrations and no word).
     */
    @Override public String note(Params params, org.hmsim.api.policy.RunFacts run) {
        return run.mix() ? "a multiprogrammed mix's programs share no data and each one's pages are homed in its own GPU's memory: no page is"
                + " first touched by another GPU, so nothing moves (a page moves only if its GPU's memory was full)" : null;
    }

    @Override public Slot slot() { return Slot.MIGRATION; }

    @Override public String name() { return "migrate-on-touch"; }

    @Override public String description() {
        return "Migration-based first touch (seed 004 §6.1): a page held whole in another GPU's memory moves to the memory of the "
                + "first GPU that misses on it in its TLB (copy over the link + shootdown); each page is considered once. Use with interleave 'coarse'.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(ParamSpec.bool("host_init", true, "place every page before the first launch (the host's cudaMalloc + initialisation), "
                + "so the first GPU touch moves it; false = pages map at the first GPU touch and the next GPU to miss on them moves them"));
    }

    @Override public Policy create(PolicyContext context, Params params) {
        MigrateOnTouch m = new MigrateOnTouch(context.memory(), context.machine(), params.getBoolean("host_init"));
        context.stats().counter("migrations_started", "pages moved to their first toucher's memory", m::started);
        context.stats().counter("host_mapped", "pages placed before the first launch (host_init)", m::hostMapped);
        return m;
    }
}
