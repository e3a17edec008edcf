package org.hmsim.platform.kernel.command;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.ParamType;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.Defaults;
import org.hmsim.platform.kernel.registry.InvalidChoiceException;
import org.hmsim.platform.kernel.registry.PolicyEntry;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code conform SLOT POLICY}: the conformance kit a plugin author runs on an installed policy (issue 4
 * item 5). Checks, each printed as PASS/FAIL: parameters declared and documented, validated (an unknown
 * name and values outside each numeric range are refused), determinism (two runs with the same seed on the
 * small preset give identical stats.json), state export/import (a swap from the policy to a fresh instance
 * of itself), surviving a swap in and out mid-run, and no thread left behind once its runs ended.
 * Exit 0 if all pass, 3 otherwise, 2 for a machine file that is bad or that the policy refuses.
 */
@Command(name = "conform", mixinStandardHelpOptions = true, description = "Checks an installed policy against the plugin contract: conform SLOT POLICY [--machine FILE].")
final class ConformCommand implements Callable<Integer> {
    private final Commands.Context ctx;

    @Parameters(index = "0", paramLabel = "SLOT") String slotId;
    @Parameters(index = "1", paramLabel = "POLICY") String policy;
    @Option(names = "--machine", paramLabel = "FILE", description = "machine preset for the runs (default: examples/machines/small.yaml of the installation, or, if the policy "
            + "refuses it, the first of the installation's other presets by name that it accepts: etc.yaml for a residency policy)")
    Path machine;
    @Option(names = "--work", paramLabel = "DIR", description = "where the check's studies and results go (default: a temporary folder)")
    Path work;

    @Option(names = "--param", paramLabel = "K=V", description = "a parameter of the policy for its runs (repeatable): with its defaults a "
            + "policy may do nothing on the short stream (a migration policy that moves no page), and its swap checks then prove little")
    List<String> given = new ArrayList<>();

    /** The policy's parameters for its runs, typed (--param), and as the study writes them ("" with none). */
    private Params chosen;
    private String chosenYaml = "";

    private int failed;

    private static final String STREAM_WORKLOAD = "{ name: stream, elements: 65536 }", APU_WORKLOAD = "{ name: apu-kmeans, elements: 4096 }",
            // a replacement policy is told of hits: a stream has none in L1 or L2, and a policy whose onHit threw passed
            REUSE_WORKLOAD = "{ name: bfs, nodes: 4096 }";
    /**
     * The workload of the check's runs: a GPU stream; an APU program for a coherence policy on a machine with a CPU side;
     * a graph walk with cache hits for a replacement policy.
     */
    private String workload = STREAM_WORKLOAD;

    ConformCommand(Commands.Context ctx) { this.ctx = ctx; }

    /**
     * The check's workload for a policy of {@code slot}: a coherence policy with a CPU side runs an APU program (its CPU
     * accesses checked too); a replacement policy the graph walk, which has cache hits; the rest a GPU stream, whose
     * arrays share the banks in different rows (a DRAM scheduler's is run with every page in one pool: see its placement).
     */
    static String workloadFor(Slot slot, boolean cpuSide) {
        return switch (slot) {
            case COHERENCE -> cpuSide ? APU_WORKLOAD : STREAM_WORKLOAD;
            case DRAM_SCHEDULER -> STREAM_WORKLOAD;
            case REPLACEMENT -> REUSE_WORKLOAD;
            default -> STREAM_WORKLOAD;
        };
    }

