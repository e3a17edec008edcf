package org.hmsim.platform.workloads.file;

import java.util.List;

/**
 * An error in a workload file, or in running one, located by file, 1-based line and column and the
 * field path: {@code wl.yaml:12:7: kernels[0].steps[2].load.index: unknown variable 'j'}.
 */
public final class WorkloadFileException extends RuntimeException {
    private final String file;
    private final int line;
    private final int column;
    private final String field;
    private final String problem;

    public WorkloadFileException(String file, int line, int column, String field, String problem) {
        super(format(file, line, column, field, problem));
        this.file = file;
        this.line = line;
        this.column = column;
        this.field = field;
        this.problem = problem;
    }

    private static String format(String file, int line, int column, String field, String problem) {
        // line 0: the file as a whole (cannot be read), no position to give
        return file + (line > 0 ? ":" + line + ":" + column : "") + ": " + (field == null || field.isEmpty() ? "" : field + ": ") + problem;
    }

    public String file() { return file; }

    /** 1-based line. */
    public int line() { return line; }

    /** 1-based column. */
    public int column() { return column; }

    /** The field path, e.g. {@code kernels[0].steps[2].load.index}. */
    public String field() { return field; }

    /** The message without the location. */
    public String problem() { return problem; }

    /** This error, or every error of a file with several bad parts (in file order). */
    public List<WorkloadFileException> all() { return others == null ? List.of(this) : others; }

    private List<WorkloadFileException> others;

    /** Throws the one error, or all of them as one exception (located at the first); nothing if none. */
    static void throwIfAny(List<WorkloadFileException> errors) {
        if (errors.isEmpty()) return;
        if (errors.size() == 1) throw errors.get(0);
        WorkloadFileException first = errors.get(0);
        StringBuilder rest = new StringBuilder(first.problem);
        for (WorkloadFileException e : errors.subList(1, errors.size())) rest.append('\n').append(e.getMessage());
        WorkloadFileException all = new WorkloadFileException(first.file, first.line, first.column, first.field, rest.toString());
        all.others = List.copyOf(errors);
        throw all;
    }

    @Override
    public String toString() { return getMessage(); }
}
