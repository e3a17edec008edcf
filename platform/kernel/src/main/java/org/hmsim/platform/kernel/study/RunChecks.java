package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Checks of the expanded runs that no single section can make: two runs that are the same simulation, a mix a
 * machine cannot run, a policy parameter that does not fit a run's machine or workload.
 */
final class RunChecks {
    private final StudyFile f;
    private final YamlDoc doc;
    private final List<MachineTree> machines;
    private final List<WorkloadChoice> workloadChoices;
    /** Where each of {@link #workloadChoices} is written (its entry of workloads:). */
    private final List<Node> workloadNodes;
    private final SwapSection swapSection;
    private final BuiltWorkloads built;

    RunChecks(StudyFile f, MachineSection machines, WorkloadSection workloads, SwapSection swapSection, BuiltWorkloads built) {
        this.f = f;
        this.doc = f.doc;
        this.machines = machines.machines;
        this.workloadChoices = workloads.workloadChoices;
        this.workloadNodes = workloads.workloadNodes;
        this.swapSection = swapSection;
        this.built = built;
    }

    /**
     * Two planned runs that are the same simulation (the same machine, workload, policies with their parameters and
     * seed, once every value is read): a value listed twice in another spelling ({@code [4, "4"]}, {@code [40GB/s,
     * 40000MB/s]}, {@code [ratio, {name: ratio, fast_percent: 70}]} where 70 is the default). They would double the
     * time and the report would average them as if they were seeds.
     */
    void refuseTwins(List<PlannedRun> runs) throws StudyException {
        Map<List<Object>, PlannedRun> seen = new java.util.HashMap<>();
        for (PlannedRun r : runs) {
            List<Object> key = new ArrayList<>();
            key.add(r.machine().config().name()); // two machine files alike are still two machines the report tells apart
            key.add(r.machine().config().simulated());
            if (r.workload().entry().provider() instanceof WorkloadRegistry.MixProvider mix) {
                // a mix is its programs, whatever its label says
                for (WorkloadChoice p : mix.programs()) key.add(List.of(p.entry().name(), p.entry().origin(), p.params().asMap()));
            } else {
                key.add(r.workload().entry().name());
                key.add(r.workload().entry().origin());
                key.add(r.workload().params().asMap());
            }
            for (Slot s : Slot.values()) {
                PolicyChoice c = r.policies().get(s);
                key.add(c == null ? null : List.of(c.entry().name(), c.entry().version(), c.params().asMap()));
            }
            key.add(r.seed());
            PlannedRun twin = seen.putIfAbsent(key, r);
            if (twin == null) continue;
            String same = "runs " + twin.id() + " (" + twin.label() + ") and " + r.id() + " (" + r.label() + ") are the same simulation: ";
            // the list that holds the twin: two machine files alike were blamed on sweep: (found by a docs audit)
            if (!twin.machine().label().equals(r.machine().label())) {
                int i = 0;
                while (i < machines.size() && !machines.get(i).label.equals(r.machine().label())) i++;
                Node at = f.value("machines") instanceof SequenceNode s && i < s.getValue().size() ? s.getValue().get(i) : f.value("machines");
                throw doc.error(at, "machines[" + i + "]", same + "machine files " + twin.machine().file() + " and " + r.machine().file()
                        + " describe the same machine (the same name: and values): list it once");
            }
            if (twin.workload() != r.workload()) {
                int i = 0;
                while (i < workloadChoices.size() && workloadChoices.get(i) != r.workload()) i++;
                if (i < workloadNodes.size())
                    throw doc.error(workloadNodes.get(i), "workloads[" + i + "]", same + "a workload is listed twice, spelt two ways");
            }
            String at = f.firstKey("sweep", "policies", "workloads");
            throw f.originOf(at).error(at, same + "a value is listed twice, spelt two ways");
        }
    }

