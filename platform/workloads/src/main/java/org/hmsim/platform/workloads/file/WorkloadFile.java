package org.hmsim.platform.workloads.file;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import org.hmsim.api.engine.Units;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.expr.Expr;
import org.hmsim.platform.workloads.file.Model.StepKind;
import org.hmsim.platform.workloads.file.Vars.Scope;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a workload file (YAML; schema in docs/workload-files.md) into a {@link WorkloadProvider}.
 * The file is composed to SnakeYAML nodes, not objects, so every problem is reported with its line,
 * column and field path as a {@link WorkloadFileException}; expressions are compiled once here.
 */
public final class WorkloadFile {
    private static final Pattern SIZE_LITERAL = Pattern.compile("\\s*[0-9]+(\\.[0-9]+)?\\s*[A-Za-z]*\\s*");

    private final String file;
    /** The params' variable slots; a name an expression looks up is recorded as used. */
    private final Map<String, Integer> paramSlots = new LinkedHashMap<>() {
        @Override public Integer get(Object name) {
            Integer slot = super.get(name);
            if (slot != null) usedParams.add((String) name);
            return slot;
        }
    };
    private final java.util.Set<String> usedParams = new java.util.HashSet<>();
    private final Map<String, Y> paramNodes = new LinkedHashMap<>();
    private final Map<String, Integer> allocIndex = new LinkedHashMap<>();
    private final List<Model.Allocation> allocs = new ArrayList<>();

    private WorkloadFile(String file) { this.file = file; }

