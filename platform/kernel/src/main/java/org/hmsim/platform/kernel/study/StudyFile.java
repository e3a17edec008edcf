package org.hmsim.platform.kernel.study;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.ParamType;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;

/**
 * One study file as read: its YAML and top-level entries, where an error about a whole key is located, how its
 * values are read, and where the files it names are.
 */
final class StudyFile {
    final Path file;
    /** How messages name the file. */
    final String display;
    final YamlDoc doc;
    final Map<String, NodeTuple> top;
    /** The file as read, whose SHA-256 the study records. */
    final byte[] bytes;

    private StudyFile(Path file, String display, YamlDoc doc, Map<String, NodeTuple> top, byte[] bytes) {
        this.file = file;
        this.display = display;
        this.doc = doc;
        this.top = top;
        this.bytes = bytes;
    }

    /** Reads {@code file}, named {@code display} in messages: a study is a mapping of keys. */
    static StudyFile load(Path file, String display) throws StudyException {
        if (!Files.isRegularFile(file))
            throw new StudyException(display, 0, 0, "", Files.isDirectory(file) ? "a folder, not a study file (name a .yaml file in it)"
                    : Files.exists(file) ? "not a regular file (a study is a YAML file)"
                    : "study file not found" + (file.isAbsolute() ? "" : " (looked for " + file.toAbsolutePath().normalize() + ")"));
        byte[] bytes;
        YamlDoc doc;
        try {
            bytes = Files.readAllBytes(file);
            doc = YamlDoc.load(file, display);
        } catch (IOException e) {
            throw new StudyException(display, 0, 0, "", "cannot read: " + e.getMessage());
        }
        if (!(doc.root instanceof MappingNode))
            throw doc.error(doc.root, "", "a study is a mapping of keys (" + String.join(", ", TopLevelKeys.KEYS) + ")");
        return new StudyFile(file, display, doc, doc.entries(doc.root, ""), bytes);
    }

    // ---- top-level keys and where errors about them are located ----

    Node value(String key) { return top.containsKey(key) ? top.get(key).getValueNode() : null; }

    Node keyNode(String key) { return top.get(key).getKeyNode(); }

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
     * Where {@code field} of item {@code index} of top-level list {@code key} starts ({@code swaps[1].at}), else that item,
     * else the list (a trial's swaps[1] error was shown at swaps[0]'s line).
     */
    Origin originOf(String key, int index, String field) {
        if (value(key) instanceof org.yaml.snakeyaml.nodes.SequenceNode list && index < list.getValue().size()) {
            Node item = list.getValue().get(index);
            if (item instanceof MappingNode m)
                for (NodeTuple t : m.getValue())
                    if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(field)) return doc.at(t.getValueNode(), "");
            return doc.at(item, "");
        }
        return originOf(key);
    }

    // ---- scalars ----

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

    // ---- paths ----

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

    /** Why a path named as a file is not one: a folder is not "not found". */
    static String notAFile(Path p, String shown) {
        // the absolute path too: a path relative to the working directory left a researcher guessing which one (a trial)
        String abs = p.toAbsolutePath().normalize().toString();
        return Files.isDirectory(p) ? "is a folder, not a file (" + shown + "): name a file in it"
                : "not found (looked for " + shown + (abs.equals(shown) ? "" : ", that is " + abs) + ")";
    }
}
