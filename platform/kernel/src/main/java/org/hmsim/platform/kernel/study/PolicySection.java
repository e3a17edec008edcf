package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * The study's {@code policies:} (a policy per slot, a sweep of policies, or follow) and how a policy as written is
 * resolved against the registry, wherever it is written (a sweep, a swap's target).
 */
final class PolicySection {
    /** A policy key that is no parameter: the slot follows the highest-ranked provider (docs/study-files.md). */
    static final String FOLLOW = "follow", HIGHEST_RANKED = "highest-ranked";

    private final StudyFile f;
    private final YamlDoc doc;
    private final StudyErrors errors;
    private final PolicyRegistry policies;
    final Map<Slot, PolicySpec> baseSpecs = new EnumMap<>(Slot.class);
    final List<SweepDim> policyDims = new ArrayList<>();
    /** Slots whose policy follows the highest-ranked installed provider ({@code follow: highest-ranked}). */
    final java.util.Set<Slot> follow = java.util.EnumSet.noneOf(Slot.class);
    Node policiesNode;

    PolicySection(StudyFile f, StudyErrors errors, PolicyRegistry policies) {
        this.f = f;
        this.doc = f.doc;
        this.errors = errors;
        this.policies = policies;
    }

    /** Reads every slot's entry, noting each one's error; whether all were good (the sweep needs them). */
    boolean policiesSection() {
        policiesNode = f.value("policies");
        if (policiesNode == null) return true;
        int before = errors.errors.size();
        Map<String, NodeTuple> entries = errors.check(() -> doc.entries(policiesNode, "policies"));
        if (entries != null) for (Map.Entry<String, NodeTuple> e : entries.entrySet()) errors.ok(() -> policyEntry(e));
        return errors.errors.size() == before;
    }

    /** One slot's entry of {@code policies:}: a policy, a sweep of policies, or follow. */
    /** How each slot was written under {@code policies:}: a slot written twice under two spellings took the last, silently. */
    private final Map<Slot, String> spelled = new EnumMap<>(Slot.class);

    void policyEntry(Map.Entry<String, NodeTuple> e) throws StudyException {
        Slot slot = slot(e.getKey(), e.getValue().getKeyNode(), "policies." + e.getKey());
        String before = spelled.putIfAbsent(slot, e.getKey());
        if (before != null)
            throw doc.error(e.getValue().getKeyNode(), "policies." + e.getKey(), "the " + slot.id() + " slot is given twice (also as '" + before
                    + "', which reads the same): give it once");
        String field = "policies." + slot.id();
        Node v = e.getValue().getValueNode();
        if (v instanceof MappingNode && doc.entries(v, field).containsKey("sweep")) {
            Map<String, NodeTuple> m = doc.entries(v, field);
            if (m.size() != 1) throw doc.error(v, field, "a policy sweep has only the key sweep: {sweep: [local, interleave]}");
            SweepDim.PolicyChoice dim = choiceDim(field, slot, m.get("sweep").getValueNode(), field + ".sweep");
            // names and parameter types checked now, with the other parts; the provider's own check once a sweep's values are in (policiesAt)
            StudyErrors bad = new StudyErrors(); // every swept policy's mistake at once (a trial's five came one per validate)
            for (PolicySpec spec : dim.specs()) bad.check(() -> resolve(slot, spec, false));
            if (!bad.errors.isEmpty()) throw StudyException.of(bad.errors);
            policyDims.add(dim);
        } else if (v instanceof MappingNode && doc.entries(v, field).containsKey(FOLLOW)) {
            Map<String, NodeTuple> m = doc.entries(v, field);
            Node fl = m.get(FOLLOW).getValueNode();
            if (!(fl instanceof ScalarNode sf) || !sf.getValue().equals(HIGHEST_RANKED))
                throw doc.error(fl, field + "." + FOLLOW, "a slot can follow only 'highest-ranked': {follow: highest-ranked} or {follow: highest-ranked, name: lru}");
            follow.add(slot);
            // the policy to fall back to (and its parameters); none named: the slot's default
            if (m.containsKey("name")) baseSpecs.put(slot, spec(v, field));
            else if (m.size() > 1)
                throw doc.error(v, field, "parameters need the policy's name: {follow: highest-ranked, name: ratio, fast_percent: 70}");
        } else {
            baseSpecs.put(slot, spec(v, field));
            resolve(slot, baseSpecs.get(slot), false); // a swept parameter may still complete it (policiesAt checks each point)
        }
    }

    Slot slot(String id, Node at, String field) throws StudyException {
        try {
            return PolicyRegistry.slot(id);
        } catch (InvalidChoiceException e) {
            throw doc.error(at, field, e.getMessage());
        }
    }

    SweepDim.PolicyChoice choiceDim(String key, Slot slot, Node list, String field) throws StudyException {
        if (!(list instanceof SequenceNode s) || s.getValue().isEmpty())
            throw doc.error(list, field, "expected a list of policies: [local, interleave, {name: ratio, fast_percent: 30}]");
        List<PolicySpec> specs = new ArrayList<>();
        for (int i = 0; i < s.getValue().size(); i++) {
            Node item = s.getValue().get(i);
            // following the ranking is a run's choice of provider, not a value a sweep can compare against others
            if (item instanceof MappingNode && doc.entries(item, field + "[" + i + "]").containsKey(FOLLOW))
                throw doc.error(item, field + "[" + i + "]." + FOLLOW, "follow is not allowed inside a policy sweep: sweep named policies, "
                        + "or give the slot {follow: highest-ranked} outside a sweep");
            PolicySpec p = spec(item, field + "[" + i + "]");
            for (int j = 0; j < specs.size(); j++)
                if (specs.get(j).name().equals(p.name()) && specs.get(j).params().equals(p.params()))
                    throw doc.error(s.getValue().get(i), field + "[" + i + "]", "this policy is listed twice (also " + field + "[" + j + "])");
            specs.add(p);
        }
        return new SweepDim.PolicyChoice(key, slot, specs);
    }

    PolicySpec spec(Node n, String field) throws StudyException {
        if (n instanceof ScalarNode) return new PolicySpec(f.scalarText(n, field), n, Map.of(), Map.of(), Map.of(), field);
        Map<String, NodeTuple> e = doc.entries(n, field);
        if (!e.containsKey("name")) throw doc.error(n, field, "a policy with parameters needs its name: {name: ratio, fast_percent: 70}");
        Node nameNode = e.get("name").getValueNode();
        Map<String, Object> params = new LinkedHashMap<>();
        Map<String, Node> nodes = new LinkedHashMap<>();
        Map<String, String> fields = new LinkedHashMap<>();
        for (Map.Entry<String, NodeTuple> p : e.entrySet()) {
            if (p.getKey().equals("name") || (p.getKey().equals(FOLLOW) && field.indexOf('[') < 0 && field.startsWith("policies."))) continue;
            params.put(p.getKey(), f.scalar(p.getValue().getValueNode(), field + "." + p.getKey()));
            nodes.put(p.getKey(), p.getValue().getValueNode());
            fields.put(p.getKey(), field + "." + p.getKey());
        }
        return new PolicySpec(f.scalarText(nameNode, field + ".name"), nameNode, params, nodes, fields, field);
    }

    PolicyChoice defaultPolicy(Slot slot) throws StudyException {
        try {
            return policies.resolveDefault(slot);
        } catch (InvalidChoiceException e) {
            Node at = policiesNode != null ? f.keyNode("policies") : null;
            Origin o = at == null ? Origin.start(f.display) : doc.at(at, "");
            throw o.error("policies." + slot.id(), "no policy given and the default is not available: " + e.getMessage());
        }
    }

    PolicyChoice resolve(Slot slot, PolicySpec spec) throws StudyException { return resolve(slot, spec, true); }

    /** {@code providerCheck}: also the provider's own check of the parameters (false for a spec a sweep may complete). */
    PolicyChoice resolve(Slot slot, PolicySpec spec, boolean providerCheck) throws StudyException {
        // a bare number for a time is said as such before its range: `detect_epoch: 40` was "out of range [1ns, 1s]" (40 ps)
        // where `40000` was "has no unit" (a trial)
        f.bareTimes(policies.parametersOf(slot, spec.name()), spec.params(), spec.paramNodes(), spec.paramFields()::get);
        PolicyChoice choice;
        try {
            choice = policies.resolve(slot, spec.name(), spec.params(), providerCheck);
        } catch (InvalidChoiceException e) {
            String param = e.parameter();
            if (param != null && spec.paramNodes().containsKey(param)) {
                // every parameter's own mistake at once (a researcher's three bad values came one per validate)
                List<StudyException> all = new ArrayList<>();
                for (InvalidChoiceException each : policies.parameterErrors(slot, spec.name(), spec.params()))
                    if (each.parameter() != null && spec.paramNodes().containsKey(each.parameter()))
                        all.add(doc.error(spec.paramNodes().get(each.parameter()), spec.paramFields().get(each.parameter()), each.getMessage()));
                if (all.size() > 1) throw StudyException.of(all);
                throw doc.error(spec.paramNodes().get(param), spec.paramFields().get(param), e.getMessage());
            }
            Origin o = spec.nameNode() != null ? doc.at(spec.nameNode(), "") : Origin.start(f.display);
            throw o.error(spec.field(), e.getMessage());
        }
        f.bareTimes(choice.entry().parameters(), spec.params(), spec.paramNodes(), spec.paramFields()::get);
        return choice;
    }
}