    /** Reads and checks the file; the provider's name is the file's {@code name}. */
    public static WorkloadProvider load(Path path) {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new WorkloadFileException(path.toString(), 0, 0, "", "no such file");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new WorkloadFileException(path.toString(), 0, 0, "", "not UTF-8 text (a binary file?): workload files are read as UTF-8");
        } catch (IOException e) {
            throw new WorkloadFileException(path.toString(), 0, 0, "", "cannot read: " + e.getMessage());
        }
        return parse(text, path.getFileName().toString());
    }

    /** Parses workload-file text; {@code fileName} is used in error messages. */
    public static WorkloadProvider parse(String text, String fileName) {
        return new FileWorkloadProvider(new WorkloadFile(fileName).model(text));
    }

    private Model model(String text) {
        Node root;
        try {
            root = new Yaml(new LoaderOptions()).compose(new StringReader(text));
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            throw new WorkloadFileException(file, m == null ? 0 : m.getLine() + 1, m == null ? 0 : m.getColumn() + 1, "",
                    "not valid YAML: " + e.getProblem());
        } catch (YAMLException e) {
            throw new WorkloadFileException(file, 0, 0, "", "not valid YAML: " + e.getMessage());
        }
        if (root == null) throw new WorkloadFileException(file, 1, 1, "", "the file is empty");
        Y top = new Y(file, root, "");
        Map<String, Y> f = top.mapping(Y.fields("name", "description", "params", "iterations", "allocations", "kernels", "host"));
        if (!f.containsKey("name")) throw top.error("missing field 'name'");
        String name = f.get("name").name();
        String description = f.containsKey("description") ? f.get("description").scalar() : "workload file " + file;
        List<Model.Param> params = f.containsKey("params") ? params(f.get("params")) : List.of();
        // Past the parameters (every expression needs them), each allocation, each kernel's fields and each
        // step is read on its own, so that one validate lists every bad part of the file at once.
        Expr iterations = f.containsKey("iterations") ? part(() -> Vars.compile(f.get("iterations"), Scope.PARAMS, paramSlots)) : Expr.constant(1);
        Y allocList = required(top, f, "allocations");
        for (Y a : allocList.sequence()) {
            allocBeingRead = null;
            if (part(() -> allocation(a)) == null && allocBeingRead != null) brokenAllocs.add(allocBeingRead);
        }
        if (allocs.isEmpty() && brokenAllocs.isEmpty() && errors.isEmpty()) throw allocList.error("at least one allocation is needed");
        Y kernelList = required(top, f, "kernels");
        List<Model.Kernel> kernels = new ArrayList<>();
        for (Y k : kernelList.sequence()) {
            Model.Kernel kernel = part(() -> kernel(k));
            if (kernel != null) kernels.add(kernel);
        }
        if (kernels.isEmpty() && errors.isEmpty()) throw kernelList.error("at least one kernel is needed");
        List<Model.HostSpec> host = f.containsKey("host") ? part(() -> host(f.get("host"))) : null;
        // a parameter no expression reads: a study's values for it gave identical runs under different labels (review of silent inputs)
        if (errors.isEmpty())
            for (Map.Entry<String, Y> p : paramNodes.entrySet())
                if (!usedParams.contains(p.getKey()))
                    errors.add(p.getValue().error("no expression of this file uses parameter '" + p.getKey() + "': a value given for it would change nothing (use it, or remove it)"));
        WorkloadFileException.throwIfAny(errors);
        Model model = new Model(name, description, params, iterations, List.copyOf(allocs), kernels, file);
        model.iterationsNode = f.get("iterations");
        if (host != null) model.host = host;
        return model;
    }

    /** The errors of the parts read so far. */
    private final List<WorkloadFileException> errors = new ArrayList<>();
    /** Allocations whose name was read but not the rest: steps that use them are not reported again. */
    private final java.util.Set<String> brokenAllocs = new java.util.HashSet<>();
    private String allocBeingRead;

    /** A part in a use of a broken allocation: not an error of its own (the allocation's is reported). */
    private static final class UsesBrokenAllocation extends RuntimeException {
        UsesBrokenAllocation() { super(null, null, false, false); }
    }

    /** Reads one part of the file; a bad part adds its error and gives null. */
    private <T> T part(java.util.function.Supplier<T> read) {
        try {
            return read.get();
        } catch (WorkloadFileException e) {
            errors.addAll(e.all());
        } catch (UsesBrokenAllocation e) {
            // reported at the allocation
        }
        return null;
    }

    private static Y required(Y parent, Map<String, Y> f, String key) {
        Y y = f.get(key);
        if (y == null) throw parent.error("missing field '" + key + "'");
        return y;
    }

    // ---- params -------------------------------------------------------------------------------

    private List<Model.Param> params(Y y) {
        List<Model.Param> out = new ArrayList<>();
        Map<String, Y> entries = y.mapping(new AnyKey());
        for (Map.Entry<String, Y> e : entries.entrySet()) {
            String n = e.getKey();
            Y v = e.getValue();
            if (!n.matches("[A-Za-z_][A-Za-z0-9_]*")) throw v.error("parameter name '" + n + "' must be letters, digits and _");
            if (Vars.NAMES.contains(n) || n.equals("min") || n.equals("max"))
                throw v.error("parameter name '" + n + "' is reserved (built-in variables: " + String.join(", ", Vars.NAMES) + ", min, max)");
            long def, min = Long.MIN_VALUE, max = Long.MAX_VALUE;
            String doc = "workload-file parameter";
            if (v.isMapping()) {
                Map<String, Y> m = v.mapping(Y.fields("default", "min", "max", "doc"));
                def = required(v, m, "default").integer();
                if (m.containsKey("min")) min = m.get("min").integer();
                if (m.containsKey("max")) max = m.get("max").integer();
                if (m.containsKey("doc")) doc = m.get("doc").scalar();
                if (def < min || def > max) throw v.error("default " + def + " is outside [" + min + ", " + max + "]");
            } else {
                def = v.integer();
            }
            paramSlots.put(n, Vars.FIRST_PARAM + out.size());
            paramNodes.put(n, v);
            out.add(new Model.Param(n, def, min, max, doc));
        }
        return out;
    }

    /** Accepts every key (parameter names are free). */
    private static final class AnyKey extends java.util.AbstractSet<String> {
        @Override public boolean contains(Object o) { return true; }
        @Override public java.util.Iterator<String> iterator() { return java.util.Collections.emptyIterator(); }
        @Override public int size() { return 0; }
    }

    // ---- allocations ----------------------------------------------------------------------------

    private Model.Allocation allocation(Y y) {
        Map<String, Y> f = y.mapping(Y.fields("name", "size", "hint", "read_only", "elem", "contents", "compression_ratio"));
        String name = required(y, f, "name").name();
        if (allocIndex.containsKey(name) || brokenAllocs.contains(name)) throw f.get("name").error("allocation '" + name + "' is defined twice");
        allocBeingRead = name;
        Y sizeNode = required(y, f, "size");
        Expr size = size(sizeNode);
        AllocationHint hint = AllocationHint.NONE;
        if (f.containsKey("hint")) {
            String h = f.get("hint").scalar().trim().toUpperCase(Locale.ROOT);
            try {
                hint = AllocationHint.valueOf(h);
            } catch (IllegalArgumentException e) {
                throw f.get("hint").error("unknown hint '" + f.get("hint").scalar() + "' (use BO, CO, BW or none)");
            }
        }
        boolean ro = f.containsKey("read_only") && f.get("read_only").bool();
        int elem = f.containsKey("elem") ? elem(f.get("elem")) : 4;
        Model.Contents contents = f.containsKey("contents") ? contents(f.get("contents")) : null;
        double ratio = f.containsKey("compression_ratio") ? compressionRatio(f.get("compression_ratio")) : 0;
        allocIndex.put(name, allocs.size());
        Model.Allocation a = new Model.Allocation(name, size, sizeNode, hint, ro, elem, contents, ratio);
        allocs.add(a);
        return a;
    }

    /** How well the data compress: a number from 1 (incompressible) to 64 (a 4 KB page in 64 B). */
    private static double compressionRatio(Y y) {
        double r = y.real();
        if (!(r >= 1 && r <= 64)) throw y.error("compression_ratio " + y.scalar() + " is out of range [1, 64] (1 = incompressible)");
        return r;
    }

    /** A size literal with a unit (4MB, 4096, 1.5GB) or an expression over params (in bytes). */
    private Expr size(Y y) {
        String s = y.scalar();
        if (SIZE_LITERAL.matcher(s).matches()) {
            try {
                long bytes = Units.bytes(s);
                if (bytes <= 0) throw y.error("size must be > 0");
                return Expr.constant(bytes);
            } catch (IllegalArgumentException e) {
                throw y.error(e.getMessage());
            }
        }
        return Vars.compile(y, Scope.PARAMS, paramSlots);
    }

    private static int elem(Y y) {
        long e = y.integer();
        if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16) throw y.error("element size must be 1, 2, 4, 8 or 16 bytes, was " + e);
        return (int) e;
    }

    /** A draw's zipf exponent {@code s} (1 if not given), refused with a uniform draw, where it was ignored. */
    private double exponent(Map<String, Y> draw, boolean zipf) {
        if (!draw.containsKey("s")) return 1.0;
        if (!zipf) throw draw.get("s").error("s is the zipf exponent: it has no meaning with dist: uniform");
        return exponent(draw.get("s"));
    }

    private Model.Contents contents(Y y) {
        Map<String, Y> f = y.mapping(Y.fields("dist", "s", "range"));
        boolean zipf = dist(f.get("dist"));
        double s = exponent(f, zipf);
        Expr range = f.containsKey("range") ? Vars.compile(f.get("range"), Scope.PARAMS, paramSlots) : null;
        return new Model.Contents(zipf, s, range);
    }

    private static boolean dist(Y y) {
        if (y == null) return false;
        String d = y.scalar().trim();
        if (d.equals("uniform")) return false;
        if (d.equals("zipf")) return true;
        throw y.error("unknown distribution '" + d + "' (use uniform or zipf)");
    }

    private static double exponent(Y y) {
        double s = y.real();
        if (s < 0 || s > 10) throw y.error("zipf exponent must be in [0, 10], was " + s);
        return s;
    }

    // ---- kernels ----------------------------------------------------------------------------------

    private Model.Kernel kernel(Y y) {
        int before = errors.size();
        Map<String, Y> f = y.mapping(Y.fields("name", "grid", "block", "shared", "repeat", "loop", "steps"), errors);
        String name = part(() -> required(y, f, "name").name());
        Expr[] grid = part(() -> dims(required(y, f, "grid")));
        Expr[] block = part(() -> dims(required(y, f, "block")));
        Expr shared = f.containsKey("shared") ? part(() -> sharedSize(f.get("shared"))) : Expr.constant(0);
        Expr repeat = f.containsKey("repeat") ? part(() -> Vars.compile(f.get("repeat"), Scope.PARAMS, paramSlots)) : Expr.constant(1);
        Expr loop = f.containsKey("loop") ? part(() -> Vars.compile(f.get("loop"), Scope.LAUNCH, paramSlots)) : Expr.constant(1);
        Y stepList = part(() -> required(y, f, "steps"));
        if (stepList == null) return null;
        List<Model.Step> steps = new ArrayList<>();
        boolean skipped = false;
        for (Y s : stepList.sequence()) {
            Model.Step step = part(() -> step(s));
            if (step != null) steps.add(step);
            else skipped = true;
        }
        if (steps.isEmpty() && !skipped) throw stepList.error("a kernel needs at least one step");
        if (skipped || errors.size() > before || name == null || grid == null || block == null || shared == null || repeat == null || loop == null) return null;
        return new Model.Kernel(name, grid[0], grid[1], block[0], block[1], shared, repeat, loop, steps, y, f);
    }

    /** Shared memory per CTA: a size literal or an expression, and unlike an allocation it may be 0 (none). */
    private Expr sharedSize(Y y) {
        if (!SIZE_LITERAL.matcher(y.scalar()).matches()) return Vars.compile(y, Scope.PARAMS, paramSlots);
        try {
            return Expr.constant(Units.bytes(y.scalar()));
        } catch (IllegalArgumentException e) {
            throw y.error(e.getMessage());
        }
    }

    /** {@code N} or {@code [x, y]}; y is 1 when absent. */
    private Expr[] dims(Y y) {
        if (y.isSequence()) {
            List<Y> l = y.sequence();
            if (l.size() != 2) throw y.error("expected a count or [x, y], found a list of " + l.size());
            return new Expr[] {Vars.compile(l.get(0), Scope.PARAMS, paramSlots), Vars.compile(l.get(1), Scope.PARAMS, paramSlots)};
        }
        return new Expr[] {Vars.compile(y, Scope.PARAMS, paramSlots), Expr.constant(1)};
    }

    private static final List<String> STEP_KINDS = List.of("load", "store", "atomic", "compute", "barrier", "wait");

    private Model.Step step(Y y) {
        String kindName;
        Y body;
        if (y.isScalar()) {
            kindName = y.scalar().trim();
            body = null;
        } else {
            Map<String, Y> m = y.mapping(Y.fields(STEP_KINDS.toArray(String[]::new)));
            if (m.size() != 1) throw y.error("a step has exactly one of " + String.join(", ", STEP_KINDS));
            kindName = m.keySet().iterator().next();
            body = m.get(kindName);
        }
        if (!STEP_KINDS.contains(kindName)) throw y.error("unknown step '" + kindName + "' (use " + String.join(", ", STEP_KINDS) + ")");
        StepKind kind = StepKind.valueOf(kindName.toUpperCase(Locale.ROOT));
        int line = y.node.getStartMark().getLine() + 1, col = y.node.getStartMark().getColumn() + 1;
        String path = body == null ? y.path : body.path;
        switch (kind) {
            case BARRIER, WAIT -> {
                if (body != null && !(body.isScalar() && body.scalar().isEmpty()))
                    throw body.error("'" + kindName + "' takes no value");
                return new Model.Step(kind, null, kind == StepKind.WAIT, -1, 0, null, null, null, false, false, 0, null, -1, false, file, line, col, path);
            }
            case COMPUTE -> {
                if (body == null) throw y.error("compute needs a cycle count: compute: 10");
                Expr cycles, when = null;
                boolean wait = false;
                if (body.isMapping()) {
                    Map<String, Y> f = body.mapping(Y.fields("cycles", "wait", "when"));
                    cycles = Vars.compile(required(body, f, "cycles"), Scope.LAUNCH, paramSlots);
                    if (f.containsKey("wait")) wait = f.get("wait").bool();
                    // a warp none of whose threads take the branch skips its arithmetic, as a memory step's when does (compute
                    // issued in every warp: 76 % of a BFS model's instructions came from warps with no frontier vertex, a trial)
                    if (f.containsKey("when")) when = Vars.compile(f.get("when"), Scope.THREAD, paramSlots);
                } else {
                    cycles = Vars.compile(body, Scope.LAUNCH, paramSlots);
                }
                return new Model.Step(kind, cycles, wait, -1, 0, null, null, when, false, false, 0, null, -1, false, file, line, col, path);
            }
            default -> {
                if (body == null) throw y.error(kindName + " needs an access: " + kindName + ": {alloc: a, index: \"cta*256 + tid\"}");
                return memoryStep(kind, body, line, col);
            }
        }
    }

    private Model.Step memoryStep(StepKind kind, Y body, int line, int col) {
        Map<String, Y> f = body.mapping(Y.fields("alloc", "elem", "wait", "when", "wrap", "index", "strided", "random", "indirect"));
        int alloc = allocRef(required(body, f, "alloc"));
        // a read-only allocation is what the read-only policies (seed 000 Ch. 6) may replicate: a write to it would break them
        if ((kind == StepKind.STORE || kind == StepKind.ATOMIC) && allocs.get(alloc).readOnly())
            throw f.get("alloc").error("'" + allocs.get(alloc).name() + "' is read_only: a " + kind.name().toLowerCase(java.util.Locale.ROOT) + " may not write it");
        int elem = f.containsKey("elem") ? elem(f.get("elem")) : allocs.get(alloc).elem();
        boolean wait = f.containsKey("wait") && f.get("wait").bool();
        Expr when = f.containsKey("when") ? Vars.compile(f.get("when"), Scope.THREAD, paramSlots) : null;
        boolean wrap = f.containsKey("wrap") && f.get("wrap").bool();
        int patterns = (f.containsKey("index") ? 1 : 0) + (f.containsKey("strided") ? 1 : 0) + (f.containsKey("random") ? 1 : 0) + (f.containsKey("indirect") ? 1 : 0);
        if (patterns != 1) throw body.error("give exactly one access pattern: index, strided, random or indirect");
        String path = body.path;
        if (f.containsKey("index")) {
            Expr index = Vars.compile(f.get("index"), Scope.THREAD, paramSlots);
            return new Model.Step(kind, null, wait, alloc, elem, Model.Pattern.INDEX, index, when, wrap, false, 0, null, -1, false, file, line, col, path);
        }
        if (f.containsKey("strided")) {
            Y s = f.get("strided");
            Map<String, Y> sf = s.mapping(Y.fields("start", "stride", "step"));
            Expr start = sf.containsKey("start") ? Vars.compile(sf.get("start"), Scope.THREAD, paramSlots) : Expr.constant(0);
            Expr stride = sf.containsKey("stride") ? Vars.compile(sf.get("stride"), Scope.THREAD, paramSlots) : Expr.constant(1);
            Expr step = sf.containsKey("step") ? Vars.compile(sf.get("step"), Scope.THREAD, paramSlots) : Expr.constant(0);
            // index = start + (cta*threads + tid) * stride + i * step
            Expr gtid = Expr.sum(Expr.product(Expr.variable(Vars.CTA), Expr.variable(Vars.THREADS)), Expr.variable(Vars.TID));
            Expr index = Expr.sum(Expr.sum(start, Expr.product(gtid, stride)), Expr.product(Expr.variable(Vars.I), step));
            return new Model.Step(kind, null, wait, alloc, elem, Model.Pattern.INDEX, index, when, wrap, false, 0, null, -1, false, file, line, col, path);
        }
        if (f.containsKey("random")) {
            Y r = f.get("random");
            Map<String, Y> rf = r.mapping(Y.fields("dist", "s", "range"));
            boolean zipf = dist(rf.get("dist"));
            double s = exponent(rf, zipf);
            Expr range = rf.containsKey("range") ? Vars.compile(rf.get("range"), Scope.PARAMS, paramSlots) : null;
            return new Model.Step(kind, null, wait, alloc, elem, Model.Pattern.RANDOM, null, when, wrap, zipf, s, range, -1, false, file, line, col, path);
        }
        Y ind = f.get("indirect");
        Map<String, Y> inf = ind.mapping(Y.fields("through", "index", "load_index"));
        int through = allocRef(required(ind, inf, "through"));
        if (allocs.get(through).contents() == null)
            throw inf.get("through").error("allocation '" + allocs.get(through).name() + "' has no generated contents: give it contents: {dist: uniform} or {dist: zipf, s: 0.9}");
        Expr index = Vars.compile(required(ind, inf, "index"), Scope.THREAD, paramSlots);
        boolean loadIndex = !inf.containsKey("load_index") || inf.get("load_index").bool();
        // wait: true makes the index load wait for earlier loads (a chain col_idx[row_off[v] + i]); the gather always waits
        // for its index (wait was accepted and ignored here: an irregular-workload trial)
        return new Model.Step(kind, null, wait, alloc, elem, Model.Pattern.INDIRECT, index, when, wrap, false, 0, null, through, loadIndex, file, line, col, path);
    }

    /**
     * {@code host:} a list of CPU phases (platform/cpu; seed 001): {before: N|end or alongside: N, name, compute, streams: [{alloc, write,
     * stride}]}. Each phase, each of its fields and each stream is read on its own, so one validate lists all their errors
     * (a CPU-side trial needed five rounds for five).
     */
    private List<Model.HostSpec> host(Y list) {
        List<Model.HostSpec> out = new ArrayList<>();
        for (Y h : list.sequence()) {
            Model.HostSpec phase = part(() -> hostPhase(h, out.size()));
            if (phase != null) out.add(phase);
        }
        return List.copyOf(out);
    }

    private Model.HostSpec hostPhase(Y h, int index) {
        Map<String, Y> m = h.mapping(Y.fields("before", "alongside", "name", "compute", "streams"));
        int errorsBefore = errors.size();
        boolean alongside = m.containsKey("alongside");
        Y b = part(() -> {
            if (alongside && m.containsKey("before"))
                throw m.get("alongside").error("a host phase runs either before a launch or alongside one: give 'before' or 'alongside', not both");
            if (!alongside && !m.containsKey("before"))
                throw h.error("missing field 'before' (a launch index or 'end') or 'alongside' (a launch index): when the phase runs");
            return alongside ? m.get("alongside") : m.get("before");
        });
        Integer before = b == null ? null : part(() -> launchIndex(b, alongside));
        String name = m.containsKey("name") ? m.get("name").name() : "host" + index;
        Long compute = part(() -> {
            long c = m.containsKey("compute") ? m.get("compute").integer() : 1;
            if (c < 0 || c > 1_000_000) throw m.get("compute").error("compute must be in [0, 1000000] CPU cycles");
            return c;
        });
        List<Model.HostStream> streams = new ArrayList<>();
        Y list = part(() -> required(h, m, "streams"));
        if (list != null)
            for (Y s : list.sequence()) {
                Model.HostStream stream = part(() -> hostStream(s));
                if (stream != null) streams.add(stream);
            }
        if (errors.size() > errorsBefore || before == null || compute == null) return null;
        return new Model.HostSpec(before, alongside, name, (int) (long) compute, List.copyOf(streams), b);
    }

    /** A host phase's {@code before}: a launch index, or {@code end} (-1); {@code alongside}: a launch index. */
    private static int launchIndex(Y b, boolean alongside) {
        String field = alongside ? "alongside" : "before";
        if (b.scalar().trim().equals("end")) {
            if (alongside) throw b.error("alongside must be a launch index (0-based): a phase after the last kernel is 'before: end'");
            return -1;
        }
        long v = b.integer();
        if (v < 0 || v > Integer.MAX_VALUE - 1)
            throw b.error(field + " must be a launch index in [0, " + (Integer.MAX_VALUE - 1) + "]" + (alongside ? "" : " or 'end'") + ", is " + v);
        return (int) v;
    }

    private Model.HostStream hostStream(Y s) {
        Map<String, Y> sm = s.mapping(Y.fields("alloc", "write", "stride"));
        int errorsBefore = errors.size();
        Integer alloc = part(() -> allocRef(required(s, sm, "alloc")));
        Boolean write = part(() -> sm.containsKey("write") && sm.get("write").bool());
        Long stride = part(() -> {
            long v = sm.containsKey("stride") ? sm.get("stride").integer() : 16;
            if (v < 1 || v > 1 << 20) throw sm.get("stride").error("stride must be in [1, 1048576] bytes");
            return v;
        });
        if (errors.size() > errorsBefore || alloc == null || write == null || stride == null) return null;
        return new Model.HostStream(alloc, write, (int) (long) stride);
    }

    private int allocRef(Y y) {
        String n = y.scalar().trim();
        Integer i = allocIndex.get(n);
        if (i == null && brokenAllocs.contains(n)) throw new UsesBrokenAllocation();
        if (i == null) throw y.error("unknown allocation '" + n + "' (defined: " + String.join(", ", allocIndex.keySet()) + ")");
        return i;
    }
}