    /**
     * A policy parameter that does not fit a run's machine or workload (a pool it lacks, a granularity beyond its page,
     * an allocation it does not make): checked by the provider against each machine and workload of the study
     * ({@link org.hmsim.api.policy.PolicyProvider#check(org.hmsim.api.policy.Params, org.hmsim.api.policy.RunFacts)}),
     * for the runs' policies and the scripted swaps' targets (swapped in mid-run, one failed the run there), since
     * every run of the pair would fail.
     */
    void refuseUnknownParts(List<PlannedRun> runs, List<Object> swaps) throws StudyException {
        List<SwapSection.Target> swapTargets = swapSection.swapTargets(swaps);
        java.util.Set<List<Object>> checked = new java.util.HashSet<>();
        StudyErrors refused = new StudyErrors(); // every slot's refusal at once (a trial's second slot came a validate later)
        for (PlannedRun r : runs) {
            var m = r.machine().config();
            var facts = factsOf(r);
            List<Object> pair = List.of(m.name(), m.simulated(), r.workload(), r.seed());
            for (SwapSection.Target t : swapTargets) refused.ok(() -> checkParts(t.choice(), m, facts, pair, checked, t.field(), t.choice().slot().id() + " -> "));
            for (PolicyChoice c : r.policies().values()) refused.ok(() -> checkParts(c, m, facts, pair, checked, "policies." + c.slot().id(), ""));
        }
        if (refused.errors.isEmpty()) return;
        // one refusal per place: the same choice refused on every machine is said once
        java.util.Set<String> said = new java.util.HashSet<>();
        refused.errors.removeIf(e -> !said.add(e.field() + "\n" + e.line()));
        throw StudyException.of(refused.errors);
    }

    /** {@code c} checked against a run's facts, once per machine and workload; an error at {@code field}, its text after {@code what}. */
    void checkParts(PolicyChoice c, org.hmsim.platform.machine.MachineConfig m, org.hmsim.api.policy.RunFacts facts, List<Object> pair,
                    java.util.Set<List<Object>> checked, String field, String what) throws StudyException {
        if (c.entry().provider() == null || !checked.add(List.of(pair, c.slot(), c.entry().id(), c.params().asMap()))) return;
        try {
            c.entry().provider().check(c.params(), facts);
        } catch (RuntimeException e) { // a plugin's check may throw anything: said as its message, not an internal error
            String message = what + c.label() + " on machine " + m.name() + (facts.knowsAllocations() ? " with workload " + ((WorkloadChoice) pair.get(2)).label() : "") + ": " + e.getMessage();
            throw at(field, c, e.getMessage(), message);
        }
    }

    private static final java.util.regex.Pattern SWAP_FIELD = java.util.regex.Pattern.compile("swaps\\[(\\d+)]\\.(\\w+)");

    /** An error about {@code c} at {@code field}: a swap's target at its own entry ({@code swaps[1].to}), a run's policy as {@link #atPolicy}. */
    private StudyException at(String field, PolicyChoice c, String providerMessage, String message) {
        java.util.regex.Matcher swap = SWAP_FIELD.matcher(field);
        if (swap.matches()) return f.originOf("swaps", Integer.parseInt(swap.group(1)), swap.group(2)).error(field, message);
        return atPolicy(c, providerMessage, message);
    }

    /**
     * An error about {@code c}, a run's policy, where the study gives it: at the parameter its provider's message names
     * ({@code parameter 'spread': ...}, as docs/writing-a-mechanism.md promises), else at the policy's name under
     * {@code policies:}; at the first of policies/sweep if the slot is swept there (a trial found such errors at the slot
     * before, and at another slot's line when two policies were noted on every run).
     */
    private StudyException atPolicy(PolicyChoice c, String providerMessage, String message) {
        PolicySpec spec = swapSection.policies.baseSpecs.get(c.slot());
        if (spec != null) {
            String named = CheckMessages.parameterNamed(providerMessage);
            if (named != null && spec.paramNodes().containsKey(named))
                return doc.error(spec.paramNodes().get(named), spec.paramFields().get(named), message);
            if (spec.nameNode() != null) return doc.error(spec.nameNode(), spec.field(), message);
        }
        PolicySpec swept = sweptSpec(c);
        if (swept != null && swept.nameNode() != null) return doc.error(swept.nameNode(), swept.field(), message);
        return f.originOf(f.firstKey("policies", "sweep")).error("policies." + c.slot().id(), message);
    }

