package org.hmsim.platform.kernel.registry;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import java.util.concurrent.CopyOnWriteArrayList;
import org.hmsim.api.workload.WorkloadProvider;

/**
 * The workloads a study may name: the platform's built-ins plus every {@link WorkloadProvider} service.
 * A provider from a bundle with the same name as a built-in wins (it was installed on purpose).
 */
public final class WorkloadRegistry {
    private final List<WorkloadEntry> entries = new CopyOnWriteArrayList<>();

    /** A registry with the platform's built-in workloads. */
    public static WorkloadRegistry withBuiltins() {
        WorkloadRegistry r = new WorkloadRegistry();
        for (WorkloadProvider p : PlatformWorkloads.builtins()) r.add(p, "builtin");
        return r;
    }

    public void add(WorkloadProvider provider) { add(provider, "classpath"); }

    public void add(WorkloadProvider provider, String origin) {
        entries.add(WorkloadEntry.of(provider, origin));
    }

    public void remove(WorkloadProvider provider) {
        entries.removeIf(e -> e.provider() == provider);
    }

    /** By name; for one name, services before built-ins. */
    public List<WorkloadEntry> entries() {
        List<WorkloadEntry> l = new ArrayList<>(entries);
        l.sort(Comparator.comparing(WorkloadEntry::name).thenComparing(e -> e.origin().equals("builtin")));
        return l;
    }

    /** Validates a named workload and its parameters. */
    public WorkloadChoice resolve(String name, Map<String, ?> given) {
        WorkloadEntry e = entries().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow(() -> {
            List<String> known = entries().stream().map(WorkloadEntry::name).distinct().toList();
            return new InvalidChoiceException(null, "unknown workload '" + name + "' "
                    + (known.isEmpty() ? "(no workload is installed)" : "(available: " + String.join(", ", known) + ")"));
        });
        return choose(e, given);
    }

    /** Whether a command-line workload argument names a workload file (a .yaml or .yml name, or an existing file) rather than a workload. */
    public static boolean namesAFile(String text) {
        return text.endsWith(".yaml") || text.endsWith(".yml") || java.nio.file.Files.isRegularFile(Path.of(text));
    }

    /** A command-line workload argument: a workload file ({@link #namesAFile}) or an installed workload's name. */
    public WorkloadChoice resolveNameOrFile(String text, Map<String, ?> given) {
        return namesAFile(text) ? resolveFile(Path.of(text), text, given) : resolve(text, given);
    }

    /** Reads a workload file and validates the parameters given to it. */
    public WorkloadChoice resolveFile(Path file, String display, Map<String, ?> given) {
        WorkloadProvider p;
        try {
            p = PlatformWorkloads.load(file);
        } catch (RuntimeException ex) {
            InvalidChoiceException e = new InvalidChoiceException(null, "workload file " + display + ": " + ex.getMessage());
            e.initCause(ex);
            throw e;
        }
        WorkloadChoice choice = choose(WorkloadEntry.of(p, display), given);
        // A file's sizes, grids, blocks and loops are expressions over these parameters, checked when it is
        // built for them: build it now, so that validate finds a bad block, a size of 0 or an overflow before
        // a run starts (cheap for a file).
        try {
            choice.create(1);
        } catch (RuntimeException ex) {
            InvalidChoiceException e = new InvalidChoiceException(null, "workload file " + display + ": " + ex.getMessage());
            e.initCause(ex);
            throw e;
        }
        return choice;
    }

    /** Opens a trace (binary or text, docs/traces.md) as a workload without parameters. */
    public WorkloadChoice resolveTrace(Path file, String display, Map<String, ?> given) {
        WorkloadProvider p;
        try {
            org.hmsim.platform.traces.TraceWorkloadProvider t = org.hmsim.platform.traces.TraceWorkloadProvider.open(file, display);
            p = t;
            // opening reads the header and directory only: a damaged segment was found mid-run, after run had set the
            // folder's earlier results aside (a bad-input review). A binary trace is read whole here, once per version of
            // the file in this JVM; a text trace was just converted, which read all of it.
            if (t.trace().path().equals(file)) verifyOnce(t.trace());
        } catch (RuntimeException ex) {
            InvalidChoiceException e = new InvalidChoiceException(null, "trace " + ex.getMessage());
            e.initCause(ex);
            throw e;
        }
        return choose(WorkloadEntry.of(p, display), given);
    }

