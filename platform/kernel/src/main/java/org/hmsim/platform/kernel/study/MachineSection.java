package org.hmsim.platform.kernel.study;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;

/** The study's {@code machine:} / {@code machines:} files, read as trees, and its {@code overrides:} applied to them. */
final class MachineSection {
    private final StudyFile f;
    private final YamlDoc doc;
    final List<MachineTree> machines = new ArrayList<>();
    /** Per machine, each field an override set -> the key that set it (a sweep may not set it too). */
    final List<Map<String, String>> overridden = new ArrayList<>();

    MachineSection(StudyFile f) {
        this.f = f;
        this.doc = f.doc;
    }

    void machines() throws StudyException {
        Node one = f.value("machine"), many = f.value("machines");
        if (one != null && many != null) throw doc.error(f.keyNode("machines"), "machines", "give either machine or machines, not both");
        if (one == null && many == null)
            throw new StudyException(f.display, 1, 1, "machine", "missing: the machine file, relative to the study: machine: ../machines/small.yaml");
        List<Node> items = one != null ? List.of(one) : YamlDoc.items(many);
        if (items.isEmpty()) throw doc.error(many, "machines", "the list of machines is empty");
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String field = one != null ? "machine" : "machines[" + i + "]";
            MachineTree t = loadMachine(items.get(i), field);
            if (labels.contains(t.label)) throw doc.error(items.get(i), field, "machine '" + t.label + "' is listed twice");
            labels.add(t.label);
            machines.add(t);
        }
    }

    MachineTree loadMachine(Node n, String field) throws StudyException {
        String rel = f.scalarText(n, field);
        Path p = f.resolve(rel);
        String shown = f.shown(rel);
        if (!Files.isRegularFile(p)) throw doc.error(n, field, "machine file '" + rel + "' " + StudyFile.notAFile(p, shown));
        YamlDoc m;
        String sha;
        try {
            m = YamlDoc.load(p, shown);
            sha = org.hmsim.platform.kernel.results.Sha256.ofFile(p);
        } catch (IOException e) {
            throw doc.error(n, field, "cannot read machine file " + shown + ": " + e.getMessage());
        }
        Map<String, Origin> origins = new LinkedHashMap<>();
        if (!(m.root instanceof MappingNode)) throw m.error(m.root, "", "a machine file is a mapping of keys");
        @SuppressWarnings("unchecked")
        Map<String, Object> tree = (Map<String, Object>) m.plain(m.root, "", origins);
        String base = p.getFileName().toString();
        int dot = base.lastIndexOf('.');
        return new MachineTree(dot > 0 ? base.substring(0, dot) : base, shown, sha, tree, origins);
    }

    void overrides() throws StudyException {
        Node n = f.value("overrides");
        if (n == null) return;
        for (int m = 0; m < machines.size(); m++) overridden.add(new LinkedHashMap<>());
        // each entry is its own: every bad one is said in one validate (a misspelt pool hid the other four, a trial)
        List<StudyException> wrong = new ArrayList<>();
        for (Map.Entry<String, NodeTuple> e : doc.entries(n, "overrides").entrySet()) {
            try {
                override(e);
            } catch (StudyException bad) {
                wrong.addAll(bad.errors());
            }
        }
        if (!wrong.isEmpty()) throw StudyException.of(wrong);
    }

    private void override(Map.Entry<String, NodeTuple> e) throws StudyException {
        String field = "overrides." + e.getKey();
        Node v = e.getValue().getValueNode();
        Object plain = doc.plain(v, "", null);
        // left empty it would silently take hmsim's built-in default, not the machine file's value (found by a review)
        String empty = emptyLeaf(plain, field);
        // uvm: {} and cpu: {} add the model with its defaults to a machine without one, as in a machine file
        // (docs/study-files.md: "give the whole section as a mapping to add one"; refused as "has no value"
        // until a docs audit); to a machine that has one it would merge nothing
        if (empty != null && empty.equals(field) && plain instanceof Map<?, ?> pm && pm.isEmpty()
                && (e.getKey().equals("uvm") || e.getKey().equals("cpu"))) {
            for (MachineTree t : machines)
                if (t.root.get(e.getKey()) != null)
                    throw doc.error(v, field, "is empty, and machine " + t.label + " has a " + e.getKey()
                            + ": section already, into which it would merge nothing (give the fields to change)");
            empty = null;
        }
        if (empty != null) throw doc.error(v, empty, "has no value");
        for (int m = 0; m < machines.size(); m++) override(machines.get(m), e.getKey(), e.getValue(), plain, overridden.get(m));
    }

    /**
     * Sets one override on {@code t}. A field another key already set is refused: the later value won without a word
     * ({@code pools.ddr.bandwidth} and {@code pools.1.bandwidth}, {@code links.*.bandwidth} and {@code links.0}; an audit).
     */
    void override(MachineTree t, String key, NodeTuple kv, Object plain, Map<String, String> set) throws StudyException {
        String field = "overrides." + key;
        List<String> targets;
        try {
            targets = t.set(key, plain, doc.at(kv.getValueNode(), field));
        } catch (MachineTree.PathException ex) {
            throw doc.error(kv.getKeyNode(), field, "no such machine field: " + ex.getMessage() + inMachine(t));
        }
        for (String target : targets) {
            String other = overlapping(set, target);
            if (other != null)
                throw doc.error(kv.getKeyNode(), field, "sets the same machine field as " + other + " (" + target + ")"
                        + inMachine(t) + "; give each field once");
        }
        for (String target : targets) set.put(target, field + " (line " + doc.at(kv.getKeyNode(), field).line() + ")");
    }

    /** The path of the first value left empty in {@code v} (a mapping or list of machine fields, or one value), or null. */
    static String emptyLeaf(Object v, String path) {
        if (v == null) return path;
        if (v instanceof Map<?, ?> m && m.isEmpty()) return path; // merges nothing: a mapping left empty is a mistake too
        if (v instanceof Map<?, ?> m)
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String p = emptyLeaf(e.getValue(), path + "." + e.getKey());
                if (p != null) return p;
            }
        if (v instanceof List<?> l)
            for (int i = 0; i < l.size(); i++) {
                String p = emptyLeaf(l.get(i), path + "[" + i + "]");
                if (p != null) return p;
            }
        return null;
    }

    /** The sweep key whose field is {@code target}, contains it or lies inside it; null if none. */
    static String overlapping(Map<String, String> swept, String target) {
        for (Map.Entry<String, String> e : swept.entrySet()) {
            String f = e.getKey();
            if (f.equals(target) || target.startsWith(f + ".") || f.startsWith(target + ".")) return e.getValue();
        }
        return null;
    }

    String inMachine(MachineTree t) {
        return machines.size() > 1 ? " (machine " + t.file + ")" : "";
    }
}
