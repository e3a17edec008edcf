package org.hmsim.platform.machine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine presets shipped in {@code examples/machines}, loaded with overrides at dotted paths
 * ({@code "pools.1.bandwidth", "40GB/s"}): for tests and tools that work outside the study runner (which
 * applies overrides itself, keeping each value's file and line for its errors).
 */
public final class Presets {
    private Presets() {}

    /** The repository's {@code examples} folder, found by walking up from the working directory. */
    public static Path examples() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null && !Files.isDirectory(p.resolve("examples/machines"))) p = p.getParent();
        if (p == null) throw new IllegalStateException("examples/machines not found above " + Path.of("").toAbsolutePath());
        return p.resolve("examples");
    }

    /** Preset {@code name} (a file of examples/machines without .yaml) with overrides as path, value pairs. */
    public static MachineConfig machine(String name, Object... overrides) {
        return MachineConfig.parse(withOverrides(tree(examples().resolve("machines").resolve(name + ".yaml")), overrides));
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> tree(Path file) {
        try {
            return (Map<String, Object>) org.hmsim.platform.machine.yaml.YamlCore.yaml().load(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read machine file " + file, e);
        }
    }

    /** Sets each dotted path (list elements by index; missing groups are created) to its value. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> withOverrides(Map<String, Object> tree, Object... overrides) {
        for (int i = 0; i < overrides.length; i += 2) {
            String[] path = ((String) overrides[i]).split("\\.");
            Object node = tree;
            for (int k = 0; k < path.length - 1; k++) {
                Object next = node instanceof List<?> l ? l.get(Integer.parseInt(path[k])) : ((Map<String, Object>) node).get(path[k]);
                if (next == null) {
                    next = new LinkedHashMap<String, Object>();
                    ((Map<String, Object>) node).put(path[k], next);
                }
                node = next;
            }
            String last = path[path.length - 1];
            if (node instanceof List<?> l) ((List<Object>) l).set(Integer.parseInt(last), overrides[i + 1]);
            else ((Map<String, Object>) node).put(last, overrides[i + 1]);
        }
        return tree;
    }
}
