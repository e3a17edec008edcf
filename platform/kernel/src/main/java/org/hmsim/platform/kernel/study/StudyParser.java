package org.hmsim.platform.kernel.study;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.machine.ConfigException;
import org.hmsim.platform.machine.MachineConfig;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a study file (docs/study-files.md) and validates all of it before anything runs (DESIGN §8, §9):
 * machines of every sweep point, overrides, workloads and policies with their parameters. The first
 * problem found is a {@link StudyException} naming file, line, column and field.
 *
 * <p>Runs are machines x workloads x cartesian(sweep entries in file order, then policy sweeps in file
 * order) x seeds, the last dimension varying fastest.
 *
 * <p>Each part of the study is read by its own class: {@link StudyFile} (the document, its values and paths),
 * {@link TopLevelKeys}, {@link MachineSection} (machines and overrides), {@link WorkloadSection}, {@link PolicySection},
 * {@link SweepSection}, {@link SwapSection} and {@link ReportSection}; {@link RunExpansion} lays out the runs, and
 * {@link RunChecks} and {@link BuiltWorkloads} check them. {@link StudyErrors} collects the errors of parts read side
 * by side.
 */
public final class StudyParser {
    /**
     * The most runs one study may have: 100,000 (days of simulation on a cluster). Laying out a run's plan costs a
     * machine-field sweep ~20 KB of heap: 100,000 runs validate in ~10 s in ~2 GB, a million did not finish in 6 GB.
     */
    public static final int MAX_RUNS = 100_000;

    private final PolicyRegistry policies;
    private final WorkloadRegistry workloads;
    private final Function<Map<String, Object>, MachineConfig> machineParser;
    /**
     * A study whose runs began under an earlier version ({@code --resume}, {@code collect}, Slurm tasks): its figures are
     * read as that version accepted them ({@code by} / {@code invert} where they change nothing) and a sweep of an
     * overridden field is let through, rules added since that would lock the folder (found by a review).
     */
    private boolean begun;

    public StudyParser(PolicyRegistry policies, WorkloadRegistry workloads) {
        this(policies, workloads, MachineConfig::parse);
    }

    /** @param machineParser checks a machine tree ({@code MachineConfig::parse}; tests may wrap it) */
    public StudyParser(PolicyRegistry policies, WorkloadRegistry workloads, Function<Map<String, Object>, MachineConfig> machineParser) {
        this.policies = policies;
        this.workloads = workloads;
        this.machineParser = machineParser;
    }

    /** This parser, for a study whose runs began under an earlier version (see {@link #begun}). */
    public StudyParser forBegunStudy() {
        begun = true;
        return this;
    }

    /** Parses and validates {@code file}; {@code display} is how messages name it. */
    public Study parse(Path file) throws StudyException {
        return read(file, file.toString());
    }

    /**
     * Parses a copy of a study as if it were the original named {@code display} (a batch task parses the
     * copy in its results folder; messages and config.json name files as the local run did).
     */
    public Study parse(Path file, String display) throws StudyException {
        return read(file, display);
    }