    /**
     * The entry of a {@code policies: {slot: {sweep: [...]}}} list that gives choice {@code c}, or null: a trial's error
     * about a swept cacheability policy came at the line of the slot above it.
     */
    private PolicySpec sweptSpec(PolicyChoice c) {
        List<PolicySpec> named = new ArrayList<>();
        for (SweepDim d : swapSection.policies.policyDims)
            if (d instanceof SweepDim.PolicyChoice pc && pc.slot() == c.slot())
                for (PolicySpec s : pc.specs()) if (s.name().split("@")[0].equals(c.entry().name())) named.add(s);
        // the parameters as the study gave them: the validated map adds the defaults, so an entry that left one out matched
        // none and the error went to the first entry of the name, and the later entries' errors, now at one place, were
        // dropped as duplicates (a multi-GPU trial: coda's spread 8192 said at sweep[0], spread 16384's never)
        for (PolicySpec s : named)
            if (String.valueOf(s.params()).equals(String.valueOf(c.given()))) return s;
        for (PolicySpec s : named)
            if (String.valueOf(s.params()).equals(String.valueOf(c.params().asMap()))) return s;
        return named.isEmpty() ? null : named.get(0);
    }

    /**
     * What runs but acts on nothing or as something else on some runs: each machine's inert settings
     * ({@link org.hmsim.platform.machine.MachineConfig#notes()}) and each policy's or scripted swap target's remark on a
     * run's facts ({@link org.hmsim.api.policy.PolicyProvider#note}), each once, with the runs it concerns. A policy choice
     * noted on every run that has it acts on nothing in this study, which a note would only hide: refused, at its place.
     * A note that throws is none (the check, made before, is what refuses).
     */
    List<String> notes(List<PlannedRun> runs, List<Object> swaps) throws StudyException {
        List<SwapSection.Target> swapTargets = swapSection.swapTargets(swaps);
        Notes notes = new Notes();
        for (PlannedRun r : runs) {
            var m = r.machine().config();
            for (String n : m.notes()) notes.at("machine " + m.name() + ": " + n, r);
            var facts = factsOf(r);
            for (PolicyChoice c : r.policies().values()) notes.ask(c, "policies." + c.slot().id(), "", facts, r, platformNote(c, m));
            for (SwapSection.Target t : swapTargets) notes.ask(t.choice(), t.field(), t.choice().slot().id() + " -> ", facts, r, platformNote(t.choice(), m));
            for (String n : sharedParameterMismatches(r, facts)) notes.at(n, r);
        }
        List<StudyException> refused = new ArrayList<>(); // every choice noted on all its runs, each at its place
        for (var e : notes.noted.entrySet()) {
            if (e.getValue().runs != e.getValue().noted) continue;
            String field = (String) e.getKey().get(0), message = e.getValue().text + ", on every run of the study that has it: it would only label runs that repeat others";
            refused.add(at(field, e.getValue().choice, "", message));
        }
        if (!refused.isEmpty()) throw StudyException.of(refused);
        List<String> out = new ArrayList<>();
        notes.runs.forEach((text, ids) -> out.add(text + " (" + runList(ids) + ")"));
        return out;
    }

    /**
     * What the platform notes of choice {@code c} on machine {@code m} (null: nothing): a replacement policy no cache asks,
     * a DRAM scheduler no pool runs.
     */
    private static String platformNote(PolicyChoice c, org.hmsim.platform.machine.MachineConfig m) {
        if (c.entry().name().equals(org.hmsim.platform.kernel.registry.Defaults.name(c.slot()))) return null;
        return switch (c.slot()) {
            case REPLACEMENT -> replacementActsOnNoCache(m);
            case DRAM_SCHEDULER -> dramSchedulerActsOnNoPool(m);
            default -> null;
        };
    }