    @Override
    public Integer call() throws IOException {
        PrintStream o = ctx.out();
        Slot slot;
        PolicyEntry entry;
        try {
            slot = PolicyRegistry.slot(slotId);
            Map<String, Object> params = new java.util.LinkedHashMap<>();
            for (String kv : given) {
                int eq = kv.indexOf('=');
                if (eq <= 0) throw new InvalidChoiceException(null, "--param " + kv + " is not name=value");
                params.put(kv.substring(0, eq), kv.substring(eq + 1));
                chosenYaml += ", " + kv.substring(0, eq) + ": '" + kv.substring(eq + 1).replace("'", "''") + "'";
            }
            var choice = ctx.kernel().policies().resolve(slot, policy, params);
            entry = choice.entry();
            chosen = choice.params();
        } catch (InvalidChoiceException e) {
            // a value error names the parameter as typed (--param fast_percent=300), as sim:swap's does
            boolean named = e.parameter() != null && !e.getMessage().startsWith("unknown parameter") && !e.getMessage().contains(e.parameter());
            ctx.err().println("conform: " + (named ? "--param " + e.parameter() + ": " : "") + e.getMessage());
            return Commands.BAD_INPUT;
        }
        // the input (--machine, --work) is checked before any check runs: a misspelt --machine printed the parameter
        // checks' PASS lines first, then its error and exit 2
        Path presets = Path.of(System.getProperty("hmsim.home", ".")).resolve("examples/machines");
        Path m = machine != null ? machine : presets.resolve("small.yaml");
        if (!Files.isRegularFile(m)) {
            ctx.err().println("conform: no machine file " + m + " (use --machine)");
            return Commands.BAD_INPUT;
        }
        if (work != null && Files.exists(work) && (!Files.isDirectory(work) || !isEmpty(work))) {
            // the check writes its studies and results there: it must not write over what a user keeps (found by a review)
            ctx.err().println("conform: --work " + work + (Files.isDirectory(work) ? " is not empty" : " is not a folder")
                    + ": give a new or empty folder for the check's studies and results");
            return Commands.BAD_INPUT;
        }
        Path dir = work != null ? Files.createDirectories(work) : Files.createTempDirectory("hmsim-conform");
        // a bad machine file is the user's input error, not a failed check of the plugin
        org.hmsim.api.policy.RunFacts facts;
        try {
            facts = machineFacts(dir, "machine-check", m);
        } catch (org.hmsim.platform.kernel.study.StudyException e) {
            ctx.err().println("conform: --machine " + m + ": " + described(e, dir, "machine-check"));
            if (work == null) delete(dir);
            return Commands.BAD_INPUT;
        }
        if (machine == null && refuses(entry, facts)) { // a residency policy refuses small.yaml (no uvm:): every such check failed
            Preset accepted = firstAccepting(dir, entry, presets, m);
            if (accepted != null) {
                o.println("conform: " + entry.name() + " refuses " + m.getFileName() + "; using " + accepted.file().getFileName()
                        + ", the first preset of the installation it accepts (--machine chooses another)");
                m = accepted.file();
                facts = accepted.facts();
            }
        }
        o.println("conformance of " + slot.id() + " " + entry.id() + " [" + entry.bundle() + "]");
        parameters(slot, entry);
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        String name = entry.name() + "@" + entry.version(), mine = chosenYaml.isEmpty() ? name : "{name: " + name + chosenYaml + "}";
        // a DRAM scheduler is checked where the stream's pages all sit in one pool, loading its banks (spread over two
        // pools the load halves, and a trial's rank that closed rows for ever passed)
        String placement = slot == Slot.PLACEMENT || slot == Slot.DRAM_SCHEDULER ? "" : spreadPlacement(dir, m);
        // a machine the policy refuses (an IllegalArgumentException: it would act on nothing there) is the wrong --machine;
        // any other exception from its check is the plugin's fault, a failed check (a review: an NPE blamed the machine)
        try {
            String note = noteOn(entry, facts);
            if (note != null) throw new IllegalArgumentException(note + " (a study whose every run is noted so is refused)");
        } catch (IllegalArgumentException refused) {
            // a refusal that names a parameter given with --param is that value's error, not the machine's (a session's list)
            String named = org.hmsim.platform.kernel.study.CheckMessages.parameterNamed(refused.getMessage());
            if (named != null && given.stream().anyMatch(kv -> kv.startsWith(named + "="))) {
                ctx.err().println("conform: --param " + named + ": " + entry.name() + " refuses it on " + m + ": " + refused.getMessage());
                if (work == null) delete(dir);
                return Commands.BAD_INPUT;
            }
            ctx.err().println("conform: --machine " + m + ": " + entry.name() + " refuses it: " + refused.getMessage()
                    + (machine == null ? " (nor does any other preset of the installation: give --machine FILE, a machine where " + entry.name() + " acts)"
                    : " (choose a machine where " + entry.name() + " acts)"));
            if (work == null) delete(dir);
            return Commands.BAD_INPUT;
        } catch (RuntimeException | LinkageError broken) {
            check("check(Params, RunFacts) answers this machine", false, broken.toString());
        }
        // a coherence policy on a machine with a CPU side runs an APU program, so its CPU accesses are checked too (on a
        // GPU stream the CPU never touched memory: a policy that threw at its first CPU takeover passed, found by a trial)
        workload = workloadFor(slot, facts.cpuSide());
        o.println("  (runs: " + workload.replaceAll("[{}]", "").replace("name: ", "").trim() + ", seed 7" + (placement.isEmpty() ? "" : ", placement interleave") + ", on " + m
                + "; in " + dir + ")");
        String a = run(dir, "det-a", m, slot.id() + ": " + mine + placement, "epoch: 1us\n");
        if (lastCode == Commands.BAD_INPUT && lastOutput.contains(": policies.")) { // the policy's choice refused on this machine
            // refused at validation on this machine (every pool fixing its scheduler): the machine's doing, not the policy's;
            // a trial's five FAILs blamed the policy, the reason indented below them
            ctx.err().println("conform: the study of the checks was refused on " + m + " (above): give a --machine where the policy acts");
            return Commands.BAD_INPUT;
        }
        String b = run(dir, "det-b", m, slot.id() + ": " + mine + placement, "epoch: 1us\n");
        // a run that fails was blamed on determinism alone (a researcher's first policy read the SMs in create, before they exist)
        check("a run that starts on it completes", a != null, failure(dir.resolve("det-a/runs/0001/error.txt")));
        check("determinism: two runs with seed 7 give identical stats.json", a != null && a.replace("det-a", "det-b").equals(b),
                a == null ? "the run failed (above)" : null);
        String other = Defaults.name(slot).equals(entry.name()) ? name : Defaults.name(slot);
        // the swap run starts on the default: its epoch fits the shorter of the two runs (found by a review)
        String base = other.equals(name) ? a : run(dir, "default", m, slot.id() + ": " + other + placement, "epoch: 1us\n");
        if (other.equals(name)) other = mine;
        String swaps = "epoch: " + Math.min(swapEpochNs(a), swapEpochNs(base)) + "ns\nswaps:\n"
                + "  - {at: epoch 2, slot: " + slot.id() + ", to: " + mine + "}\n"
                + "  - {at: epoch 4, slot: " + slot.id() + ", to: " + mine + "}\n"
                + "  - {at: epoch 6, slot: " + slot.id() + ", to: " + other + "}\n";
        run(dir, "swap", m, slot.id() + ": " + other + placement, swaps);
        List<String> rows = Files.isRegularFile(dir.resolve("swap/runs/0001/swaps.csv"))
                ? Files.readAllLines(dir.resolve("swap/runs/0001/swaps.csv"), StandardCharsets.UTF_8) : List.of();
        boolean in = rows.size() > 1 && rows.get(1).endsWith(",ok");
        String swapIn = swapInFailure(rows, dir.resolve("swap/runs/0001")), selfSwap = selfSwapFailure(rows);
        check("swap in mid-run (epoch 2)", swapIn == null, swapIn);
        check("state export/import: swap to a fresh instance of itself (epoch 4)", selfSwap == null, selfSwap);
        // swapping out of a policy that never got in proves nothing
        check("swap out mid-run (epoch 6) and the run completes", in && rows.size() > 3 && rows.get(3).endsWith(",ok")
                && Files.isRegularFile(dir.resolve("swap/runs/0001/stats.json")), in ? outcome(rows, 3) : "it was never swapped in");
        List<Thread> left = leftBehind(before);
        check("no thread left behind after its runs", left.isEmpty(), left.stream().map(t -> "'" + t.getName() + "'").toList().toString());
        o.println(failed == 0 ? "conform: all checks passed" : "conform: " + failed + " check(s) failed (studies and results in " + dir + ")");
        if (failed == 0 && work == null) delete(dir);
        return failed == 0 ? Commands.OK : 3;
    }

