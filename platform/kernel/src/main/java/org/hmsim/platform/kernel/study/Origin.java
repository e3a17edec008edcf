package org.hmsim.platform.kernel.study;

import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Where a value came from: file, line and column (from 1), and the field name to print. Machine-tree
 * values keep their origin through overrides and sweeps, so a machine error points at the line that set
 * the bad value.
 */
public record Origin(String file, int line, int column, String field) {

    public static Origin of(String file, Node node, String field) {
        Mark m = node == null ? null : node.getStartMark();
        return m == null ? new Origin(file, 1, 1, field) : new Origin(file, m.getLine() + 1, m.getColumn() + 1, field);
    }

    public static Origin start(String file) { return new Origin(file, 1, 1, ""); }

    public StudyException error(String reason) { return new StudyException(this, field, reason); }

    public StudyException error(String field, String reason) { return new StudyException(this, field, reason); }
}
