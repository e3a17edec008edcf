package org.hmsim.platform.kernel.executor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A frozen copy of a study for batch tasks that start minutes or days after the submission: the study
 * file and the machine and workload files it names by relative path, copied byte for byte under one
 * folder with their relative layout kept ({@code studies/x.yaml} and {@code machines/small.yaml}), so the
 * copy parses to the same runs with the same SHA-256 while the user goes on editing the originals. Files
 * named by an absolute path are read from where they are when a task starts.
 */
final class StudySnapshot {
    private StudySnapshot() {}

    /** Copies {@code study} and its relative references under {@code into}; returns the study's copy. */
    static Path copy(Path study, Path into) {
        Path file = study.toAbsolutePath().normalize();
        Path base = file.getParent();
        Set<Path> files = new LinkedHashSet<>();
        files.add(file);
        for (String ref : references(file)) {
            if (Path.of(ref).isAbsolute()) continue;
            Path p = base.resolve(ref).normalize();
            if (Files.isRegularFile(p)) files.add(p);
        }
        Path root = base;
        for (Path f : files) root = common(root, f.getParent());
        try {
            for (Path f : files) {
                Path target = into.resolve(root.relativize(f).toString());
                Files.createDirectories(target.getParent());
                Files.copy(f, target, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy the study into " + into + ": " + e.getMessage(), e);
        }
        return into.resolve(root.relativize(file).toString());
    }

    /** The files a study names: machine, machines[], workloads[].file (docs/study-files.md). */
    static List<String> references(Path study) {
        List<String> refs = new ArrayList<>();
        Object doc;
        try {
            doc = org.hmsim.platform.machine.yaml.YamlCore.yaml().load(Files.readString(study));
        } catch (IOException | RuntimeException e) {
            return refs; // the study was validated; an unreadable copy shows up when a task parses it
        }
        if (!(doc instanceof Map<?, ?> m)) return refs;
        addStrings(m.get("machine"), refs);
        addStrings(m.get("machines"), refs);
        Object w = m.get("workloads");
        for (Object e : w instanceof List<?> l ? l : w == null ? List.of() : List.of(w))
            if (e instanceof Map<?, ?> entry && entry.get("file") instanceof String f) refs.add(f);
        return refs;
    }

    private static void addStrings(Object v, List<String> out) {
        if (v instanceof String s) out.add(s);
        else if (v instanceof List<?> l) for (Object o : l) if (o instanceof String s) out.add(s);
    }

    private static Path common(Path a, Path b) {
        Path p = a;
        while (p != null && !b.startsWith(p)) p = p.getParent();
        return p == null ? a.getRoot() : p;
    }
}