    /** One parse: each section read in turn, then the runs expanded and checked. */
    private Study read(Path file, String display) throws StudyException {
        StudyFile f = StudyFile.load(file, display);
        StudyErrors errors = new StudyErrors();
        TopLevelKeys keys = new TopLevelKeys(f);
        MachineSection machines = new MachineSection(f);
        WorkloadSection workloadSection = new WorkloadSection(f, errors, workloads);
        PolicySection policySection = new PolicySection(f, errors, policies);
        SweepSection sweep = new SweepSection(f, machines, policySection, begun);
        List<SweepDim> dims = sweep.dims;
        RunExpansion expansion = new RunExpansion(f, machines, workloadSection, policySection, dims, machineParser);
        // Independent parts are all checked, so one validate reports every error they hold; a part that
        // depends on another (overrides on machines, the sweep on machines and policies) waits for it.
        keys.refuseUnknown(errors.errors);

        String name = errors.check(keys::studyName);
        List<Long> seeds = errors.check(keys::seeds);
        Long epoch = errors.check(() -> keys.time("epoch", TopLevelKeys.DEFAULT_EPOCH_PS, TopLevelKeys.MIN_EPOCH_PS, TopLevelKeys.MAX_EPOCH_PS));
        Long maxTime = errors.check(() -> keys.time("max_time", 0, 1, Long.MAX_VALUE));
        boolean machinesOk = errors.ok(machines::machines) && errors.ok(machines::overrides);
        errors.ok(workloadSection::workloadsSection);
        boolean policiesOk = policySection.policiesSection();
        if (machinesOk && policiesOk) errors.ok(sweep::sweepSection);
        if (!errors.errors.isEmpty()) {
            // the machines are otherwise built with the runs; check them now so that their errors come too
            if (machinesOk) for (MachineTree t : machines.machines) errors.check(() -> expansion.machineAt(t, new int[dims.size()]));
            throw StudyException.of(errors.errors);
        }
        SwapSection swapSection = new SwapSection(f, policySection, policies);
        List<Object> swaps = swapSection.swaps();
        List<String> sweepColumns = new ArrayList<>();
        for (SweepDim d : dims) if (d.hasColumn()) sweepColumns.add(d.key());
        dims.addAll(policySection.policyDims);
        List<PlannedRun> runs = expansion.expand(seeds);
        BuiltWorkloads built = new BuiltWorkloads(f);
        RunChecks checks = new RunChecks(f, machines, workloadSection, swapSection, built);
        checks.refuseTwins(runs);
        built.refuseUnfitting(runs);
        checks.refuseMixesMachinesCannotRun(runs);
        checks.refuseUnknownParts(runs, swaps);
        built.refuseUnreachedKernels(runs, swaps);
        built.refuseUnfitBlocks(runs);
        List<Object> report = ReportSection.read(f.doc, f.value("report"), sweepColumns, runs, begun);
        List<String> columns = new ArrayList<>();
        for (SweepDim d : dims) if (d.hasColumn()) columns.add(d.key());
        int points = 1;
        for (SweepDim d : dims) points *= d.size();
        int machineCount = machines.machines.size(), workloadCount = workloadSection.workloadChoices.size();
        String shape = machineCount + " machine" + (machineCount == 1 ? "" : "s") + " x " + workloadCount
                + " workload" + (workloadCount == 1 ? "" : "s") + " x " + points + " sweep point" + (points == 1 ? "" : "s")
                + " x " + seeds.size() + " seed" + (seeds.size() == 1 ? "" : "s") + " = " + runs.size() + " run" + (runs.size() == 1 ? "" : "s");
        return new Study(name, file, display, org.hmsim.platform.kernel.results.Sha256.of(f.bytes), seeds, epoch, maxTime, columns, runs, swaps,
                report, shape, policySection.follow);
    }

    /**
     * The study's runs: machines x workloads x cartesian(sweep dimensions) x seeds, the last dimension varying fastest;
     * each point's machine (built and checked) and policies (resolved and checked).
     */
    private static final class RunExpansion {
        /** Errors gathered over the sweep's points before they are said (the same error at every point is said once). */
        static final int MAX_EXPANSION_ERRORS = 50;

        private final StudyFile f;
        private final YamlDoc doc;
        private final MachineSection machineSection;
        private final List<MachineTree> machines;
        private final List<WorkloadChoice> workloadChoices;
        private final PolicySection policies;
        /** The sweep's dimensions, then the policy sweeps of {@code policies:} (added once both are read). */
        private final List<SweepDim> dims;
        private final Function<Map<String, Object>, MachineConfig> machineParser;

        RunExpansion(StudyFile f, MachineSection machines, WorkloadSection workloads, PolicySection policies, List<SweepDim> dims,
                     Function<Map<String, Object>, MachineConfig> machineParser) {
            this.f = f;
            this.doc = f.doc;
            this.machineSection = machines;
            this.machines = machines.machines;
            this.workloadChoices = workloads.workloadChoices;
            this.policies = policies;
            this.dims = dims;
            this.machineParser = machineParser;
        }

