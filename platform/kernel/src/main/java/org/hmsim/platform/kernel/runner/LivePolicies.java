package org.hmsim.platform.kernel.runner;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.ResolvedPolicies;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.SwapScripts;
import org.hmsim.platform.machine.PolicySource;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.SwapControl;
import org.hmsim.platform.machine.SwapHost;
import org.hmsim.platform.machine.SwapRecord;
import org.hmsim.platform.machine.SwapTarget;

/**
 * The policies of one run as a live-swappable source: the study's choices to start with, the study's
 * scripted swaps (plus any being replayed), and resolution of swap targets against the policies
 * installed at the moment of the swap.
 */
public final class LivePolicies implements PolicySource, SwapHost {
    /** Prefix of a bundle-lifecycle target: this policy's newest installed version, else the slot's default. */
    static final String SAME_OR_DEFAULT = "@same-or-default:";
    /** Prefix of a ranking target: the slot's highest-ranked provider, else this (base) policy. */
    static final String HIGHEST_RANKED = "@highest-ranked:";

    private final ResolvedPolicies base;
    private final List<ScriptedSwap> scripts;
    /**
     * The parameters last given to each policy, by {@code slot/name}: a policy that comes back after its
     * bundle returns (update, restart) gets the parameters it had, not those of the default in between.
     */
    private final Map<String, Map<String, Object>> given = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile List<SwapRecord> records = List.of();
    /** Slots that follow the highest-ranked provider, with the policy they fall back to (the study's choice). */
    private final Map<Slot, String> follow = new java.util.EnumMap<>(Slot.class);
    /**
     * The provider of each slot's active policy (the run's own instances come from it; held for the run, as
     * the policy instance itself holds its bundle): checked after swaps, on the simulation thread.
     */
    private final Map<Slot, PolicyProvider> active = new java.util.EnumMap<>(Slot.class);

    /**
     * What a swap's target is checked against before the swap is carried out ({@code PolicyProvider.check}), as a study's
     * policies are at validation: the run's machine, and its workload's allocations where the run was given them.
     */
    private final org.hmsim.api.policy.RunFacts facts;

    public LivePolicies(Study study, PlannedRun run) { this(study, run, List.of()); }

    /** {@code replay}: swaps recorded by another execution of the run, carried out again (--replay-swaps). */
    public LivePolicies(Study study, PlannedRun run, List<ScriptedSwap> replay) { this(study, run, replay, List.of()); }

    /** {@code allocations}: the names of the run's workload's allocations, which swap targets are checked against. */
    public LivePolicies(Study study, PlannedRun run, List<ScriptedSwap> replay, List<String> allocations) {
        this.facts = run.machine().config().runFacts(allocations, run.workload().programs(), run.workload().isMix());
        this.base = run.policySource();
        List<ScriptedSwap> s = new ArrayList<>(SwapScripts.of(study.swaps()));
        s.addAll(replay);
        for (Slot slot : Slot.values()) {
            given.put(key(slot, base.choice(slot).entry().name()), base.choice(slot).given());
            active.put(slot, base.choice(slot).entry().provider());
        }
        // A replay reproduces the recorded ranking swaps; it does not follow the bundles installed now.
        // The fall-back is the version the run starts on (the study may pin one): another version of it at the same
        // rank is not better-ranked, so it takes nothing over.
        if (replay.isEmpty()) for (Slot slot : study.follow()) follow.put(slot, base.choice(slot).entry().id());
        // A better-ranked provider already installed takes over at time 0, before anything issues.
        PolicyRegistry registry = LiveSwaps.registry();
        if (registry != null)
            for (Map.Entry<Slot, String> f : follow.entrySet())
                if (registry.highestRanked(f.getKey(), f.getValue()) != base.choice(f.getKey()).entry())
                    s.add(new ScriptedSwap(ScriptedSwap.When.TIME, 0, f.getKey(), List.of(new ScriptedSwap.Choice(HIGHEST_RANKED + f.getValue(), Map.of())), "ranking"));
        this.scripts = List.copyOf(s);
    }

    @Override
    public Policy create(Slot slot, PolicyContext context) { return base.create(slot, context); }

    @Override
    public String describe(Slot slot) { return base.describe(slot); }

    @Override
    public String label(Slot slot) { return base.label(slot); }

