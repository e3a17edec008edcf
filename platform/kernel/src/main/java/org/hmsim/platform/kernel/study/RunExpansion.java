package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.machine.ConfigException;
import org.hmsim.platform.machine.MachineConfig;
import org.yaml.snakeyaml.nodes.Node;

/**
 * The study's runs: machines x workloads x cartesian(sweep dimensions) x seeds, the last dimension varying fastest;
 * each point's machine (built and checked) and policies (resolved and checked).
 */
final class RunExpansion {
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
        List<Map<String, MachineVariant>> variants = machineVariants(points, wrong);
        if (!wrong.isEmpty()) throw StudyException.of(wrong);
        int total = machines.size() * workloadChoices.size() * points.size() * seeds.size();
        List<PlannedRun> runs = new ArrayList<>(total);
        for (int m = 0; m < machines.size(); m++) {
            for (WorkloadChoice w : workloadChoices) {
                for (int pi = 0; pi < points.size(); pi++) {
                    int[] p = points.get(pi);
                    MachineVariant mv = variants.get(m).get(machineKey(p));
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
                        runs.add(new PlannedRun(id, index, l, mv, workloadAt(w, p), pointPolicies.get(pi), sweepValues, seed));
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

    /**
     * Every machine's variant at every point of its sweep, by {@link #machineKey}; what is wrong goes to {@code wrong}, each
     * distinct error once: without a sweep point where every point has it (an override wrong everywhere was said "at the
     * sweep point clock = 1215", the first, and only the first point's errors were said at all, a trial), naming the first
     * point that has it otherwise.
     */
    private List<Map<String, MachineVariant>> machineVariants(List<int[]> points, List<StudyException> wrong) {
        List<Map<String, MachineVariant>> out = new ArrayList<>();
        for (MachineTree t : machines) {
            Map<String, MachineVariant> variants = new LinkedHashMap<>();
            java.util.Set<String> tried = new java.util.HashSet<>();
            // each distinct error (as said without a point): as said then, as said naming its first point, at how many points
            Map<String, StudyException[]> seen = new LinkedHashMap<>();
            Map<String, Integer> count = new java.util.HashMap<>();
            for (int[] p : points) {
                if (!tried.add(machineKey(p))) continue;
                try {
                    variants.put(machineKey(p), machineAt(t, p, false));
                } catch (StudyException plain) {
                    List<StudyException> named = named(t, p, plain);
                    for (int i = 0; i < plain.errors().size(); i++) {
                        StudyException one = plain.errors().get(i);
                        count.merge(one.getMessage(), 1, Integer::sum);
                        seen.putIfAbsent(one.getMessage(), new StudyException[] {one, i < named.size() ? named.get(i) : one});
                    }
                }
            }
            for (Map.Entry<String, StudyException[]> e : seen.entrySet()) {
                if (wrong.size() >= MAX_EXPANSION_ERRORS) break;
                wrong.add(e.getValue()[count.get(e.getKey()) == tried.size() ? 0 : 1]);
            }
            out.add(variants);
        }
        return out;
    }

    /** The errors of point {@code p} naming it (a value made wrong there by the sweep), in the order of {@code plain}'s. */
    private List<StudyException> named(MachineTree t, int[] p, StudyException plain) {
        try {
            machineAt(t, p, true);
            return plain.errors(); // not reached: the same tree fails the same way
        } catch (StudyException e) {
            return e.errors();
        }
    }

    MachineVariant machineAt(MachineTree base, int[] p) throws StudyException { return machineAt(base, p, true); }

    /** {@code namePoint}: an error a sweep point makes (its value is not itself swept) names the point. */
    MachineVariant machineAt(MachineTree base, int[] p, boolean namePoint) throws StudyException {
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
            for (ConfigException one : e.all()) errors.add(machineError(t, one, namePoint ? sweepPoint(p) : ""));
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

    /**
     * A machine field's error at its origin (the machine file's line, or the study's key that set it) and, where the
     * value that is wrong is not itself swept, the sweep point that makes it wrong.
     */
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

    /** Workload {@code w} with the workload sweep's values at point {@code p} (itself without a workload sweep). */
    WorkloadChoice workloadAt(WorkloadChoice w, int[] p) {
        for (int d = 0; d < dims.size(); d++)
            if (dims.get(d) instanceof SweepDim.WorkloadParam wp)
                w = org.hmsim.platform.kernel.registry.WorkloadRegistry.with(w, wp.param(), wp.values().get(p[d]));
        return w;
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
