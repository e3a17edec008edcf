package org.hmsim.platform.kernel.study;

import java.util.List;

/**
 * A bad study (or a bad file it refers to), located: {@code studies/x.yaml:7:14: policies.placement.fast_percent:
 * value 130 is out of range [0, 100]}. Lines and columns count from 1; 0 when the file itself is at fault
 * ({@code studies/x.yaml: file not found}).
 */
public final class StudyException extends Exception {
    private final String file;
    private final int line;
    private final int column;
    private final String field;
    private final String reason;
    private List<StudyException> errors;

    public StudyException(String file, int line, int column, String field, String reason) {
        super(file + (line > 0 ? ":" + line + ":" + column : "") + ": " + (field == null || field.isEmpty() ? "" : field + ": ") + reason);
        this.file = file;
        this.line = line;
        this.column = column;
        this.field = field == null ? "" : field;
        this.reason = reason;
    }

    public StudyException(Origin at, String field, String reason) {
        this(at.file(), at.line(), at.column(), field, reason);
    }

    /** Several errors of one study, reported together: located at the first; the message has one line per error. */
    private StudyException(List<StudyException> errors) {
        super(errors.stream().map(Throwable::getMessage).collect(java.util.stream.Collectors.joining(System.lineSeparator())));
        StudyException first = errors.get(0);
        this.file = first.file;
        this.line = first.line;
        this.column = first.column;
        this.field = first.field;
        this.reason = first.reason;
        this.errors = List.copyOf(errors);
    }

    /** The one error, or all of them in one exception. */
    static StudyException of(List<StudyException> errors) {
        // one key the study wrote can be wrong in several places (pools.*.timming in each pool): said once
        List<StudyException> distinct = new java.util.ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (StudyException e : errors)
            for (StudyException one : e.errors()) if (seen.add(one.getMessage())) distinct.add(one); // a part's several errors, each on its own
        // in the order of the files' lines, as an editor walks them (they came section by section: line 11 before line 4)
        // (files in the order their first error came: the study before a workload file it names)
        java.util.Map<String, Integer> fileOrder = new java.util.HashMap<>();
        for (StudyException one : distinct) fileOrder.putIfAbsent(String.valueOf(one.file()), fileOrder.size());
        distinct.sort(java.util.Comparator.<StudyException>comparingInt(x -> fileOrder.get(String.valueOf(x.file())))
                .thenComparingInt(StudyException::line).thenComparingInt(StudyException::column));
        return distinct.size() == 1 ? distinct.get(0) : new StudyException(distinct);
    }

    /** Every error this exception reports (itself alone unless several were found together). */
    public List<StudyException> errors() { return errors == null ? List.of(this) : errors; }

    public String file() { return file; }

    public int line() { return line; }

    public int column() { return column; }

    /** The dotted name of the field at fault ({@code policies.placement.fast_percent}); empty for the file itself. */
    public String field() { return field; }

    public String reason() { return reason; }
}
