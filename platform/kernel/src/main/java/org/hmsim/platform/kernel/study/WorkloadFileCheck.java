package org.hmsim.platform.kernel.study;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.kernel.registry.WorkloadChoice;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;

/**
 * {@code hmsim validate FILE} on a workload file rather than a study (docs/workload-files.md): the file is read and built
 * with its parameters' defaults, as a study naming it with none would, and its errors are said at their lines. A
 * researcher's `validate` of a workload file was answered with seven "unknown key" errors of a study.
 */
public final class WorkloadFileCheck {
    private WorkloadFileCheck() {}

    /** Whether {@code file} reads as a workload file (kernels, no study name) rather than a study; false if it cannot be read. */
    public static boolean looksLikeWorkloadFile(Path file) {
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Object top = new org.yaml.snakeyaml.Yaml().load(r);
            return top instanceof Map<?, ?> m && !m.containsKey("study") && (m.containsKey("kernels") || m.containsKey("allocations"));
        } catch (IOException | RuntimeException notYaml) {
            return false; // the study parser says what is wrong with it
        }
    }

    /** What the file builds with its defaults (one line), or its errors, each at its place. */
    public static String check(WorkloadRegistry workloads, Path file, String display) throws StudyException {
        WorkloadChoice choice;
        Workload w;
        try {
            choice = workloads.resolveFile(file, display, Map.of());
            w = choice.create(1);
        } catch (RuntimeException e) { // InvalidChoiceException with the file's error as its cause, or a build's own
            throw located(e, display);
        }
        List<AllocationSpec> allocations = w.allocations();
        long bytes = allocations.stream().mapToLong(AllocationSpec::bytes).sum();
        List<Kernel> launches = w.kernels(WorkloadChoice.nominalBases(allocations));
        String params = choice.entry().parameters().stream().map(p -> p.name() + "=" + p.defaultValue()).reduce((a, b) -> a + ", " + b).orElse("none");
        return display + ": workload file " + w.name() + " is valid with its defaults (" + params + "): " + allocations.size() + " allocation"
                + (allocations.size() == 1 ? " of " + bytes + " B" : "s, " + bytes + " B in all (hmsim workloads FILE lists each)") + ", " + launches.size()
                + " kernel launch" + (launches.size() == 1 ? "" : "es");
    }

    private static StudyException located(Throwable e, String display) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            StudyException at = StudyErrors.located(t, display);
            if (at != null) return at;
        }
        return new StudyException(display, 0, 0, "", e.getMessage());
    }
}