    /**
     * Why the swap in (swaps.csv row 1) failed its check, or null: not taken, or taken and the run failed under it before
     * the next swap (a policy swapped in that failed the run at once passed). {@code run}: the swap run's folder.
     */
    static String swapInFailure(List<String> rows, Path run) {
        if (rows.size() <= 1 || !rows.get(1).endsWith(",ok")) return outcome(rows, 1);
        if (rows.size() > 2 || Files.isRegularFile(run.resolve("stats.json"))) return null;
        return "taken, then the run failed under it: " + failure(run.resolve("error.txt"));
    }

    /** What swaps.csv's state column says when the old policy's exportState threw (the swap goes ahead without state). */
    private static final String EXPORT_FAILED = "exportState of the old policy failed";

    /**
     * Why the swap to a fresh instance of itself (row 2) failed its check, or null: not taken, or taken without the state
     * because its exportState threw (an exportState that always threw passed every check).
     */
    static String selfSwapFailure(List<String> rows) {
        if (rows.size() <= 2 || !rows.get(2).endsWith(",ok")) return outcome(rows, 2);
        String row = rows.get(2);
        int from = row.indexOf(EXPORT_FAILED);
        if (from < 0) return null;
        int to = row.indexOf("), the new one", from);
        return to > from ? row.substring(from, to + 1) : row.substring(from);
    }

