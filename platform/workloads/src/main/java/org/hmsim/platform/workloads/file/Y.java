package org.hmsim.platform.workloads.file;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** A YAML node with its file and field path, so every problem becomes a located {@link WorkloadFileException}. */
final class Y {
    final String file;
    final Node node;
    final String path;

    Y(String file, Node node, String path) {
        this.file = file;
        this.node = node;
        this.path = path;
    }

    WorkloadFileException error(String problem) { return at(node, path, problem); }

    /** An error at character {@code offset} of this scalar's text (single-line scalars; else at its start). */
    WorkloadFileException errorAt(int offset, String problem) {
        int line = node.getStartMark().getLine() + 1;
        int col = node.getStartMark().getColumn() + 1;
        if (node instanceof ScalarNode s && node.getStartMark().getLine() == node.getEndMark().getLine()) {
            boolean quoted = s.getScalarStyle() == DumperOptions.ScalarStyle.DOUBLE_QUOTED
                    || s.getScalarStyle() == DumperOptions.ScalarStyle.SINGLE_QUOTED;
            col += offset + (quoted ? 1 : 0);
        }
        return new WorkloadFileException(file, line, col, path, problem);
    }

    WorkloadFileException at(Node n, String p, String problem) {
        return new WorkloadFileException(file, n.getStartMark().getLine() + 1, n.getStartMark().getColumn() + 1, p, problem);
    }

    boolean isScalar() { return node instanceof ScalarNode; }

    boolean isSequence() { return node instanceof SequenceNode; }

    boolean isMapping() { return node instanceof MappingNode; }

    /**
     * The entries of a mapping, in file order; a key not in {@code allowed} or given twice is an error
     * at that key.
     */
    Map<String, Y> mapping(Set<String> allowed) { return mapping(allowed, null); }

    /**
     * As {@link #mapping(Set)}, but an unknown key goes into {@code unknown} and is left out, so that the mapping's other
     * mistakes are found too (a kernel's misspelt {@code blok:} hid its bad loop and allocation); null: thrown at once.
     */
    Map<String, Y> mapping(Set<String> allowed, List<WorkloadFileException> unknown) {
        if (!(node instanceof MappingNode m)) throw error("expected a mapping (key: value), found " + kind());
        Map<String, Y> out = new LinkedHashMap<>();
        for (NodeTuple t : m.getValue()) {
            if (!(t.getKeyNode() instanceof ScalarNode k)) throw at(t.getKeyNode(), path, "keys must be plain names");
            String key = k.getValue();
            String p = path.isEmpty() ? key : path + "." + key;
            if (!allowed.contains(key)) {
                WorkloadFileException e = at(k, p, "unknown field '" + key + "' (known: " + String.join(", ", allowed) + ")");
                if (unknown == null) throw e;
                unknown.add(e);
                continue;
            }
            if (out.containsKey(key)) throw at(k, p, "field '" + key + "' given twice");
            out.put(key, new Y(file, t.getValueNode(), p));
        }
        return out;
    }

    List<Y> sequence() {
        if (!(node instanceof SequenceNode s)) throw error("expected a list, found " + kind());
        List<Y> out = new ArrayList<>();
        List<Node> items = s.getValue();
        for (int i = 0; i < items.size(); i++) out.add(new Y(file, items.get(i), path + "[" + i + "]"));
        return out;
    }

    String scalar() {
        if (!(node instanceof ScalarNode s)) throw error("expected a single value, found " + kind());
        return s.getValue();
    }

    String name() {
        String s = scalar().trim();
        if (!s.matches("[A-Za-z_][A-Za-z0-9_.-]*")) throw error("'" + s + "' is not a valid name (letters, digits, _ . -; starts with a letter or _)");
        return s;
    }

    boolean bool() {
        String s = scalar().trim().toLowerCase(Locale.ROOT);
        return switch (s) { // YAML 1.2's booleans only, as study and machine files read them ('yes' there is text)
            case "true" -> true;
            case "false" -> false;
            default -> throw error("'" + scalar() + "' is not true or false");
        };
    }

    double real() {
        try {
            return Double.parseDouble(scalar().trim());
        } catch (NumberFormatException e) {
            throw error("'" + scalar() + "' is not a number");
        }
    }

    long integer() {
        String s = scalar().trim().replace("_", "");
        try {
            // 0x hexadecimal too, as the file's expressions and the study files take it (a bad-input trial's n: 0x400)
            if (s.matches("[+-]?0[xX][0-9a-fA-F]+")) return Long.decode(s);
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            if (s.matches("[+-]?\\d+")) throw error("'" + scalar() + "' is out of range [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE + "]");
            throw error("'" + scalar() + "' is not a whole number");
        }
    }

    private String kind() {
        if (node instanceof MappingNode) return "a mapping";
        if (node instanceof SequenceNode) return "a list";
        // cut: a text trace given as {file: t.txt} is one long scalar, and the message quoted all 66 KB of it (a trial)
        String v = ((ScalarNode) node).getValue();
        if (v.length() <= 60 && !v.contains("\n")) return "'" + v + "'";
        String first = v.lines().findFirst().orElse("");
        return "text ('" + first.substring(0, Math.min(40, first.length())) + "...', " + v.length()
                + " characters: is this a workload file? a trace is named {trace: ...})";
    }

    static Set<String> fields(String... names) { return new java.util.LinkedHashSet<>(List.of(names)); }
}