    /** Why the dram-scheduler slot's policy schedules no channel on machine {@code m}, or null: every pool fixes its own. */
    private static String dramSchedulerActsOnNoPool(org.hmsim.platform.machine.MachineConfig m) {
        if (m.pools().stream().anyMatch(p -> p.scheduler() == null)) return null;
        return "acts on no pool: the machine file fixes every pool's scheduler (pools.<p>.scheduler; leave it out for the slot to decide)";
    }

    /**
     * Why the replacement slot's policy chooses no victim on machine {@code m}, or null: its L1s are pinned to LRU
     * ({@code gpu.l1.replacement: lru}) and so is its L2 (pinned, or fully associative); a trial's study labelled its runs
     * with a policy that was never asked.
     */
    private static String replacementActsOnNoCache(org.hmsim.platform.machine.MachineConfig m) {
        var gpu = m.gpu();
        boolean fullyAssociative = gpu.l2().sets() == 1 && gpu.l2().ways() > 64; // gpu.l2.ways: 0 keeps LRU
        if (!gpu.l1().fixedLru() || !(gpu.l2().fixedLru() || fullyAssociative)) return null;
        return "acts on no cache: the L1s keep LRU (gpu.l1.replacement: lru) and the L2 does too ("
                + (fullyAssociative ? "fully associative, gpu.l2.ways: 0" : "gpu.l2.replacement: lru") + ")";
    }

    /**
     * Two slots' policies of one bundle with a parameter of the same name that either declares shared
     * ({@link org.hmsim.api.policy.PolicyProvider#sharedParameters}), given on at least one and holding different values:
     * such a pair works from it together (CODA's placement and block scheduler both take blocks_per_gpu), and a trial that
     * gave it to one of them ran CODA at 0.41x of FGP without a word. A note, not a refusal: a sensitivity study may mean it.
     */
    private static List<String> sharedParameterMismatches(PlannedRun r, org.hmsim.api.policy.RunFacts facts) {
        List<String> out = new ArrayList<>();
        List<PolicyChoice> cs = new ArrayList<>(r.policies().values());
        for (int i = 0; i < cs.size(); i++)
            for (int j = i + 1; j < cs.size(); j++) {
                PolicyChoice a = cs.get(i), b = cs.get(j);
                if (a.entry().bundle() == null || b.entry().bundle() == null) continue;
                String bundle = a.entry().bundleName();
                if (bundle.isEmpty() || !bundle.equals(b.entry().bundleName())) continue;
                for (String p : a.params().asMap().keySet()) {
                    String n = mismatch(a, b, p, facts);
                    if (n != null) out.add(n);
                }
            }
        return out;
    }

    /** The note for parameter {@code p} of two choices of one bundle, or null: not shared, given on neither, or agreeing. */
    private static String mismatch(PolicyChoice a, PolicyChoice b, String p, org.hmsim.api.policy.RunFacts facts) {
        if (!b.params().asMap().containsKey(p) || !(a.given().containsKey(p) || b.given().containsKey(p))) return null;
        if (!(shared(a, p) || shared(b, p))) return null;
        Object va = sharedValue(a, p, facts), vb = sharedValue(b, p, facts);
        if (String.valueOf(va).equals(String.valueOf(vb))) return null; // 0 that means 32 against 32 (a trial's false note)
        return "policies." + a.slot().id() + "." + p + " and policies." + b.slot().id() + "." + p + ": " + a.label() + " has " + va
                + (a.given().containsKey(p) ? "" : " (its default)") + " and " + b.label() + " has " + vb + (b.given().containsKey(p) ? "" : " (its default)")
                + ": policies of one bundle that share a parameter work from it together; set it on both unless the difference is the study";
    }

