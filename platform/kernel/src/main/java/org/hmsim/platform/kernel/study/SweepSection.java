package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The study's {@code sweep:}: its dimensions, in file order (machine fields, policy parameters, slots' policies). */
final class SweepSection {
    private final StudyFile f;
    private final YamlDoc doc;
    private final MachineSection machines;
    private final PolicySection policies;
    /** See {@link StudyParser#forBegunStudy}: a sweep of an overridden field is let through. */
    private final boolean begun;
    /** The sweep's dimensions; the study adds the policy sweeps of {@code policies:} after them. */
    final List<SweepDim> dims = new ArrayList<>();

    private final WorkloadSection workloads;

    SweepSection(StudyFile f, MachineSection machines, PolicySection policies, WorkloadSection workloads, boolean begun) {
        this.f = f;
        this.doc = f.doc;
        this.machines = machines;
        this.policies = policies;
        this.workloads = workloads;
        this.begun = begun;
    }

    void sweepSection() throws StudyException {
        Node n = f.value("sweep");
        if (n == null) return;
        // per machine: canonical field -> the sweep key that set it (two spellings of one field would
        // leave the later value in the machine while the run is labelled with both)
        List<Map<String, String>> swept = new ArrayList<>();
        for (int m = 0; m < machines.machines.size(); m++) swept.add(new LinkedHashMap<>());
        for (Map.Entry<String, NodeTuple> e : doc.entries(n, "sweep").entrySet()) {
            String key = e.getKey();
            String field = "sweep." + key;
            Node keyNode = e.getValue().getKeyNode();
            Node list = e.getValue().getValueNode();
            if (key.equals("seed") || key.equals("seeds")) {
                // seeds are their own dimension (a trial's sweep: {seed: [3, 4]} was an unknown machine field, once per value)
                throw doc.error(keyNode, field, "seeds are not swept here: give them at the top level, seeds: [3, 4] (each run then repeats once per seed)");
            } else if (key.startsWith("workloads.")) {
                dims.add(workloadParam(key, keyNode, list, field));
            } else if (key.startsWith("policies.")) {
                String rest = key.substring("policies.".length());
                int dot = rest.indexOf('.');
                Slot slot = policies.slot(dot < 0 ? rest : rest.substring(0, dot), keyNode, field);
                // results name the slot hyphenated whatever its spelling here (a trial's policies.dram_scheduler.cap column
                // matched neither a report's x: nor the same study written with the hyphen)
                String column = "policies." + slot.id() + (dot < 0 ? "" : rest.substring(dot));
                if (!begun) refusePolicySetTwice(slot, dot < 0 ? null : rest.substring(dot + 1), keyNode, field);
                if (dot < 0) {
                    for (SweepDim d : policies.policyDims)
                        if (d instanceof SweepDim.PolicyChoice c && c.slot() == slot)
                            throw doc.error(keyNode, field, "the " + slot.id() + " policy is already swept under policies");
                    dims.add(policies.choiceDim(column, slot, list, field));
                } else {
                    List<Node> items = values(list, field);
                    List<Object> vals = new ArrayList<>();
                    for (int i = 0; i < items.size(); i++) vals.add(f.scalar(items.get(i), field + "[" + i + "]"));
                    dims.add(new SweepDim.PolicyParam(column, slot, rest.substring(dot + 1), vals, items));
                }
            } else {
                String path = key.startsWith("machine.") ? key.substring("machine.".length()) : key;
                List<Node> items = values(list, field);
                List<Object> vals = new ArrayList<>();
                for (int i = 0; i < items.size(); i++) {
                    Object v = doc.plain(items.get(i), "", null);
                    // a machine field left empty would silently take hmsim's built-in default (not the machine file's)
                    String empty = MachineSection.emptyLeaf(v, field + "[" + i + "]");
                    if (empty != null) throw doc.error(items.get(i), empty, "has no value");
                    vals.add(v);
                }
                for (int m = 0; m < machines.machines.size(); m++) {
                    MachineTree t = machines.machines.get(m);
                    try {
                        if (!begun && m < machines.overridden.size()) refuseOverridden(t, path, vals, machines.overridden.get(m), keyNode, field);
                        for (String target : t.targets(path)) { // throws for a path the machine lacks
                            String other = MachineSection.overlapping(swept.get(m), target);
                            if (other != null)
                                throw doc.error(keyNode, field, "sets the same machine field as sweep." + other + " (" + target + ")"
                                        + machines.inMachine(t) + "; sweep each field once");
                            swept.get(m).put(target, key);
                        }
                    } catch (MachineTree.PathException ex) {
                        throw doc.error(keyNode, field, "no such machine field: " + ex.getMessage() + machines.inMachine(t));
                    }
                }
                dims.add(new SweepDim.Machine(path, vals, items));
            }
        }
    }