        List<PlannedRun> expand(List<Long> seeds) throws StudyException {
            refuseTooManyRuns(seeds.size());
            List<int[]> points = points();
            List<Map<Slot, PolicyChoice>> pointPolicies = new ArrayList<>();
            // every point's policies, then every machine variant, before saying what is wrong: a wrong swept parameter and
            // a wrong swept machine value are two errors of one validate (a review fixed one to be told of the other)
            List<StudyException> wrong = new ArrayList<>();
            java.util.Set<String> said = new java.util.HashSet<>(); // a parameter wrong at every point (or value) is said once
            for (int[] p : points) {
                try {
                    pointPolicies.add(policiesAt(p));
                } catch (StudyException e) {
                    if (wrong.size() < MAX_EXPANSION_ERRORS && said.add(e.field() + "\n" + e.reason())) wrong.add(e);
                }
            }
            if (!wrong.isEmpty()) {
                for (MachineTree t : machines)
                    for (int[] p : points) {
                        if (wrong.size() >= MAX_EXPANSION_ERRORS) break;
                        try {
                            machineAt(t, p);
                        } catch (StudyException e) {
                            wrong.addAll(e.errors());
                        }
                    }
                throw StudyException.of(wrong);
            }
            int total = machines.size() * workloadChoices.size() * points.size() * seeds.size();
            List<PlannedRun> runs = new ArrayList<>(total);
            for (int m = 0; m < machines.size(); m++) {
                Map<String, MachineVariant> variants = new LinkedHashMap<>();
                for (WorkloadChoice w : workloadChoices) {
                    for (int pi = 0; pi < points.size(); pi++) {
                        int[] p = points.get(pi);
                        MachineVariant mv = variants.get(machineKey(p));
                        if (mv == null) {
                            mv = machineAt(machines.get(m), p);
                            variants.put(machineKey(p), mv);
                        }
                        Map<String, String> sweepValues = new LinkedHashMap<>();
                        StringBuilder label = new StringBuilder(w.label());
                        if (machines.size() > 1) label.append(" machine=").append(mv.label());
                        for (int d = 0; d < dims.size(); d++) {
                            SweepDim dim = dims.get(d);
                            if (dim.hasColumn()) sweepValues.put(dim.key(), dim.text(p[d]));
                            label.append(' ').append(labelKey(dim)).append('=').append(dim.text(p[d]));
                        }
                        for (long seed : seeds) {
                            int index = runs.size();
                            String id = org.hmsim.platform.report.Results.runId(index + 1, total);
                            String l = seeds.size() > 1 ? label + " seed=" + seed : label.toString();
                            runs.add(new PlannedRun(id, index, l, mv, w, pointPolicies.get(pi), sweepValues, seed));
                        }
                    }
                }
            }
            return List.copyOf(runs);
        }

        /**
         * A study of more than {@link StudyParser#MAX_RUNS} runs is refused before its runs are laid out: a sweep typed by mistake
         * (a range of 300 bandwidths crossed with 100 percentages...) would otherwise fill the memory while validating.
         */
        void refuseTooManyRuns(int seeds) throws StudyException {
            double total = (double) machines.size() * workloadChoices.size() * seeds;
            StringBuilder shape = new StringBuilder(machines.size() + " machine(s) x " + workloadChoices.size() + " workload(s)");
            for (SweepDim d : dims) {
                total *= d.size();
                shape.append(" x ").append(d.size()).append(" (").append(d.key()).append(')');
            }
            shape.append(" x ").append(seeds).append(" seed(s)");
            if (total <= StudyParser.MAX_RUNS) return;
            String field = f.value("sweep") != null ? "sweep" : f.value("policies") != null ? "policies" : "workloads";
            throw doc.error(f.keyNode(field), field,
                    (total < 1e15 ? Long.toString((long) total) : String.format(java.util.Locale.ROOT, "%.3g", total))
                            + " runs (" + shape + "): at most " + StudyParser.MAX_RUNS + " runs are allowed in one study");
        }

        /** Every point of the cartesian product, the last dimension varying fastest. */
        List<int[]> points() {
            List<int[]> out = new ArrayList<>();
            int[] idx = new int[dims.size()];
            while (true) {
                out.add(idx.clone());
                int d = dims.size() - 1;
                while (d >= 0 && ++idx[d] == dims.get(d).size()) idx[d--] = 0;
                if (d < 0) return out;
            }
        }

        String labelKey(SweepDim d) {
            if (d.key().startsWith("policies.")) return d.key().substring("policies.".length());
            return d.key();
        }