    private static Object sharedValue(PolicyChoice c, String parameter, org.hmsim.api.policy.RunFacts facts) {
        try {
            return c.entry().provider() == null ? c.params().asMap().get(parameter) : c.entry().provider().sharedValue(parameter, c.params(), facts);
        } catch (RuntimeException | LinkageError e) {
            return c.params().asMap().get(parameter);
        }
    }

    private static boolean shared(PolicyChoice c, String parameter) {
        try {
            return c.entry().provider() != null && c.entry().provider().sharedParameters().contains(parameter);
        } catch (RuntimeException | LinkageError e) { // a plugin's own method that throws shares nothing
            return false;
        }
    }

    /** The machine's and workload's facts a run's policies are checked and noted against. */
    private org.hmsim.api.policy.RunFacts factsOf(PlannedRun r) {
        List<org.hmsim.api.workload.AllocationSpec> specs = built.allocationsOf(r);
        List<String> names = specs == null ? List.of() : specs.stream().map(org.hmsim.api.workload.AllocationSpec::name).toList();
        return r.machine().config().runFacts(names, r.workload().programs(), r.workload().isMix());
    }

    /** Each note's runs, in order, and for each policy choice how many runs have it and how many of those are noted. */
    private static final class Notes {
        final Map<String, List<String>> runs = new java.util.LinkedHashMap<>();
        final Map<List<Object>, Choice> noted = new java.util.LinkedHashMap<>();

        static final class Choice {
            int runs, noted;
            String text;
            PolicyChoice choice;
        }

        void at(String text, PlannedRun r) { runs.computeIfAbsent(text, k -> new ArrayList<>()).add(r.id()); }

        /** Asks {@code c}'s provider for a note on run {@code r}, else takes the platform's ({@code platform}); one that throws has none. */
        void ask(PolicyChoice c, String field, String what, org.hmsim.api.policy.RunFacts facts, PlannedRun r, String platform) {
            if (c.entry().provider() == null && platform == null) return;
            String n = null;
            try {
                if (c.entry().provider() != null) n = c.entry().provider().note(c.params(), facts);
            } catch (RuntimeException | LinkageError e) {
                n = null;
            }
            if (n == null) n = platform;
            Choice count = noted.computeIfAbsent(List.of(field, c.slot(), c.entry().id(), c.params().asMap()), k -> new Choice());
            count.choice = c;
            count.runs++;
            if (n == null) return;
            count.noted++;
            count.text = what + c.label() + " on machine " + r.machine().config().name() + ": " + n;
            at(field + ": " + count.text, r);
        }
    }

    private static String runList(List<String> ids) {
        if (ids.size() == 1) return "run " + ids.get(0);
        String shown = String.join(", ", ids.subList(0, Math.min(ids.size(), 6)));
        return ids.size() + " runs: " + shown + (ids.size() > 6 ? ", ..." : "");
    }

    /** A mix needs a GPU per program and a machine without demand paging or a CPU side (WorkloadRunner runs it so). */
    void refuseMixesMachinesCannotRun(List<PlannedRun> runs) throws StudyException {
        for (PlannedRun r : runs) {
            if (!(r.workload().entry().provider() instanceof WorkloadRegistry.MixProvider mix)) continue;
            org.hmsim.platform.machine.MachineConfig m = r.machine().config();
            String why = mix.programs().size() > m.gpus() ? "machine " + m.name() + " has " + m.gpus() + " GPU" + (m.gpus() == 1 ? "" : "s")
                    : m.uvm() != null ? "machine " + m.name() + " demand-pages its memory (uvm:), which one program at a time is modelled with"
                    : m.cpu() != null ? "machine " + m.name() + " has a cpu: section, whose host program is one program's" : null;
            if (why == null) continue;
            int at = workloadChoices.indexOf(r.workload());
            throw doc.error(workloadNodes.get(at), "workloads[" + at + "]", r.workload().label() + " runs each of its " + mix.programs().size()
                    + " programs on a GPU of its own, and " + why + (r.sweepValues().isEmpty() ? "" : " (at the sweep point " + r.sweepValues() + ")"));
        }
    }
}