    /**
     * A swept field an override sets too: the sweep's values replace it in every run, so it would never be simulated
     * (found by a review). Each value is compared by the fields it would write, as an override is: a mapping merges key
     * by key ({@code gpu: [{sms: 2}]} leaves an overridden {@code gpu.clock} alone). Not checked for a study begun under
     * an earlier version.
     */
    void refuseOverridden(MachineTree t, String path, List<Object> vals, Map<String, String> overrides, Node keyNode, String field)
            throws StudyException, MachineTree.PathException {
        for (Object v : vals)
            for (String target : overrides.isEmpty() ? List.<String>of() : t.targets(path, v)) {
                String fixed = MachineSection.overlapping(overrides, target);
                if (fixed != null)
                    throw doc.error(keyNode, field, "sets the same machine field as " + fixed + " (" + target + ")" + machines.inMachine(t)
                            + ", whose value no run would keep; give the field in one place");
            }
    }

    /**
     * A swept policy ({@code param} null) or policy parameter that {@code policies:} (or an earlier sweep of the slot's
     * policies) sets too: the sweep's values replace it in every run, so it would never be simulated, and nothing said so
     * ({@code policies: {placement: {name: ratio, fast_percent: 30}}} with {@code sweep: {policies.placement: [local, ratio]}}
     * ran ratio at its default 70; found by a review of silent inputs). As for machine fields ({@link #refuseOverridden}).
     */
    private void refusePolicySetTwice(Slot slot, String param, Node keyNode, String field) throws StudyException {
        String again = "; give it in one place";
        PolicySpec base = policies.baseSpecs.get(slot);
        if (param == null) {
            if (base != null)
                throw doc.error(keyNode, field, "the " + slot.id() + " policy is also set by " + base.field()
                        + ", which no run would keep: the sweep's policies replace it in every run" + again + " (list it in the sweep)");
            return;
        }
        List<PolicySpec> specs = new ArrayList<>();
        if (base != null) specs.add(base);
        for (List<SweepDim> ds : List.of(policies.policyDims, dims))
            for (SweepDim d : ds) if (d instanceof SweepDim.PolicyChoice c && c.slot() == slot) specs.addAll(c.specs());
        for (PolicySpec spec : specs)
            if (spec.params().containsKey(param))
                throw doc.error(keyNode, field, "sets the same parameter as " + spec.paramFields().get(param)
                        + ", whose value no run would keep: the sweep's values replace it in every run" + again);
    }

    /**
     * {@code workloads.<param>: [values]}: the parameter of every workload of the study, each value checked against each
     * workload's declaration. A workload that does not take it, a mix, or an entry that sets it too is refused: the sweep
     * would run it unchanged at every point, or never at its own value. (A line figure over a workload's size or stride
     * needs a swept column: a researcher's stride sweep could only be drawn as bars.)
     */
    private SweepDim workloadParam(String key, Node keyNode, Node list, String field) throws StudyException {
        String param = key.substring("workloads.".length());
        if (param.isEmpty() || param.contains("."))
            throw doc.error(keyNode, field, "a workload parameter is swept as workloads.<parameter> (workloads.stride: [1, 8, 32])");
        List<Node> items = values(list, field);
        List<Object> vals = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) vals.add(f.scalar(items.get(i), field + "[" + i + "]"));
        for (int w = 0; w < workloads.workloadChoices.size(); w++) {
            org.hmsim.platform.kernel.registry.WorkloadChoice choice = workloads.workloadChoices.get(w);
            String which = "workload " + choice.label() + " (workloads[" + w + "])";
            if (choice.isMix()) throw doc.error(keyNode, field, which + " is a mix: sweep its programs' parameters in their entries");
            if (choice.entry().parameters().stream().noneMatch(s -> s.name().equals(param)))
                throw doc.error(keyNode, field, which + " takes no parameter '" + param + "' (its parameters: "
                        + (choice.entry().parameters().isEmpty() ? "none" : String.join(", ", choice.entry().parameters().stream().map(s -> s.name()).toList()))
                        + "): a workload sweep applies to every workload of the study; give the others a study of their own");
            if (choice.given().containsKey(param))
                throw doc.error(keyNode, field, which + " sets '" + param + "' in its entry too, a value no run would keep: give it in one place");
            for (int i = 0; i < vals.size(); i++)
                try {
                    org.hmsim.platform.kernel.registry.WorkloadRegistry.with(choice, param, vals.get(i));
                } catch (org.hmsim.platform.kernel.registry.InvalidChoiceException bad) {
                    throw doc.error(items.get(i), field + "[" + i + "]", which + ": " + bad.getMessage());
                }
        }
        return new SweepDim.WorkloadParam(key, param, vals, items);
    }

    List<Node> values(Node list, String field) throws StudyException {
        if (!(list instanceof SequenceNode s) || s.getValue().isEmpty())
            throw doc.error(list, field, "a sweep lists its values: [a, b, c]");
        List<Object> seen = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            Object v = doc.plain(s.getValue().get(i), "", null);
            int twin = seen.indexOf(v);
            if (twin >= 0) throw doc.error(s.getValue().get(i), field + "[" + i + "]", "this value is listed twice (also " + field + "[" + twin + "])");
            seen.add(v);
        }
        return s.getValue();
    }
}
