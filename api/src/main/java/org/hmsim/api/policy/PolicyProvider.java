package org.hmsim.api.policy;

import java.util.List;

/**
 * A factory for one policy of one slot, registered as an OSGi service by the bundle that offers it.
 * The service must carry the properties {@link #SLOT}, {@link #NAME} and {@link #VERSION} with the
 * same values as the methods. The kernel calls {@link #create} once per simulation, so parallel
 * simulations never share policy state.
 */
public interface PolicyProvider {
    String SLOT = "hmsim.slot";
    String NAME = "hmsim.policy";
    String VERSION = "hmsim.policy.version";

    Slot slot();

    /** The name study files use: {@code placement: bw-aware}. */
    String name();

    /** Version of this policy's behaviour (semantic), recorded with every result. */
    default String version() { return "1.0.0"; }

    /** One sentence for {@code hmsim policies}, citing the paper section where the rule comes from. */
    String description();

    List<ParamSpec> parameters();

    /** A new instance for one simulation; must be of {@code slot().policyType()}. */
    Policy create(PolicyContext context, Params params);

    /**
     * Checks what the parameters' types and ranges cannot express: the syntax of a structured string (a list of
     * {@code pool=bandwidth}), a power of two. Throws {@link IllegalArgumentException} whose message names the
     * parameter ({@code parameter 'bandwidths': ...}). Called when a study or a swap is validated, before anything
     * runs, so a mistake is reported at its place in the study file instead of failing every run. What depends on
     * the machine (a pool's name) can only be checked by {@link #create}. Since api.policy 1.7.0.
     */
    default void check(Params params) {}

    /**
     * As {@link #check(Params)}, for what names a part of the machine: a parameter naming a pool must name one of
     * {@code pools} (those of the machine a run has, by index). Called at validation for each machine of a study, and
     * before a live swap is submitted, so a misspelt pool is refused instead of failing the run. Since api.policy 1.7.0.
     */
    default void check(Params params, java.util.List<org.hmsim.api.machine.PoolInfo> pools) {}

    /**
     * As {@link #check(Params, List)}, with all a run's facts: its machine's pools, page size and GPU count, and its
     * workload's allocation names (a parameter naming an allocation, a granularity that must fit in a page). Called at
     * validation for each machine and workload of a study, and before a live swap is submitted. The default checks the
     * pools only. Since api.policy 1.8.0.
     */
    default void check(Params params, RunFacts run) { check(params, run.pools()); }

    /**
     * A remark on this choice for one run that is not an error: the policy runs, but on this machine as something its
     * name does not say (CODA's affinity on one GPU places blocks as round-robin does), so the run repeats another under
     * a different label. {@code hmsim validate} and {@code hmsim run} print each distinct note with the runs it concerns:
     * a crossed study that gives such runs is not refused for them, but says which they are. null (the default): nothing
     * to remark. Since api.policy 1.19.0.
     */
    default String note(Params params, RunFacts run) { return null; }

    /**
     * Parameters this policy shares with its bundle's policies of other slots, which must hold the same value where both
     * are chosen (CODA's placement and block scheduler both take {@code blocks_per_gpu}): a run whose two choices differ,
     * one given and the other defaulted or both given apart, is noted at validation. Empty (the default): none. Since
     * api.policy 1.24.0.
     */
    default java.util.Set<String> sharedParameters() { return java.util.Set.of(); }

    /**
     * The value a shared parameter stands for on {@code run}'s machine, where a value means another (CODA's
     * {@code blocks_per_gpu: 0} is SMs per GPU x the SM's CTA limit): what {@link #sharedParameters} compares, so that
     * 0 and 32 on a machine where 0 means 32 are not told apart. The default: the value itself. Since api.policy 1.24.0.
     */
    default Object sharedValue(String parameter, Params params, RunFacts run) { return params.asMap().get(parameter); }
}