    /**
     * Binary traces read whole without damage in this JVM, by file (device and inode), path, size, and modification and
     * change times to the nanosecond where the file system keeps them: a file written since is read again (a 2 GB trace
     * takes about 15 s, and the shell validates a study at every sim:run).
     */
    private static final java.util.Set<String> VERIFIED = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** {@link org.hmsim.platform.traces.TraceVerifier#verify}, skipped for a file unchanged since it passed; closes it if damaged. */
    private static void verifyOnce(org.hmsim.platform.traces.TraceFile trace) {
        String key;
        try {
            java.nio.file.attribute.BasicFileAttributes a = java.nio.file.Files.readAttributes(trace.path(), java.nio.file.attribute.BasicFileAttributes.class);
            Object changed;
            try {
                changed = java.nio.file.Files.getAttribute(trace.path(), "unix:ctime");
            } catch (UnsupportedOperationException | IllegalArgumentException notUnix) {
                changed = "";
            }
            key = trace.path().toRealPath() + "|" + a.fileKey() + "|" + a.size() + "|" + a.lastModifiedTime().to(java.util.concurrent.TimeUnit.NANOSECONDS)
                    + "|" + (changed instanceof java.nio.file.attribute.FileTime t ? t.to(java.util.concurrent.TimeUnit.NANOSECONDS) : changed);
        } catch (java.io.IOException e) {
            key = null; // read it whole: what cannot be told unchanged is checked again
        }
        if (key != null && VERIFIED.contains(key)) return;
        try {
            org.hmsim.platform.traces.TraceVerifier.verify(trace);
        } catch (RuntimeException damaged) {
            trace.close();
            throw damaged;
        }
        if (key != null) VERIFIED.add(key);
    }

    /**
     * A multiprogrammed mix of {@code programs} (seed 004 §6.5: program p runs on GPU p), labelled {@code label}, or
     * {@code mix[a+b+…]} after its programs when null. Its origin lists the programs' labels and origins, so a
     * changed program changes the run's provenance.
     */
    public static WorkloadChoice mix(String label, List<WorkloadChoice> programs) {
        StringJoiner name = new StringJoiner("+", "mix[", "]"), origin = new StringJoiner("; ", "mix of ", "");
        for (WorkloadChoice p : programs) {
            name.add(p.label());
            origin.add(p.label() + " (" + p.entry().origin() + ")");
        }
        MixProvider provider = new MixProvider(label != null ? label : name.toString(), origin + ", each on a GPU of its own", programs);
        return choose(new WorkloadEntry(provider.name(), origin.toString(), provider.description(), List.of(), provider), Map.of());
    }

    /** The provider behind {@link #mix}: each program created with the run's seed. */
    public record MixProvider(String name, String description, List<WorkloadChoice> programs) implements WorkloadProvider {
        public MixProvider {
            programs = List.copyOf(programs);
        }

        @Override
        public List<ParamSpec> parameters() { return List.of(); }

        @Override
        public Workload create(Params params, long seed) {
            List<Workload> each = new ArrayList<>();
            for (WorkloadChoice p : programs) each.add(p.create(seed));
            return new org.hmsim.platform.workloads.mix.MixWorkload(name, each);
        }
    }

    /**
     * {@code base} with its parameter {@code param} at {@code value} (a study's workload sweep): the value checked against
     * its declaration, the label still {@code base}'s (the swept value has its own runs.csv column).
     */
    public static WorkloadChoice with(WorkloadChoice base, String param, Object value) {
        Map<String, Object> all = new java.util.LinkedHashMap<>(base.params().asMap()); // earlier swept values kept
        all.put(param, value);
        return new WorkloadChoice(base.entry(), PolicyRegistry.validate(base.entry().parameters(), all), base.given());
    }

    private static WorkloadChoice choose(WorkloadEntry e, Map<String, ?> given) {
        return new WorkloadChoice(e, PolicyRegistry.validate(e.parameters(), given), new java.util.LinkedHashMap<>(given));
    }
}