    /** The outcome column of swaps.csv row {@code i} (a refusal says why), or what is missing. */
    private static String outcome(List<String> rows, int i) {
        if (rows.size() <= i) return "no such swap in swaps.csv (the run failed or ended first)";
        String row = rows.get(i);
        int refused = row.indexOf("refused");
        return refused >= 0 ? row.substring(refused) : row.substring(row.lastIndexOf(',') + 1);
    }

    private static void delete(Path dir) {
        try {
            org.hmsim.platform.kernel.results.AtomicFiles.deleteTree(dir);
        } catch (IOException | RuntimeException ignored) {
            // a temporary folder left behind is no failure of the check
        }
    }

    private void parameters(Slot slot, PolicyEntry entry) {
        PolicyRegistry r = ctx.kernel().policies();
        String id = entry.name() + "@" + entry.version();
        boolean documented = true, defaults = true;
        for (ParamSpec p : entry.provider().parameters()) {
            documented &= p.doc() != null && !p.doc().isBlank();
            try {
                p.coerce(p.defaultValue());
            } catch (RuntimeException e) {
                defaults = false;
            }
        }
        check("parameters declared with documentation", documented);
        check("every default value is valid", defaults);
        java.util.Set<String> names = new java.util.HashSet<>();
        List<String> twice = new ArrayList<>();
        for (ParamSpec p : entry.provider().parameters()) if (!names.add(p.name())) twice.add(p.name());
        check("parameter names are unique", twice.isEmpty(), "declared twice: " + twice);
        check("an unknown parameter is refused", refused(() -> r.resolve(slot, id, Map.of("no_such_parameter_xyz", 1))));
        for (ParamSpec p : entry.provider().parameters()) {
            if (p.type() == ParamType.CHOICE) {
                check("'" + p.name() + "' refuses a value not among its choices", refused(() -> r.resolve(slot, id, Map.of(p.name(), "no-such-choice"))));
                continue;
            }
            if (p.min() != null && p.min() > -1e18)
                check("'" + p.name() + "' refuses a value below " + bound(p.min()), refused(() -> r.resolve(slot, id, Map.of(p.name(), p.min() - 1))));
            if (p.max() != null && p.max() < 1e18)
                check("'" + p.name() + "' refuses a value above " + bound(p.max()), refused(() -> r.resolve(slot, id, Map.of(p.name(), p.max() + 1))));
        }
    }