        String machineKey(int[] p) {
            StringBuilder b = new StringBuilder();
            for (int d = 0; d < dims.size(); d++) if (dims.get(d) instanceof SweepDim.Machine) b.append(p[d]).append(',');
            return b.toString();
        }

        MachineVariant machineAt(MachineTree base, int[] p) throws StudyException {
            MachineTree t = base.copy();
            for (int d = 0; d < dims.size(); d++) {
                if (!(dims.get(d) instanceof SweepDim.Machine m)) continue;
                Node at = m.nodes().get(p[d]);
                try {
                    t.set(m.key(), m.values().get(p[d]), doc.at(at, "sweep." + m.key()));
                } catch (MachineTree.PathException ex) {
                    throw doc.error(at, "sweep." + m.key(), "no such machine field: " + ex.getMessage() + machineSection.inMachine(t));
                }
            }
            try {
                MachineConfig cfg = machineParser.apply(t.root);
                return new MachineVariant(t.label, t.file, cfg, t.root, t.sha256);
            } catch (ConfigException e) {
                List<StudyException> errors = new ArrayList<>();
                for (ConfigException one : e.all()) errors.add(machineError(t, one, sweepPoint(p)));
                throw StudyException.of(errors);
            } catch (RuntimeException e) {
                throw Origin.start(t.file).error("", "invalid machine: " + e);
            }
        }

        /**
         * The machine sweep's values at point {@code p} ({@code "gpus = 2, gpu.l2.size = 1MB"}; empty without a machine
         * sweep): an error that only some points raise names the point, since the line it points at is the same for all.
         */
        String sweepPoint(int[] p) {
            StringBuilder b = new StringBuilder();
            for (int d = 0; d < dims.size(); d++) {
                if (!(dims.get(d) instanceof SweepDim.Machine m)) continue;
                Origin at = doc.at(m.nodes().get(p[d]), "");
                b.append(b.length() == 0 ? "" : ", ").append(m.key()).append(" = ").append(m.text(p[d]))
                        .append(" (line ").append(at.line()).append(')');
            }
            return b.toString();
        }

        /** A machine field's error at its origin: the machine file's line, or the study's key that set it. */
        StudyException machineError(MachineTree t, ConfigException e) { return machineError(t, e, ""); }

        /** ... and, where the value that is wrong is not itself swept, the sweep point that makes it wrong. */
        StudyException machineError(MachineTree t, ConfigException e, String point) {
            Origin o = t.originOf(e.path());
            // A value from the machine file is named by its path there; one set by the study by its key.
            boolean fromMachineFile = o.file().equals(t.file);
            String below = t.belowOrigin(e.path());
            String field = fromMachineFile || o.field().isEmpty() ? e.path() : below.isEmpty() ? o.field() : o.field() + "." + below;
            boolean swept = !fromMachineFile && o.field().startsWith("sweep.");
            String at = point.isEmpty() || swept ? "" : " (at the sweep point " + point + " of " + f.display + ")";
            return o.error(field, e.reason() + (fromMachineFile ? "" : machineSection.inMachine(t)) + at);
        }

        Map<Slot, PolicyChoice> policiesAt(int[] p) throws StudyException {
            Map<Slot, PolicyChoice> out = new EnumMap<>(Slot.class);
            for (Slot slot : Slot.values()) {
                PolicySpec spec = policies.baseSpecs.get(slot);
                for (int d = 0; d < dims.size(); d++)
                    if (dims.get(d) instanceof SweepDim.PolicyChoice c && c.slot() == slot) spec = c.specs().get(p[d]);
                for (int d = 0; d < dims.size(); d++) {
                    if (!(dims.get(d) instanceof SweepDim.PolicyParam pp) || pp.slot() != slot) continue;
                    if (spec == null) spec = new PolicySpec(Defaults.name(slot), null, Map.of(), Map.of(), Map.of(), "policies." + slot.id());
                    spec = spec.with(pp.param(), pp.values().get(p[d]), pp.nodes().get(p[d]), "sweep." + pp.key());
                }
                out.put(slot, spec == null ? policies.defaultPolicy(slot) : policies.resolve(slot, spec));
            }
            return out;
        }
    }

