package org.hmsim.platform.kernel.study;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** The study's {@code workloads:}: names, files, traces and mixes, resolved with their parameters. */
final class WorkloadSection {
    private final StudyFile f;
    private final YamlDoc doc;
    private final StudyErrors errors;
    private final WorkloadRegistry workloads;
    final List<WorkloadChoice> workloadChoices = new ArrayList<>();
    /** Where each of {@link #workloadChoices} is written (its entry of workloads:). */
    final List<Node> workloadNodes = new ArrayList<>();

    WorkloadSection(StudyFile f, StudyErrors errors, WorkloadRegistry workloads) {
        this.f = f;
        this.doc = f.doc;
        this.errors = errors;
        this.workloads = workloads;
    }

    void workloadsSection() throws StudyException {
        Node n = f.value("workloads");
        if (n == null) throw new StudyException(f.display, 1, 1, "workloads", "missing: list the workloads to run: workloads: [stream]");
        List<Node> items = YamlDoc.items(n);
        if (items.isEmpty()) throw doc.error(n, "workloads", "the list of workloads is empty");
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            int at = i;
            WorkloadChoice w = errors.check(() -> workload(items.get(at), "workloads[" + at + "]"));
            if (w == null) continue;
            // the same runs twice: double the time, and the report would average them as if they were seeds
            int twin = labels.indexOf(w.label());
            if (twin >= 0) errors.errors.add(doc.error(items.get(i), "workloads[" + i + "]", twinMessage(w, workloadChoices.get(twin), twin)));
            labels.add(w.label());
            workloadChoices.add(w);
            workloadNodes.add(items.get(i));
        }
    }

    /** Two entries with one label: the same workload twice, or two workloads (a file and a built-in) under one name. */
    String twinMessage(WorkloadChoice w, WorkloadChoice twin, int at) {
        if (w.entry().origin().equals(twin.entry().origin())) return "'" + w.label() + "' is listed twice (also workloads[" + at + "])";
        return "two different workloads are named '" + w.entry().name() + "' (also workloads[" + at + "]), so their runs and figures would "
                + "share one label: rename one (a workload file's name: field, a mix's label:)";
    }

    WorkloadChoice workload(Node n, String field) throws StudyException {
        if (n instanceof ScalarNode) {
            String name = f.scalarText(n, field);
            try {
                return workloads.resolve(name, Map.of());
            } catch (InvalidChoiceException e) {
                throw doc.error(n, field, e.getMessage());
            }
        }
        Map<String, NodeTuple> e = doc.entries(n, field);
        if (e.containsKey("mix")) return mix(n, e, field);
        if ((e.containsKey("name") ? 1 : 0) + (e.containsKey("file") ? 1 : 0) + (e.containsKey("trace") ? 1 : 0) != 1)
            throw doc.error(n, field, "a workload is a name (stream, {name: bfs, nodes: 4096}), a file ({file: saxpy.yaml}) or a trace ({trace: x.hmt}), exactly one of them");
        String key = e.containsKey("name") ? "name" : e.containsKey("file") ? "file" : "trace";
        Node nameNode = e.get(key).getValueNode();
        String name = f.scalarText(nameNode, field + "." + key);
        Map<String, Object> params = new LinkedHashMap<>();
        Map<String, Node> nodes = new LinkedHashMap<>();
        for (Map.Entry<String, NodeTuple> p : e.entrySet()) {
            if (p.getKey().equals(key)) continue;
            params.put(p.getKey(), f.scalar(p.getValue().getValueNode(), field + "." + p.getKey()));
            nodes.put(p.getKey(), p.getValue().getValueNode());
        }
        WorkloadChoice choice;
        try {
            if (key.equals("name")) choice = workloads.resolve(name, params);
            else {
                Path p = f.resolve(name);
                if (!Files.isRegularFile(p))
                    throw doc.error(nameNode, field + "." + key, (key.equals("file") ? "workload file '" : "trace '") + name + "' " + StudyFile.notAFile(p, f.shown(name)));
                choice = key.equals("trace") ? workloads.resolveTrace(p, f.shown(name), params) : workloads.resolveFile(p, f.shown(name), params);
            }
        } catch (InvalidChoiceException ex) {
            StudyException inFile = key.equals("file") ? StudyErrors.located(ex.getCause(), f.shown(name)) : null;
            // the file's line is where the expression is; the value that broke it may be the study's: said too (a trial
            // set n=4611686018427387968 and was told only saxpy.yaml:10:21)
            if (inFile != null && !nodes.isEmpty()) throw new StudyException(inFile.file(), inFile.line(), inFile.column(), inFile.field(),
                    inFile.reason() + "; the study sets " + given(nodes));
            if (inFile != null) throw inFile;
            String param = ex.parameter();
            if (param != null && nodes.containsKey(param)) throw doc.error(nodes.get(param), field + "." + param, ex.getMessage());
            throw doc.error(nameNode, field + "." + key, ex.getMessage());
        }
        f.bareTimes(choice.entry().parameters(), params, nodes, p -> field + "." + p);
        return choice;
    }

    /** The parameters a study gave a workload file, each with where: {@code n at s.yaml:7:28}. */
    private String given(Map<String, Node> nodes) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Node> e : nodes.entrySet())
            out.add(e.getKey() + " at " + f.display + ":" + (e.getValue().getStartMark().getLine() + 1) + ":" + (e.getValue().getStartMark().getColumn() + 1));
        return String.join(", ", out);
    }

    /**
     * {@code {mix: [w, …], label: x}}: a multiprogrammed mix (seed 004 §6.5), program p on GPU p. Each program is a
     * workload entry as any other; a mix within a mix has no meaning (a program is one GPU's).
     */
    WorkloadChoice mix(Node n, Map<String, NodeTuple> e, String field) throws StudyException {
        for (String key : e.keySet())
            if (!key.equals("mix") && !key.equals("label"))
                throw doc.error(e.get(key).getKeyNode(), field + "." + key, "unknown key '" + key + "' of a mix: a mix is {mix: [programs], label: name} "
                        + "(parameters go to each program: {mix: [{name: bfs, nodes: 4096}, stream]})");
        Node list = e.get("mix").getValueNode();
        if (!(list instanceof SequenceNode))
            throw doc.error(list, field + ".mix", "a mix lists its programs, one per GPU, in brackets: mix: [block-exclusive, sharing]");
        List<Node> items = YamlDoc.items(list);
        if (items.isEmpty()) throw doc.error(list, field + ".mix", "a mix lists its programs, one per GPU: mix: [block-exclusive, sharing]");
        List<WorkloadChoice> programs = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String at = field + ".mix[" + i + "]";
            if (items.get(i) instanceof MappingNode && doc.entries(items.get(i), at).containsKey("mix"))
                throw doc.error(items.get(i), at, "a mix's program cannot be a mix: each program runs on one GPU");
            programs.add(workload(items.get(i), at));
        }
        String label = e.containsKey("label") ? f.scalarText(e.get("label").getValueNode(), field + ".label") : null;
        if (label != null && !label.matches("[A-Za-z0-9_.-]+"))
            throw doc.error(e.get("label").getValueNode(), field + ".label", "a mix's label is a name of letters, digits and _ . - (as a workload's), got '" + label + "'");
        return WorkloadRegistry.mix(label, programs);
    }
}