    private static String bound(double v) { return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v); }

    private static boolean refused(Runnable r) {
        try {
            r.run();
            return false;
        } catch (IllegalArgumentException e) {
            return true;
        }
    }

    /** A preset of the installation and the facts a policy's check sees on it. */
    private record Preset(Path file, org.hmsim.api.policy.RunFacts facts) {}

    /**
     * The first preset in {@code presets} other than {@code refused}, by name, that the policy accepts with the chosen
     * parameters; null if none does (the caller then reports {@code refused}'s refusal).
     */
    private Preset firstAccepting(Path dir, PolicyEntry entry, Path presets, Path refused) throws IOException {
        List<Path> others;
        try (var files = Files.list(presets)) {
            others = files.filter(f -> f.getFileName().toString().endsWith(".yaml") && !f.equals(refused)).sorted().toList();
        }
        for (Path preset : others)
            try {
                org.hmsim.api.policy.RunFacts facts = machineFacts(dir, "preset-check", preset);
                if (!refuses(entry, facts)) return new Preset(preset, facts);
            } catch (org.hmsim.platform.kernel.study.StudyException notUsable) {
                // a preset the stream cannot run on is not a candidate
            }
        return null;
    }

    /** The facts a policy's check sees on machine {@code m} (the workload not at hand, as for a swap typed into a shell). */
    private org.hmsim.api.policy.RunFacts machineFacts(Path dir, String name, Path m) throws IOException, org.hmsim.platform.kernel.study.StudyException {
        return probe(dir, name, m, null).runs().get(0).machine().config().runFacts(List.of());
    }

    /**
     * Whether a one-run study of the policy on this machine would be refused: its check refuses the machine, or its note
     * says it acts on nothing there (a choice noted on every run of a study is refused; `affinity` on one GPU failed five
     * checks with "no stats.json and no error.txt", found by a researcher's trial).
     */
    private boolean refuses(PolicyEntry entry, org.hmsim.api.policy.RunFacts facts) {
        try {
            return noteOn(entry, facts) != null;
        } catch (IllegalArgumentException refused) {
            return true;
        } catch (RuntimeException | LinkageError broken) {
            return false; // the plugin's fault: reported as a failed check on the first machine
        }
    }

    /** The policy's check with the chosen parameters on {@code facts} (throws as it does), then its note there (null: none). */
    private String noteOn(PolicyEntry entry, org.hmsim.api.policy.RunFacts facts) {
        entry.provider().check(chosen, facts);
        return entry.provider().note(chosen, facts);
    }

    /**
     * Pages in every pool, so that a policy acting on slow pages (migration, residency) has something to act on: under
     * the default placement every page of the small stream sits in the fastest pool. Not where every pool is a GPU
     * memory whose pages the interleave slot places (seed 004's machines refuse a placement there).
     */
    private String spreadPlacement(Path dir, Path m) throws IOException {
        return refusal(dir, "placement-check", m, "placement: interleave") == null ? "\n  placement: interleave" : "";
    }

    private org.hmsim.platform.kernel.study.Study probe(Path dir, String name, Path m, String policyLine) throws IOException,
            org.hmsim.platform.kernel.study.StudyException {
        Path probe = dir.resolve(name + ".yaml");
        Files.writeString(probe, "study: " + name + "\nmachine: " + m.toAbsolutePath() + "\nworkloads: [stream]\n"
                + (policyLine == null ? "" : "policies:\n  " + policyLine + "\n"), StandardCharsets.UTF_8);
        return ctx.kernel().validate(probe);
    }

    /** Why validation refuses a one-run study of machine {@code m} with {@code policyLine} (null: defaults), or null. */
    private String refusal(Path dir, String name, Path m, String policyLine) throws IOException {
        try {
            probe(dir, name, m, policyLine);
            return null;
        } catch (org.hmsim.platform.kernel.study.StudyException e) {
            return described(e, dir, name);
        }
    }

    /** An error in the machine file names its place there; one in probe {@code name} does not: it is a temporary file, not the user's. */
    private static String described(org.hmsim.platform.kernel.study.StudyException e, Path dir, String name) {
        boolean inProbe = e.file() != null && Path.of(e.file()).toAbsolutePath().equals(dir.resolve(name + ".yaml").toAbsolutePath());
        return inProbe && e.reason() != null ? e.field() + ": " + e.reason() : e.getMessage();
    }

    /**
     * An epoch a tenth of a run, so that the swaps at epochs 2, 4 and 6 fall inside the run on any machine
     * (a fixed 1 µs ended the stream before epoch 6 on fast presets, found by a review); 1 µs if that run failed.
     */
    static long swapEpochNs(String stats) {
        if (stats == null) return 1000;
        Object ns = org.hmsim.platform.kernel.results.Json.parse(stats).get("metrics") instanceof Map<?, ?> metrics ? metrics.get("sim_time_ns") : null;
        return ns instanceof Number n ? Math.max(1, (long) (n.doubleValue() / 10)) : 1000;
    }

    /** The exit code and output of the last study {@link #run} ran. */
    private int lastCode;
    private String lastOutput = "";

    /** Runs a one-run study (small stream, seed 7; {@code extra}: its epoch and swaps); returns its stats.json or null. */
    private String run(Path dir, String name, Path m, String policyLine, String extra) throws IOException {
        Path study = dir.resolve(name + ".yaml");
        Files.writeString(study, "study: " + name + "\nseed: 7\nmachine: " + m.toAbsolutePath() + "\nworkloads:\n"
                + "  - " + workload + "\npolicies:\n  " + policyLine + "\n" + extra, StandardCharsets.UTF_8);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
        int code = new Commands(ctx.kernel()).execute(new String[] {"run", study.toString(), "--out", dir.resolve(name).toString(),
                "--jobs", "1", "--no-report"}, quiet, quiet, false);
        lastCode = code;
        lastOutput = sink.toString(StandardCharsets.UTF_8);
        if (code != 0) ctx.out().println("  (" + name + ": exit " + code + ") " + sink.toString(StandardCharsets.UTF_8).trim());
        Path stats = dir.resolve(name).resolve("runs/0001/stats.json");
        return code == 0 && Files.isRegularFile(stats) ? Files.readString(stats, StandardCharsets.UTF_8) : null;
    }

    /** Threads started since {@code before} still alive a moment after the runs ended. */
    private static List<Thread> leftBehind(Set<Thread> before) {
        List<Thread> left = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            left.clear();
            for (Thread t : Thread.getAllStackTraces().keySet()) if (!before.contains(t) && t.isAlive()) left.add(t);
            if (left.isEmpty()) break;
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return left;
    }

    /**
     * A run's exception, the first line of its trace in error.txt (the line before it, "run 0001 (...) failed:", was
     * all conform showed), or what says there is none.
     */
    static String failure(Path errorTxt) {
        try {
            return Files.isRegularFile(errorTxt) ? Files.readAllLines(errorTxt, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank())
                    .filter(l -> !(l.startsWith("run ") && l.endsWith(" failed:"))).findFirst()
                    .orElse("empty " + errorTxt) + " (whole trace: " + errorTxt + ")" : "no stats.json and no error.txt";
        } catch (IOException e) {
            return "unreadable " + errorTxt + ": " + e.getMessage();
        }
    }

    private void check(String what, boolean ok) { check(what, ok, null); }

    /** {@code why}: shown after a FAIL, so a plugin author sees the reason without digging in the work folder. */
    private void check(String what, boolean ok, String why) {
        if (!ok) failed++;
        ctx.out().println((ok ? "  PASS " : "  FAIL ") + what + (!ok && why != null && !why.isEmpty() ? ": " + why : ""));
    }

    private static boolean isEmpty(Path dir) throws java.io.IOException {
        try (var entries = Files.list(dir)) {
            return entries.findAny().isEmpty();
        }
    }
}
