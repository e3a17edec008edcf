package org.hmsim.platform.kernel.study;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * A YAML file read with SnakeYAML's node API ({@code compose}), so every value keeps its line and column.
 * Scalars are typed by SnakeYAML's safe constructor (int, float, bool, null, string).
 */
final class YamlDoc {
    final Path path;
    final String display;
    final Node root;
    private final Scalars scalars = new Scalars();

    private YamlDoc(Path path, String display, Node root) {
        this.path = path;
        this.display = display;
        this.root = root;
    }

    /** Reads and composes a file; a syntax error becomes a located {@link StudyException}. */
    static YamlDoc load(Path path, String display) throws IOException, StudyException {
        LoaderOptions opts = new LoaderOptions();
        opts.setAllowDuplicateKeys(false);
        try (Reader r = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            Node root = org.hmsim.platform.machine.yaml.YamlCore.yaml(opts).compose(r);
            if (root == null) throw new StudyException(display, 1, 1, "", "the file is empty");
            return new YamlDoc(path, display, root);
        } catch (MarkedYAMLException e) {
            Mark m = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
            String what = e.getProblem() != null ? e.getProblem() : e.getMessage();
            throw new StudyException(display, m == null ? 1 : m.getLine() + 1, m == null ? 1 : m.getColumn() + 1, "", "YAML syntax: " + what);
        } catch (YAMLException e) {
            if (e.getCause() instanceof java.nio.charset.CharacterCodingException)
                throw new StudyException(display, 0, 0, "", "not UTF-8 text (a binary file?): YAML files are read as UTF-8");
            throw new StudyException(display, 1, 1, "", "YAML: " + e.getMessage());
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new StudyException(display, 0, 0, "", "not UTF-8 text (a binary file?): YAML files are read as UTF-8");
        }
    }

    Origin at(Node n, String field) { return Origin.of(display, n, field); }

    StudyException error(Node n, String field, String reason) { return at(n, field).error(reason); }

    /** The typed value of a scalar node (Integer, Long, BigInteger, Double, Boolean, String or null). */
    Object scalar(Node n) { return scalars.construct(n); }

    /** The text of a scalar as written ({@code 40GB/s}, {@code 0.5}); for labels and columns. */
    /**
     * A node as a short label: a scalar's text; a list or mapping in YAML flow style ({@code [a, b]},
     * {@code {k: v}}), so a swept list value labels its runs readably and the same in every run.
     */
    static String text(Node n) {
        if (n instanceof ScalarNode s) return s.getValue();
        StringBuilder b = new StringBuilder();
        if (n instanceof org.yaml.snakeyaml.nodes.SequenceNode q) {
            b.append('[');
            for (Node item : q.getValue()) b.append(b.length() > 1 ? ", " : "").append(text(item));
            return b.append(']').toString();
        }
        if (n instanceof MappingNode m) {
            b.append('{');
            for (NodeTuple t : m.getValue()) b.append(b.length() > 1 ? ", " : "").append(text(t.getKeyNode())).append(": ").append(text(t.getValueNode()));
            return b.append('}').toString();
        }
        return String.valueOf(n);
    }

    /**
     * The entries of a mapping node by key, in file order. Keys must be scalars and unique (SnakeYAML's
     * composer does not check duplicates: its constructor does, and we do not construct mappings).
     */
    LinkedHashMap<String, NodeTuple> entries(Node n, String field) throws StudyException {
        if (!(n instanceof MappingNode m)) throw error(n, field, "expected a mapping (key: value), found " + kind(n));
        LinkedHashMap<String, NodeTuple> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) throw error(t.getKeyNode(), field, "keys must be plain names");
            // a merge key was read as an entry named "<<" and the message spoke of something else (a bad-input trial)
            if (k.getValue().equals("<<"))
                throw error(k, field, "YAML merge keys (<<) are not supported in a study: write the entries out");
            if (out.containsKey(k.getValue())) throw error(k, join(field, k.getValue()), "duplicate key '" + k.getValue() + "'");
            out.put(k.getValue(), t);
        }
        return out;
    }

    /** A sequence's items; a single scalar or mapping counts as a list of one. */
    static List<Node> items(Node n) {
        if (n instanceof SequenceNode s) return s.getValue();
        return List.of(n);
    }

    /**
     * Converts a node to plain Java (LinkedHashMap, ArrayList, scalars), recording the origin of every
     * value under its dotted path (list elements by index).
     */
    Object plain(Node n, String path, Map<String, Origin> origins) throws StudyException {
        if (origins != null) origins.put(path, at(n, path));
        if (n instanceof ScalarNode) return scalar(n);
        if (n instanceof SequenceNode s) {
            List<Object> l = new ArrayList<>();
            for (Node item : s.getValue()) l.add(plain(item, join(path, Integer.toString(l.size())), origins));
            return l;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        for (Map.Entry<String, NodeTuple> e : entries(n, path).entrySet())
            m.put(e.getKey(), plain(e.getValue().getValueNode(), join(path, e.getKey()), origins));
        return m;
    }

    static String join(String prefix, String key) { return prefix.isEmpty() ? key : prefix + "." + key; }

    static String kind(Node n) {
        if (n instanceof ScalarNode s) return "the value '" + s.getValue() + "'";
        if (n instanceof SequenceNode) return "a list";
        return "a mapping";
    }

    /** Exposes the core-schema constructor's scalar typing without building whole documents. */
    private static final class Scalars {
        private final org.hmsim.platform.machine.yaml.YamlCore.Constructor c = new org.hmsim.platform.machine.yaml.YamlCore.Constructor(new LoaderOptions());

        Object construct(Node n) { return c.construct(n); }
    }
}