    /**
     * Checks of the expanded runs that no single section can make: two runs that are the same simulation, a mix a
     * machine cannot run, a policy parameter that does not fit a run's machine or workload.
     */
    private static final class RunChecks {
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
            List<PolicyChoice> swapTargets = swapSection.swapTargets(swaps);
            java.util.Set<List<Object>> checked = new java.util.HashSet<>();
            for (PlannedRun r : runs) {
                var m = r.machine().config();
                List<org.hmsim.api.workload.AllocationSpec> specs = built.allocationsOf(r);
                List<String> names = specs == null ? List.of() : specs.stream().map(org.hmsim.api.workload.AllocationSpec::name).toList();
                var facts = m.runFacts(names, r.workload().programs(), r.workload().isMix());
                List<Object> pair = List.of(m.name(), m.simulated(), r.workload(), r.seed());
                for (PolicyChoice c : swapTargets) checkParts(c, m, facts, pair, checked, "swaps", c.slot().id() + " -> ");
                for (PolicyChoice c : r.policies().values()) checkParts(c, m, facts, pair, checked, "policies." + c.slot().id(), "");
            }
        }

        /** {@code c} checked against a run's facts, once per machine and workload; an error at {@code field}, its text after {@code what}. */
        void checkParts(PolicyChoice c, org.hmsim.platform.machine.MachineConfig m, org.hmsim.api.policy.RunFacts facts, List<Object> pair,
                        java.util.Set<List<Object>> checked, String field, String what) throws StudyException {
            if (c.entry().provider() == null || !checked.add(List.of(pair, c.slot(), c.entry().id(), c.params().asMap()))) return;
            try {
                c.entry().provider().check(c.params(), facts);
            } catch (RuntimeException e) { // a plugin's check may throw anything: said as its message, not an internal error
                throw f.originOf(field.equals("swaps") ? "swaps" : f.firstKey("policies", "sweep")).error(field,
                        what + c.label() + " on machine " + m.name() + (facts.knowsAllocations() ? " with workload " + ((WorkloadChoice) pair.get(2)).label() : "") + ": " + e.getMessage());
            }
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

    /**
     * The runs' workloads built for validation, and the checks that need them: a footprint beyond a machine's pools, a
     * thread block beyond its SM, a swap before a kernel that never launches.
     */
    private static final class BuiltWorkloads {
        private final StudyFile f;

        BuiltWorkloads(StudyFile f) {
            this.f = f;
        }

        /** A launch's block as validation checks it against an SM. */
        private record Block(String kernel, int warps, int sharedBytes) {}

        /**
         * What validation keeps of a built workload: its allocations and its launches' blocks, not the workload (whose
         * kernels may hold a generated graph: keeping them held gigabytes over a study's seeds, found by a review).
         */
        private record Built(List<org.hmsim.api.workload.AllocationSpec> allocations, List<Block> launches) {
            int kernels() { return launches.size(); }
        }

        // each workload is built once per seed (its footprint may depend on the seed: a generated graph's edges), not
        // once per machine variant or check: building a large one takes seconds
        private final Map<List<Object>, Built> built = new java.util.HashMap<>();
        private static final Built FAILED = new Built(List.of(), List.of()); // compared by identity

        /** A run's workload as built for validation, or null if building it fails (or does not fit this JVM's heap): the run says why. */
        private Built builtOf(PlannedRun r) {
            Built b = built.computeIfAbsent(List.of(r.workload(), r.seed()), k -> {
                try {
                    org.hmsim.api.workload.Workload w = r.workload().create(r.seed());
                    List<org.hmsim.api.workload.AllocationSpec> specs = List.copyOf(w.allocations());
                    // the kernels' programs are not generated here, only counted
                    List<Block> blocks = new ArrayList<>();
                    for (org.hmsim.api.workload.Kernel launch : w.kernels(WorkloadChoice.nominalBases(specs)))
                        blocks.add(new Block(launch.name(), launch.warpsPerCta(), launch.sharedBytesPerCta()));
                    return new Built(specs, List.copyOf(blocks));
                } catch (RuntimeException | OutOfMemoryError e) {
                    return FAILED; // remembered too: a workload that fails to build is not built again per machine
                }
            });
            return b == FAILED ? null : b;
        }

        /** A run's workload's allocations, or null if it fails to build. */
        List<org.hmsim.api.workload.AllocationSpec> allocationsOf(PlannedRun r) {
            Built b = builtOf(r);
            return b == null ? null : b.allocations();
        }

        /**
         * A workload whose allocations need more pages than a machine's pools hold (without demand paging): every run
         * of the pair would fail as it starts, as the OS's allocator says; said here, at validation, naming both.
         */
        void refuseUnfitting(List<PlannedRun> runs) throws StudyException {
            java.util.Set<List<Object>> checked = new java.util.HashSet<>();
            for (PlannedRun r : runs) {
                org.hmsim.platform.machine.MachineConfig m = r.machine().config();
                if (m.uvm() != null || !checked.add(List.of(m.name(), m.simulated(), r.workload(), r.seed()))) continue;
                long pages = 0, page = m.pageBytes();
                long frames = org.hmsim.platform.machine.multigpu.GpuMemories.pageCapacity(m.poolInfos(), m.gpus(), page);
                List<org.hmsim.api.workload.AllocationSpec> specs = allocationsOf(r);
                if (specs == null) continue; // the run says why; here only the footprint is checked
                for (var a : specs) pages += (a.bytes() + page - 1) / page;
                if (pages <= frames) continue;
                throw f.originOf("workloads").error("workloads", r.workload().label() + " allocates " + pages + " pages of " + page + " bytes, more than machine "
                        + m.name() + "'s pools hold (" + frames + " frames" + (m.gpus() > 1 ? ", page groups of every GPU memory's smallest frame count" : "")
                        + "): every run of it would fail as it starts; a smaller input or larger pools");
            }
        }

        /**
         * A thread block larger than a machine's SM (more warps, or more shared memory) never starts: every run of the pair
         * failed as the kernel launched; refused here, naming the kernel, its block and the SM.
         */
        void refuseUnfitBlocks(List<PlannedRun> runs) throws StudyException {
            java.util.Set<List<Object>> checked = new java.util.HashSet<>();
            for (PlannedRun r : runs) {
                var gpu = r.machine().config().gpu();
                if (!checked.add(List.of(r.machine().config().name(), r.machine().config().simulated(), r.workload(), r.seed()))) continue;
                Built b = builtOf(r);
                if (b == null) continue;
                for (Block k : b.launches()) {
                    if (k.warps() <= gpu.maxWarpsPerSm() && k.sharedBytes() <= gpu.sharedBytesPerSm()) continue;
                    throw f.originOf("workloads").error("workloads", r.workload().label() + ": a thread block of kernel " + k.kernel() + " ("
                            + k.warps() + " warps, " + k.sharedBytes() + " B shared) never fits an SM of machine "
                            + r.machine().config().name() + " (" + gpu.maxWarpsPerSm() + " warps, " + gpu.sharedBytesPerSm() + " B)");
                }
            }
        }

        /**
         * A swap scripted before a kernel a run's workload never launches would never fire, and the run's results would be
         * labelled by a study that asked for it: refused, naming the workload and its kernel count.
         */
        void refuseUnreachedKernels(List<PlannedRun> runs, List<Object> swaps) throws StudyException {
            for (int i = 0; i < swaps.size(); i++) {
                if (!(swaps.get(i) instanceof Map<?, ?> sw) || !(sw.get("at") instanceof String at)) continue;
                java.util.regex.Matcher k = java.util.regex.Pattern.compile("kernel\\s+(\\d+)").matcher(at.trim());
                if (!k.matches()) continue;
                long index = Long.parseLong(k.group(1));
                for (PlannedRun r : runs) {
                    Built b = builtOf(r);
                    if (b == null || index < b.kernels()) continue;
                    throw f.originOf("swaps").error("swaps[" + i + "].at", "'" + at + "' is never reached: workload " + r.workload().label()
                            + " launches " + b.kernels() + " kernel" + (b.kernels() == 1 ? "" : "s") + " with seed " + r.seed()
                            + " (0-based indices 0 to " + (b.kernels() - 1) + "; the count may depend on the seed)");
                }
            }
        }
    }
}
