package org.hmsim.platform.kernel.study;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.hmsim.api.engine.Units;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.ParamType;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.machine.ConfigException;
import org.hmsim.platform.machine.MachineConfig;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Reads a study file (docs/study-files.md) and validates all of it before anything runs (DESIGN §8, §9):
 * machines of every sweep point, overrides, workloads and policies with their parameters. The first
 * problem found is a {@link StudyException} naming file, line, column and field.
 *
 * <p>Runs are machines x workloads x cartesian(sweep entries in file order, then policy sweeps in file
 * order) x seeds, the last dimension varying fastest.
 */
public final class StudyParser {
    /**
     * The most runs one study may have: 100,000 (days of simulation on a cluster). Laying out a run's plan costs a
     * machine-field sweep ~20 KB of heap: 100,000 runs validate in ~10 s in ~2 GB, a million did not finish in 6 GB.
     */
    public static final int MAX_RUNS = 100_000;
    static final List<String> KEYS = List.of("study", "description", "seed", "seeds", "machine", "machines",
            "overrides", "workloads", "policies", "sweep", "epoch", "max_time", "swaps", "report");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final Pattern SWAP_AT = Pattern.compile("(kernel|epoch)\\s+\\d+|\\d.*");
    private static final long DEFAULT_EPOCH_PS = 10_000_000L; // 10 us
    /**
     * Every epoch samples the time series: below 1 ns (about a GPU cycle) there is nothing new to sample
     * and the run drowns in rows (5 ps made a tiny run take 81 s and write 238 MB). Above 1000 s the
     * next epoch's time could overflow the clock.
     */
    private static final long MIN_EPOCH_PS = 1_000L, MAX_EPOCH_PS = 1_000_000_000_000_000L;
    /** A policy key that is no parameter: the slot follows the highest-ranked provider (docs/study-files.md). */
    static final String FOLLOW = "follow", HIGHEST_RANKED = "highest-ranked";

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
        return new Parse(file, file.toString()).run();
    }

    /**
     * Parses a copy of a study as if it were the original named {@code display} (a batch task parses the
     * copy in its results folder; messages and config.json name files as the local run did).
     */
    public Study parse(Path file, String display) throws StudyException {
        return new Parse(file, display).run();
    }

    /** The state of one parse. */
    private final class Parse {
        final Path file;
        final String display;
        YamlDoc doc;
        Map<String, NodeTuple> top;
        final List<MachineTree> machines = new ArrayList<>();
        final List<WorkloadChoice> workloadChoices = new ArrayList<>();
        /** Where each of {@link #workloadChoices} is written (its entry of workloads:). */
        final List<Node> workloadNodes = new ArrayList<>();
        final Map<Slot, PolicySpec> baseSpecs = new EnumMap<>(Slot.class);
        final List<SweepDim> dims = new ArrayList<>();
        final List<SweepDim> policyDims = new ArrayList<>();
        /** Slots whose policy follows the highest-ranked installed provider ({@code follow: highest-ranked}). */
        final java.util.Set<Slot> follow = java.util.EnumSet.noneOf(Slot.class);
        Node policiesNode;

        Parse(Path file, String display) {
            this.file = file;
            this.display = display;
        }

        Study run() throws StudyException {
            if (!Files.isRegularFile(file))
                throw new StudyException(display, 0, 0, "", Files.isDirectory(file) ? "a folder, not a study file (name a .yaml file in it)"
                        : Files.exists(file) ? "not a regular file (a study is a YAML file)" : "study file not found");
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
                doc = YamlDoc.load(file, display);
            } catch (IOException e) {
                throw new StudyException(display, 0, 0, "", "cannot read: " + e.getMessage());
            }
            if (!(doc.root instanceof MappingNode))
                throw doc.error(doc.root, "", "a study is a mapping of keys (" + String.join(", ", KEYS) + ")");
            top = doc.entries(doc.root, "");
            // Independent parts are all checked, so one validate reports every error they hold; a part that
            // depends on another (overrides on machines, the sweep on machines and policies) waits for it.
            for (Map.Entry<String, NodeTuple> e : top.entrySet())
                if (!KEYS.contains(e.getKey()))
                    errors.add(doc.error(e.getValue().getKeyNode(), e.getKey(), "unknown key '" + e.getKey() + "' (known: " + String.join(", ", KEYS) + ")"));

            String name = check(this::studyName);
            List<Long> seeds = check(this::seeds);
            Long epoch = check(() -> time("epoch", DEFAULT_EPOCH_PS, MIN_EPOCH_PS, MAX_EPOCH_PS));
            Long maxTime = check(() -> time("max_time", 0, 1, Long.MAX_VALUE));
            boolean machinesOk = ok(this::machines) && ok(this::overrides);
            ok(this::workloadsSection);
            boolean policiesOk = policiesSection();
            if (machinesOk && policiesOk) ok(this::sweepSection);
            if (!errors.isEmpty()) {
                // the machines are otherwise built with the runs; check them now so that their errors come too
                if (machinesOk) for (MachineTree t : machines) check(() -> machineAt(t, new int[dims.size()]));
                throw StudyException.of(errors);
            }
            List<Object> swaps = swaps();
            List<String> sweepColumns = new ArrayList<>();
            for (SweepDim d : dims) if (d.hasColumn()) sweepColumns.add(d.key());
            dims.addAll(policyDims);
            List<PlannedRun> runs = expand(seeds);
            refuseTwins(runs);
            refuseUnfitting(runs);
            refuseMixesMachinesCannotRun(runs);
            refuseUnknownParts(runs, swaps);
            refuseUnreachedKernels(runs, swaps);
            refuseUnfitBlocks(runs);
            List<Object> report = ReportSection.read(doc, value("report"), sweepColumns, runs, begun);
            List<String> columns = new ArrayList<>();
            for (SweepDim d : dims) if (d.hasColumn()) columns.add(d.key());
            int points = 1;
            for (SweepDim d : dims) points *= d.size();
            String shape = machines.size() + " machine" + (machines.size() == 1 ? "" : "s") + " x " + workloadChoices.size()
                    + " workload" + (workloadChoices.size() == 1 ? "" : "s") + " x " + points + " sweep point" + (points == 1 ? "" : "s")
                    + " x " + seeds.size() + " seed" + (seeds.size() == 1 ? "" : "s") + " = " + runs.size() + " run" + (runs.size() == 1 ? "" : "s");
            return new Study(name, file, display, org.hmsim.platform.kernel.results.Sha256.of(bytes), seeds, epoch, maxTime, columns, runs, swaps, report, shape, follow);
        }

        /** Errors found so far in parts checked side by side. */
        final List<StudyException> errors = new ArrayList<>();

        interface Part<T> {
            T read() throws StudyException;
        }

        interface Step {
            void read() throws StudyException;
        }

        /** {@link #check} for a part that sets fields rather than answering a value; whether it was right. */
        boolean ok(Step step) {
            return check(() -> {
                step.read();
                return true;
            }) != null;
        }

        /** Reads one part of the study; on an error, notes it and answers null so that the other parts are still checked. */
        <T> T check(Part<T> part) {
            try {
                return part.read();
            } catch (StudyException e) {
                errors.add(e);
                return null;
            }
        }

        Node value(String key) { return top.containsKey(key) ? top.get(key).getValueNode() : null; }

        Node keyNode(String key) { return top.get(key).getKeyNode(); }

        String studyName() throws StudyException {
            Node n = value("study");
            if (n == null) throw new StudyException(display, 1, 1, "study", "missing: every study needs a name (its results folder): study: my-study");
            String s = scalarText(n, "study");
            if (!NAME.matcher(s).matches())
                throw doc.error(n, "study", "'" + s + "' cannot name a folder: use letters, digits, '.', '_' and '-'");
            return s;
        }

        List<Long> seeds() throws StudyException {
            Node one = value("seed"), many = value("seeds");
            if (one != null && many != null) throw doc.error(keyNode("seeds"), "seeds", "give either seed or seeds, not both");
            if (one != null) return List.of(wholeNumber(one, "seed"));
            if (many == null) return List.of(1L);
            if (!(many instanceof SequenceNode s) || s.getValue().isEmpty())
                throw doc.error(many, "seeds", "expected a list of seeds: seeds: [1, 2, 3]");
            List<Long> l = new ArrayList<>();
            for (int i = 0; i < s.getValue().size(); i++) {
                long v = wholeNumber(s.getValue().get(i), "seeds[" + i + "]");
                if (l.contains(v)) throw doc.error(s.getValue().get(i), "seeds[" + i + "]", "seed " + v + " is listed twice");
                l.add(v);
            }
            return List.copyOf(l);
        }

        /** A duration in [min, max] ps, written with its unit. */
        long time(String key, long def, long min, long max) throws StudyException {
            Node n = value(key);
            if (n == null) return def;
            Object v = scalar(n, key);
            // a bare number would be picoseconds, which nobody means by epoch: 5
            if (v instanceof Number)
                throw doc.error(n, key, "'" + YamlDoc.text(n) + "' has no unit: write the duration with one (10us, 2ms)");
            long ps;
            try {
                ps = Units.picoseconds(v.toString());
            } catch (IllegalArgumentException e) {
                throw doc.error(n, key, "'" + YamlDoc.text(n) + "' is not a duration (write it with a unit: 10us, 2ms): " + e.getMessage());
            }
            if (ps <= 0) throw doc.error(n, key, "must be greater than zero");
            if (ps < min || ps > max) throw doc.error(n, key, YamlDoc.text(n) + " is out of range [" + duration(min) + ", " + duration(max) + "]");
            return ps;
        }

        // ---- machines and overrides ----

        void machines() throws StudyException {
            Node one = value("machine"), many = value("machines");
            if (one != null && many != null) throw doc.error(keyNode("machines"), "machines", "give either machine or machines, not both");
            if (one == null && many == null)
                throw new StudyException(display, 1, 1, "machine", "missing: the machine file, relative to the study: machine: ../machines/small.yaml");
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

        /** Why a path named as a file is not one: a folder is not "not found". */
        private static String notAFile(Path p, String shown) {
            return Files.isDirectory(p) ? "is a folder, not a file (" + shown + "): name a file in it" : "not found (looked for " + shown + ")";
        }

        MachineTree loadMachine(Node n, String field) throws StudyException {
            String rel = scalarText(n, field);
            Path p = resolve(rel);
            String shown = shown(rel);
            if (!Files.isRegularFile(p)) throw doc.error(n, field, "machine file '" + rel + "' " + notAFile(p, shown));
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

        /** Per machine, each field an override set -> the key that set it (a sweep may not set it too). */
        final List<Map<String, String>> overridden = new ArrayList<>();

        void overrides() throws StudyException {
            Node n = value("overrides");
            if (n == null) return;
            for (int m = 0; m < machines.size(); m++) overridden.add(new LinkedHashMap<>());
            for (Map.Entry<String, NodeTuple> e : doc.entries(n, "overrides").entrySet()) {
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

        String inMachine(MachineTree t) {
            return machines.size() > 1 ? " (machine " + t.file + ")" : "";
        }

        // ---- workloads ----

        void workloadsSection() throws StudyException {
            Node n = value("workloads");
            if (n == null) throw new StudyException(display, 1, 1, "workloads", "missing: list the workloads to run: workloads: [stream]");
            List<Node> items = YamlDoc.items(n);
            if (items.isEmpty()) throw doc.error(n, "workloads", "the list of workloads is empty");
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                int at = i;
                WorkloadChoice w = check(() -> workload(items.get(at), "workloads[" + at + "]"));
                if (w == null) continue;
                // the same runs twice: double the time, and the report would average them as if they were seeds
                int twin = labels.indexOf(w.label());
                if (twin >= 0) errors.add(doc.error(items.get(i), "workloads[" + i + "]", twinMessage(w, workloadChoices.get(twin), twin)));
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
                String name = scalarText(n, field);
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
            String name = scalarText(nameNode, field + "." + key);
            Map<String, Object> params = new LinkedHashMap<>();
            Map<String, Node> nodes = new LinkedHashMap<>();
            for (Map.Entry<String, NodeTuple> p : e.entrySet()) {
                if (p.getKey().equals(key)) continue;
                params.put(p.getKey(), scalar(p.getValue().getValueNode(), field + "." + p.getKey()));
                nodes.put(p.getKey(), p.getValue().getValueNode());
            }
            WorkloadChoice choice;
            try {
                if (key.equals("name")) choice = workloads.resolve(name, params);
                else {
                    Path p = resolve(name);
                    if (!Files.isRegularFile(p))
                        throw doc.error(nameNode, field + "." + key, (key.equals("file") ? "workload file '" : "trace '") + name + "' " + notAFile(p, shown(name)));
                    choice = key.equals("trace") ? workloads.resolveTrace(p, shown(name), params) : workloads.resolveFile(p, shown(name), params);
                }
            } catch (InvalidChoiceException ex) {
                StudyException inFile = key.equals("file") ? located(ex.getCause(), shown(name)) : null;
                if (inFile != null) throw inFile;
                String param = ex.parameter();
                if (param != null && nodes.containsKey(param)) throw doc.error(nodes.get(param), field + "." + param, ex.getMessage());
                throw doc.error(nameNode, field + "." + key, ex.getMessage());
            }
            bareTimes(choice.entry().parameters(), params, nodes, p -> field + "." + p);
            return choice;
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
            String label = e.containsKey("label") ? scalarText(e.get("label").getValueNode(), field + ".label") : null;
            if (label != null && !label.matches("[A-Za-z0-9_.-]+"))
                throw doc.error(e.get("label").getValueNode(), field + ".label", "a mix's label is a name of letters, digits and _ . - (as a workload's), got '" + label + "'");
            return WorkloadRegistry.mix(label, programs);
        }

        /**
         * A time parameter written as a bare number would be picoseconds ({@code gpu_fault: 20} is 20 ps),
         * the trap {@code epoch: 5} was: only 0 may be written without a unit. The API still takes
         * numbers, which is how providers give their defaults.
         */
        void bareTimes(List<ParamSpec> specs, Map<String, Object> given, Map<String, Node> nodes, Function<String, String> field) throws StudyException {
            for (ParamSpec spec : specs) {
                Node n = nodes.get(spec.name());
                if (spec.type() == ParamType.TIME && n != null && given.get(spec.name()) instanceof Number v && v.doubleValue() != 0)
                    throw doc.error(n, field.apply(spec.name()), "'" + YamlDoc.text(n) + "' has no unit: write the duration with one (20us, 100ns)");
            }
        }

        /**
         * An error the workload-file reader located (it has line(), column(), field(), problem()), kept
         * at its own place in that file; null if it is not located.
         */
        StudyException located(Throwable t, String shownFile) {
            if (t == null) return null;
            try {
                // several bad parts of one file: each at its own line
                if (t.getClass().getMethod("all").invoke(t) instanceof List<?> all && all.size() > 1) {
                    List<StudyException> each = new ArrayList<>();
                    for (Object e : all) {
                        StudyException one = e instanceof Throwable x && x != t ? located(x, shownFile) : null;
                        if (one == null) return null;
                        each.add(one);
                    }
                    return StudyException.of(each);
                }
            } catch (ReflectiveOperationException | ClassCastException e) {
                // a provider's own exception type without all(): one error
            }
            try {
                int line = (Integer) t.getClass().getMethod("line").invoke(t);
                int col = (Integer) t.getClass().getMethod("column").invoke(t);
                String f = (String) t.getClass().getMethod("field").invoke(t);
                String problem = (String) t.getClass().getMethod("problem").invoke(t);
                return new StudyException(shownFile, line, col, f, problem);
            } catch (ReflectiveOperationException | ClassCastException e) {
                return null;
            }
        }

        // ---- policies and sweeps ----

        /** Reads every slot's entry, noting each one's error; whether all were good (the sweep needs them). */
        boolean policiesSection() {
            policiesNode = value("policies");
            if (policiesNode == null) return true;
            int before = errors.size();
            Map<String, NodeTuple> entries = check(() -> doc.entries(policiesNode, "policies"));
            if (entries != null) for (Map.Entry<String, NodeTuple> e : entries.entrySet()) ok(() -> policyEntry(e));
            return errors.size() == before;
        }

        /** One slot's entry of {@code policies:}: a policy, a sweep of policies, or follow. */
        void policyEntry(Map.Entry<String, NodeTuple> e) throws StudyException {
            Slot slot = slot(e.getKey(), e.getValue().getKeyNode(), "policies." + e.getKey());
            String field = "policies." + slot.id();
            Node v = e.getValue().getValueNode();
            if (v instanceof MappingNode && doc.entries(v, field).containsKey("sweep")) {
                Map<String, NodeTuple> m = doc.entries(v, field);
                if (m.size() != 1) throw doc.error(v, field, "a policy sweep has only the key sweep: {sweep: [local, interleave]}");
                SweepDim.PolicyChoice dim = choiceDim(field, slot, m.get("sweep").getValueNode(), field + ".sweep");
                // names and parameter types checked now, with the other parts; the provider's own check once a sweep's values are in (policiesAt)
                for (PolicySpec spec : dim.specs()) resolve(slot, spec, false);
                policyDims.add(dim);
            } else if (v instanceof MappingNode && doc.entries(v, field).containsKey(FOLLOW)) {
                Map<String, NodeTuple> m = doc.entries(v, field);
                Node f = m.get(FOLLOW).getValueNode();
                if (!(f instanceof ScalarNode sf) || !sf.getValue().equals(HIGHEST_RANKED))
                    throw doc.error(f, field + "." + FOLLOW, "a slot can follow only 'highest-ranked': {follow: highest-ranked} or {follow: highest-ranked, name: lru}");
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
            if (n instanceof ScalarNode) return new PolicySpec(scalarText(n, field), n, Map.of(), Map.of(), Map.of(), field);
            Map<String, NodeTuple> e = doc.entries(n, field);
            if (!e.containsKey("name")) throw doc.error(n, field, "a policy with parameters needs its name: {name: ratio, fast_percent: 70}");
            Node nameNode = e.get("name").getValueNode();
            Map<String, Object> params = new LinkedHashMap<>();
            Map<String, Node> nodes = new LinkedHashMap<>();
            Map<String, String> fields = new LinkedHashMap<>();
            for (Map.Entry<String, NodeTuple> p : e.entrySet()) {
                if (p.getKey().equals("name") || (p.getKey().equals(FOLLOW) && field.indexOf('[') < 0 && field.startsWith("policies."))) continue;
                params.put(p.getKey(), scalar(p.getValue().getValueNode(), field + "." + p.getKey()));
                nodes.put(p.getKey(), p.getValue().getValueNode());
                fields.put(p.getKey(), field + "." + p.getKey());
            }
            return new PolicySpec(scalarText(nameNode, field + ".name"), nameNode, params, nodes, fields, field);
        }

        void sweepSection() throws StudyException {
            Node n = value("sweep");
            if (n == null) return;
            // per machine: canonical field -> the sweep key that set it (two spellings of one field would
            // leave the later value in the machine while the run is labelled with both)
            List<Map<String, String>> swept = new ArrayList<>();
            for (int m = 0; m < machines.size(); m++) swept.add(new LinkedHashMap<>());
            for (Map.Entry<String, NodeTuple> e : doc.entries(n, "sweep").entrySet()) {
                String key = e.getKey();
                String field = "sweep." + key;
                Node keyNode = e.getValue().getKeyNode();
                Node list = e.getValue().getValueNode();
                if (key.startsWith("policies.")) {
                    String rest = key.substring("policies.".length());
                    int dot = rest.indexOf('.');
                    Slot slot = slot(dot < 0 ? rest : rest.substring(0, dot), keyNode, field);
                    if (dot < 0) {
                        for (SweepDim d : policyDims)
                            if (d instanceof SweepDim.PolicyChoice c && c.slot() == slot)
                                throw doc.error(keyNode, field, "the " + slot.id() + " policy is already swept under policies");
                        dims.add(choiceDim(key, slot, list, field));
                    } else {
                        List<Node> items = values(list, field);
                        List<Object> vals = new ArrayList<>();
                        for (int i = 0; i < items.size(); i++) vals.add(scalar(items.get(i), field + "[" + i + "]"));
                        dims.add(new SweepDim.PolicyParam(key, slot, rest.substring(dot + 1), vals, items));
                    }
                } else {
                    String path = key.startsWith("machine.") ? key.substring("machine.".length()) : key;
                    List<Node> items = values(list, field);
                    List<Object> vals = new ArrayList<>();
                    for (int i = 0; i < items.size(); i++) {
                        Object v = doc.plain(items.get(i), "", null);
                        // a machine field left empty would silently take hmsim's built-in default (not the machine file's)
                        String empty = emptyLeaf(v, field + "[" + i + "]");
                        if (empty != null) throw doc.error(items.get(i), empty, "has no value");
                        vals.add(v);
                    }
                    for (int m = 0; m < machines.size(); m++) {
                        MachineTree t = machines.get(m);
                        try {
                            if (!begun && m < overridden.size()) refuseOverridden(t, path, vals, overridden.get(m), keyNode, field);
                            for (String target : t.targets(path)) { // throws for a path the machine lacks
                                String other = overlapping(swept.get(m), target);
                                if (other != null)
                                    throw doc.error(keyNode, field, "sets the same machine field as sweep." + other + " (" + target + ")"
                                            + inMachine(t) + "; sweep each field once");
                                swept.get(m).put(target, key);
                            }
                        } catch (MachineTree.PathException ex) {
                            throw doc.error(keyNode, field, "no such machine field: " + ex.getMessage() + inMachine(t));
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
                    String fixed = overlapping(overrides, target);
                    if (fixed != null)
                        throw doc.error(keyNode, field, "sets the same machine field as " + fixed + " (" + target + ")" + inMachine(t)
                                + ", whose value no run would keep; give the field in one place");
                }
        }

        /** The sweep key whose field is {@code target}, contains it or lies inside it; null if none. */
        static String overlapping(Map<String, String> swept, String target) {
            for (Map.Entry<String, String> e : swept.entrySet()) {
                String f = e.getKey();
                if (f.equals(target) || target.startsWith(f + ".") || f.startsWith(target + ".")) return e.getValue();
            }
            return null;
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

        // ---- swaps and report (validated in shape, stored) ----

        List<Object> swaps() throws StudyException {
            Node n = value("swaps");
            if (n == null) return List.of();
            if (!(n instanceof SequenceNode s)) throw doc.error(n, "swaps", "expected a list: - {at: kernel 2, slot: placement, to: bw-aware}");
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < s.getValue().size(); i++) {
                Node item = s.getValue().get(i);
                String field = "swaps[" + i + "]";
                Map<String, NodeTuple> e = doc.entries(item, field);
                for (String k : e.keySet())
                    if (!List.of("at", "every", "slot", "to", "between").contains(k))
                        throw doc.error(e.get(k).getKeyNode(), field + "." + k, "unknown key '" + k + "' (a swap has at, slot, to; or every, slot, between)");
                // at/to beside every/between: said as such, not as a key of the other form missing (found by a docs audit)
                if ((e.containsKey("at") || e.containsKey("to")) && (e.containsKey("every") || e.containsKey("between"))) {
                    String first = e.containsKey("at") ? "at" : "to", second = e.containsKey("every") ? "every" : "between";
                    throw doc.error(e.get(second).getKeyNode(), field + "." + second, "a swap has either at and to, or every and between, not both ("
                            + first + " and " + second + " given): {at: kernel 2, slot: placement, to: bw-aware} or {every: 4 epochs, slot: replacement, between: [lru, random]}");
                }
                boolean every = e.containsKey("every");
                List<String> need = every ? List.of("every", "slot", "between") : List.of("at", "slot", "to");
                for (String k : need)
                    if (!e.containsKey(k)) throw doc.error(item, field, "missing '" + k + "': {at: kernel 2, slot: placement, to: bw-aware} or {every: 4 epochs, slot: replacement, between: [lru, random]}");
                if (e.containsKey("at") == every || e.containsKey("to") == every || e.containsKey("between") != every)
                    throw doc.error(item, field, "a swap has either at and to, or every and between");
                Node slotNode = e.get("slot").getValueNode();
                Slot slot = slot(scalarText(slotNode, field + ".slot"), slotNode, field + ".slot");
                if (every) {
                    String ev = scalarText(e.get("every").getValueNode(), field + ".every");
                    if (!ev.trim().matches("[1-9]\\d*\\s+epochs?"))
                        throw doc.error(e.get("every").getValueNode(), field + ".every", "'" + ev + "' is not a period: N epochs (N >= 1)");
                    count(e.get("every").getValueNode(), field + ".every", ev);
                    Node b = e.get("between").getValueNode();
                    if (!(b instanceof SequenceNode bs) || bs.getValue().size() < 2)
                        throw doc.error(b, field + ".between", "expected a list of at least two policies: [lru, random]");
                    for (int j = 0; j < bs.getValue().size(); j++)
                        resolve(slot, spec(bs.getValue().get(j), field + ".between[" + j + "]"));
                } else {
                    String at = scalarText(e.get("at").getValueNode(), field + ".at");
                    if (!SWAP_AT.matcher(at.trim()).matches())
                        throw doc.error(e.get("at").getValueNode(), field + ".at", "'" + at + "' is not a swap point: kernel N, epoch N, or a simulated time (20us)");
                    if (!at.trim().matches("\\d.*")) count(e.get("at").getValueNode(), field + ".at", at);
                    if (at.trim().matches("epoch\\s+0+"))
                        throw doc.error(e.get("at").getValueNode(), field + ".at", "'" + at + "' never comes: epochs count from 1 (epoch 1 ends at the first epoch boundary)");
                    if (at.trim().matches("\\d.*")) {
                        try {
                            Units.picoseconds(at.trim());
                        } catch (RuntimeException ex) {
                            throw doc.error(e.get("at").getValueNode(), field + ".at", "'" + at + "' is not a simulated time (write it with a unit: 20us): " + ex.getMessage());
                        }
                    }
                    resolve(slot, spec(e.get("to").getValueNode(), field + ".to"));
                }
                out.add(doc.plain(item, "", null));
            }
            return List.copyOf(out);
        }

        /** The count N in "kernel N", "epoch N" or "N epochs" must fit in 64 bits, or the run would fail to read it. */
        void count(Node n, String field, String text) throws StudyException {
            java.util.regex.Matcher m = Pattern.compile("\\d+").matcher(text);
            if (m.find() && new BigInteger(m.group()).bitLength() > 63)
                throw doc.error(n, field, "'" + text.trim() + "': " + m.group() + " is out of range [0, " + Long.MAX_VALUE + "]");
        }

        List<Object> listOf(String key) throws StudyException {
            Node n = value(key);
            if (n == null) return List.of();
            if (!(n instanceof SequenceNode)) throw doc.error(n, key, "expected a list");
            @SuppressWarnings("unchecked")
            List<Object> l = (List<Object>) doc.plain(n, "", null);
            return List.copyOf(l);
        }

        // ---- expansion ----

        /** Errors gathered over the sweep's points before they are said (the same error at every point is said once). */
        static final int MAX_EXPANSION_ERRORS = 50;

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
                    Node at = value("machines") instanceof SequenceNode s && i < s.getValue().size() ? s.getValue().get(i) : value("machines");
                    throw doc.error(at, "machines[" + i + "]", same + "machine files " + twin.machine().file() + " and " + r.machine().file()
                            + " describe the same machine (the same name: and values): list it once");
                }
                if (twin.workload() != r.workload()) {
                    int i = 0;
                    while (i < workloadChoices.size() && workloadChoices.get(i) != r.workload()) i++;
                    if (i < workloadNodes.size())
                        throw doc.error(workloadNodes.get(i), "workloads[" + i + "]", same + "a workload is listed twice, spelt two ways");
                }
                String at = firstKey("sweep", "policies", "workloads");
                throw originOf(at).error(at, same + "a value is listed twice, spelt two ways");
            }
        }

        /** The first of {@code keys} the study has at its top level (the last if none), for an error about the whole study. */
        String firstKey(String... keys) {
            for (String k : keys) if (value(k) != null) return k;
            return keys[keys.length - 1];
        }

        /** Where top-level key {@code key}'s value starts, or the file's start if the study has no such key. */
        Origin originOf(String key) {
            Node at = value(key);
            return at == null ? Origin.start(display) : doc.at(at, "");
        }

        /**
         * A policy parameter that does not fit a run's machine or workload (a pool it lacks, a granularity beyond its page,
         * an allocation it does not make): checked by the provider against each machine and workload of the study
         * ({@link org.hmsim.api.policy.PolicyProvider#check(org.hmsim.api.policy.Params, org.hmsim.api.policy.RunFacts)}),
         * for the runs' policies and the scripted swaps' targets (swapped in mid-run, one failed the run there), since
         * every run of the pair would fail.
         */
        void refuseUnknownParts(List<PlannedRun> runs, List<Object> swaps) throws StudyException {
            List<PolicyChoice> swapTargets = swapTargets(swaps);
            java.util.Set<List<Object>> checked = new java.util.HashSet<>();
            for (PlannedRun r : runs) {
                var m = r.machine().config();
                List<org.hmsim.api.workload.AllocationSpec> specs = allocationsOf(r);
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
                throw originOf(field.equals("swaps") ? "swaps" : firstKey("policies", "sweep")).error(field,
                        what + c.label() + " on machine " + m.name() + (facts.knowsAllocations() ? " with workload " + ((WorkloadChoice) pair.get(2)).label() : "") + ": " + e.getMessage());
            }
        }

        /** The policies the scripted swaps go to ({@code to}, or each of {@code between}), as resolved; swaps() reported those that are not. */
        List<PolicyChoice> swapTargets(List<Object> swaps) {
            List<PolicyChoice> out = new ArrayList<>();
            for (Object o : swaps) {
                if (!(o instanceof Map<?, ?> sw)) continue;
                Slot slot = Slot.byId(String.valueOf(sw.get("slot")));
                List<?> targets = sw.get("between") instanceof List<?> l ? l : java.util.Arrays.asList(sw.get("to"));
                for (Object to : targets) {
                    String name = to instanceof Map<?, ?> tm ? String.valueOf(tm.get("name")) : String.valueOf(to);
                    Map<String, Object> params = new LinkedHashMap<>();
                    if (to instanceof Map<?, ?> tm) tm.forEach((k, v) -> { if (!"name".equals(k)) params.put(String.valueOf(k), v); });
                    try {
                        if (slot != null) out.add(policies.resolve(slot, name, params));
                    } catch (RuntimeException unresolved) {
                        // swaps() said so already
                    }
                }
            }
            return out;
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
                throw originOf("workloads").error("workloads", r.workload().label() + " allocates " + pages + " pages of " + page + " bytes, more than machine "
                        + m.name() + "'s pools hold (" + frames + " frames" + (m.gpus() > 1 ? ", page groups of every GPU memory's smallest frame count" : "")
                        + "): every run of it would fail as it starts; a smaller input or larger pools");
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
        Built builtOf(PlannedRun r) {
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
                    throw originOf("workloads").error("workloads", r.workload().label() + ": a thread block of kernel " + k.kernel() + " ("
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
                    throw originOf("swaps").error("swaps[" + i + "].at", "'" + at + "' is never reached: workload " + r.workload().label()
                            + " launches " + b.kernels() + " kernel" + (b.kernels() == 1 ? "" : "s") + " with seed " + r.seed()
                            + " (0-based indices 0 to " + (b.kernels() - 1) + "; the count may depend on the seed)");
                }
            }
        }

        /** Every point of the cartesian product, the last dimension varying fastest. */
        /**
         * A study of more than {@link #MAX_RUNS} runs is refused before its runs are laid out: a sweep typed by mistake
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
            if (total <= MAX_RUNS) return;
            String field = value("sweep") != null ? "sweep" : value("policies") != null ? "policies" : "workloads";
            throw doc.error(keyNode(field), field,
                    (total < 1e15 ? Long.toString((long) total) : String.format(java.util.Locale.ROOT, "%.3g", total))
                            + " runs (" + shape + "): at most " + MAX_RUNS + " runs are allowed in one study");
        }

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
                    throw doc.error(at, "sweep." + m.key(), "no such machine field: " + ex.getMessage() + inMachine(t));
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
            String at = point.isEmpty() || swept ? "" : " (at the sweep point " + point + " of " + display + ")";
            return o.error(field, e.reason() + (fromMachineFile ? "" : inMachine(t)) + at);
        }

        Map<Slot, PolicyChoice> policiesAt(int[] p) throws StudyException {
            Map<Slot, PolicyChoice> out = new EnumMap<>(Slot.class);
            for (Slot slot : Slot.values()) {
                PolicySpec spec = baseSpecs.get(slot);
                for (int d = 0; d < dims.size(); d++)
                    if (dims.get(d) instanceof SweepDim.PolicyChoice c && c.slot() == slot) spec = c.specs().get(p[d]);
                for (int d = 0; d < dims.size(); d++) {
                    if (!(dims.get(d) instanceof SweepDim.PolicyParam pp) || pp.slot() != slot) continue;
                    if (spec == null) spec = new PolicySpec(Defaults.name(slot), null, Map.of(), Map.of(), Map.of(), "policies." + slot.id());
                    spec = spec.with(pp.param(), pp.values().get(p[d]), pp.nodes().get(p[d]), "sweep." + pp.key());
                }
                out.put(slot, spec == null ? defaultPolicy(slot) : resolve(slot, spec));
            }
            return out;
        }

        PolicyChoice defaultPolicy(Slot slot) throws StudyException {
            try {
                return policies.resolveDefault(slot);
            } catch (InvalidChoiceException e) {
                Node at = policiesNode != null ? keyNode("policies") : null;
                Origin o = at == null ? Origin.start(display) : doc.at(at, "");
                throw o.error("policies." + slot.id(), "no policy given and the default is not available: " + e.getMessage());
            }
        }

        PolicyChoice resolve(Slot slot, PolicySpec spec) throws StudyException { return resolve(slot, spec, true); }

        /** {@code providerCheck}: also the provider's own check of the parameters (false for a spec a sweep may complete). */
        PolicyChoice resolve(Slot slot, PolicySpec spec, boolean providerCheck) throws StudyException {
            PolicyChoice choice;
            try {
                choice = policies.resolve(slot, spec.name(), spec.params(), providerCheck);
            } catch (InvalidChoiceException e) {
                String param = e.parameter();
                if (param != null && spec.paramNodes().containsKey(param))
                    throw doc.error(spec.paramNodes().get(param), spec.paramFields().get(param), e.getMessage());
                Origin o = spec.nameNode() != null ? doc.at(spec.nameNode(), "") : Origin.start(display);
                throw o.error(spec.field(), e.getMessage());
            }
            bareTimes(choice.entry().parameters(), spec.params(), spec.paramNodes(), spec.paramFields()::get);
            return choice;
        }

        // ---- scalars and paths ----

        Object scalar(Node n, String field) throws StudyException {
            if (!(n instanceof ScalarNode)) throw doc.error(n, field, "expected a single value, found " + YamlDoc.kind(n));
            Object v = doc.scalar(n);
            if (v == null) throw doc.error(n, field, "has no value");
            return v;
        }

        /** A name or path as written ({@code study: 1e3} is "1e3", not the number 1000.0 it would read as). */
        String scalarText(Node n, String field) throws StudyException {
            Object v = scalar(n, field);
            String s = (n instanceof ScalarNode sn ? sn.getValue() : v.toString()).trim();
            if (s.isEmpty()) throw doc.error(n, field, "is empty");
            return s;
        }

        long wholeNumber(Node n, String field) throws StudyException {
            Object v = scalar(n, field);
            if (v instanceof Integer || v instanceof Long) return ((Number) v).longValue();
            if (v instanceof BigInteger b && b.bitLength() < 64) return b.longValue();
            throw doc.error(n, field, "expected a whole number, found '" + YamlDoc.text(n) + "'");
        }

        /** A path in the study relative to the study file's folder. */
        Path resolve(String rel) {
            Path parent = file.toAbsolutePath().getParent();
            return parent.resolve(rel).normalize();
        }

        /** How messages name a file the study refers to: relative to where the study was named from. */
        String shown(String rel) {
            Path parent = Path.of(display).getParent();
            return (parent == null ? Path.of(rel) : parent.resolve(rel)).normalize().toString();
        }
    }

    /** A bound in ps as a study would write it: 1ns, 1000s. */
    static String duration(long ps) {
        String[] units = {"s", "ms", "us", "ns"};
        long[] scale = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
        for (int i = 0; i < units.length; i++) if (ps % scale[i] == 0) return ps / scale[i] + units[i];
        return ps + "ps";
    }

}