    @Override
    public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
        PolicyRegistry registry = LiveSwaps.registry();
        if (registry == null) throw new IllegalArgumentException("no policy registry in this container");
        PolicyChoice c;
        if (policy.startsWith(SAME_OR_DEFAULT)) {
            String name = policy.substring(SAME_OR_DEFAULT.length());
            try {
                c = registry.resolve(slot, name, given.getOrDefault(key(slot, name), Map.of()));
            } catch (RuntimeException gone) {
                try {
                    c = registry.resolveDefault(slot);
                } catch (RuntimeException noDefault) {
                    throw new IllegalArgumentException("no " + slot.id() + " policy '" + name + "' nor the slot's default is installed any more: "
                            + "the run goes on with the code of the bundle that left (sim:status marks the slot), until one is installed");
                }
            }
        } else if (policy.startsWith(HIGHEST_RANKED)) {
            String name = policy.substring(HIGHEST_RANKED.length());
            org.hmsim.platform.kernel.registry.PolicyEntry top = registry.highestRanked(slot, name);
            if (top == null) throw new IllegalArgumentException("no " + slot.id() + " policy is installed");
            c = registry.choose(top, given.getOrDefault(key(slot, top.name()), Map.of()));
        } else {
            c = registry.resolve(slot, policy, params);
        }
        PolicyProvider provider = c.entry().provider();
        Params p = c.params();
        checkAgainstRun(c);
        return new SwapTarget(c.entry().id(), c.entry().bundle(), text(c.given()),
                new ProviderFactory(registry, provider, p, c.entry().id(), c.entry().bundle(), c.entry().name(), c.given()));
    }

    /**
     * The target's parameters checked against this run, as validation checks a study's (a pool the machine lacks, an
     * allocation the workload does not make, a policy a mix cannot run): a swap asked for by a bundle event, the ranking
     * or the shell (which checks without the workload) is refused here, before anything drains, rather than carried out
     * on parameters its provider says the run cannot take.
     */
    private void checkAgainstRun(PolicyChoice c) {
        try {
            c.entry().provider().check(c.params(), facts);
        } catch (RuntimeException | LinkageError e) { // a plugin's check may throw anything; a LinkageError: its bundle left
            throw new IllegalArgumentException(c.entry().id() + " does not fit this run: " + e.getMessage(), e);
        }
    }

    /**
     * A swap target's factory: it knows its provider, so that a departure is judged by instance, not by name, and the
     * parameters it was given, remembered for the policy once the swap is carried out (not when it is asked for: a swap
     * refused after its drain left the slot on parameters that a later return to the policy must bring back).
     */
    private record ProviderFactory(PolicyRegistry registry, PolicyProvider provider, Params params, String id, String bundle,
                                   String name, Map<String, Object> given)
            implements java.util.function.Function<PolicyContext, Policy> {
        @Override
        public Policy apply(PolicyContext ctx) {
            // created at the safe point where the swap was resolved, before any drain; its bundle may have left in between
            if (!installed(registry, provider)) throw gone("before the swap could create it");
            return provider.create(ctx, params);
        }

        ProviderGone gone(String when) { return new ProviderGone(id + " went away with its bundle " + bundle + " " + when); }
    }

    /** The swap created its policy before draining; the provider may have left while it drained (the swap is refused then). */
    @Override
    public void checkInstalled(SwapTarget target) {
        PolicyRegistry registry = LiveSwaps.registry();
        if (registry != null && target.factory() instanceof ProviderFactory f && !installed(registry, f.provider()))
            throw f.gone("after the swap created its policy (while it drained, in a slot that drains)");
    }

    /** The provider of a swap's target left the registry between resolution and creation. */
    static final class ProviderGone extends IllegalStateException {
        ProviderGone(String message) { super(message); }
    }

    /**
     * A provider that left the registry just before or while this target became active saw the slot still
     * on the previous policy and asked for nothing: the run would go on with a departed bundle's code. By
     * instance: an update of the same jar brings a provider of the same id and bundle name.
     */
    @Override
    public void swapped(SwapControl control, Slot slot, SwapTarget target) {
        if (target.factory() instanceof ProviderFactory f) {
            active.put(slot, f.provider());
            given.put(key(slot, f.name()), f.given());
        }
        LiveSwaps.settled(control, slot);
        orphanIfGone(control, slot);
    }

    /**
     * A swap that could not be carried out because its target left (or the old policy's classes would not
     * load) leaves the slot on its policy, whose bundle may have gone as well; nothing else would ask again.
     */
    @Override
    public void refused(SwapControl control, Slot slot, Throwable why) {
        if (why instanceof ProviderGone || why instanceof LinkageError) orphanIfGone(control, slot);
    }

    @Override
    public boolean alreadyActive(Slot slot, SwapTarget target) {
        PolicyRegistry registry = LiveSwaps.registry();
        return registry != null && target.factory() instanceof ProviderFactory f && f.provider() == active.get(slot) && installed(registry, f.provider());
    }

    private void orphanIfGone(SwapControl control, Slot slot) {
        PolicyRegistry registry = LiveSwaps.registry();
        PolicyProvider p = active.get(slot);
        if (registry != null && p != null && !installed(registry, p)) LiveSwaps.orphan(control, slot, p.name());
    }

    static boolean installed(PolicyRegistry registry, PolicyProvider provider) {
        return registry.entries().stream().anyMatch(e -> e.provider() == provider);
    }

    private static String key(Slot slot, String name) { return slot.id() + "/" + name; }

    private static String text(Map<String, Object> p) {
        StringBuilder b = new StringBuilder();
        p.keySet().stream().sorted().forEach(k -> b.append(b.length() == 0 ? "" : ";").append(k).append('=').append(p.get(k)));
        return b.toString();
    }

    @Override
    public String bundle(Slot slot) { return base.choice(slot).entry().bundle(); }

    @Override
    public List<ScriptedSwap> scripted() { return scripts; }

    @Override
    public void started(SwapControl control) {
        LiveSwaps.started(control);
        if (!follow.isEmpty()) LiveSwaps.following(control, follow);
    }

    /**
     * A provider that went away between the run's start check ({@link PoliciesAtStart}) and this moment (the run was
     * being set up: its workload, machine and policies built, its profiling pass run) fails the run before anything is
     * simulated, as one that left before the check does; {@link RunWorker} then starts it again once (an updated jar of
     * the same version is taken then). Registered first ({@link #started}), checked last, so a departure at any moment
     * is seen by one of the two: after this check it finds the run in flight, which swaps at its next safe point.
     */
    @Override
    public void starting(SwapControl control) {
        PolicyRegistry registry = LiveSwaps.registry();
        if (registry == null) return;
        for (Slot slot : Slot.values()) {
            PolicyChoice c = base.choice(slot);
            if (installed(registry, c.entry().provider())) continue;
            if (LiveSwaps.aborting()) throw PoliciesAtStart.containerStopping();
            throw new PoliciesAtStart.LeftDuringSetUp(c);
        }
    }

    @Override
    public void ended(SwapControl control) {
        records = control.records();
        LiveSwaps.ended(control);
    }

    /** The swaps of the finished run. */
    public List<SwapRecord> records() { return records; }
}
