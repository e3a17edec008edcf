package org.hmsim.platform.kernel.study;

import java.util.ArrayList;
import java.util.List;

/**
 * Errors found so far in parts of a study checked side by side: independent parts are all checked, so one validate
 * reports every error they hold.
 */
final class StudyErrors {
    /** Errors found so far in parts checked side by side. */
    final List<StudyException> errors = new ArrayList<>();

    interface Part<T> {
        T read() throws StudyException;
    }

    interface Step {
        void read() throws StudyException;
    }

    /** {@link #check} for a part that sets fields rather than answering a value; whether it was right. */
    boolean ok(Step step) {
        return check(() -> {
            step.read();
            return true;
        }) != null;
    }

    /** Reads one part of the study; on an error, notes it and answers null so that the other parts are still checked. */
    <T> T check(Part<T> part) {
        try {
            return part.read();
        } catch (StudyException e) {
            errors.add(e);
            return null;
        }
    }

    /**
     * An error the workload-file reader located (it has line(), column(), field(), problem()), kept
     * at its own place in that file; null if it is not located.
     */
    static StudyException located(Throwable t, String shownFile) {
        if (t == null) return null;
        try {
            // several bad parts of one file: each at its own line
            if (t.getClass().getMethod("all").invoke(t) instanceof List<?> all && all.size() > 1) {
                List<StudyException> each = new ArrayList<>();
                for (Object e : all) {
                    StudyException one = e instanceof Throwable x && x != t ? located(x, shownFile) : null;
                    if (one == null) return null;
                    each.add(one);
                }
                return StudyException.of(each);
            }
        } catch (ReflectiveOperationException | ClassCastException e) {
            // a provider's own exception type without all(): one error
        }
        try {
            int line = (Integer) t.getClass().getMethod("line").invoke(t);
            int col = (Integer) t.getClass().getMethod("column").invoke(t);
            String f = (String) t.getClass().getMethod("field").invoke(t);
            String problem = (String) t.getClass().getMethod("problem").invoke(t);
            return new StudyException(shownFile, line, col, f, problem);
        } catch (ReflectiveOperationException | ClassCastException e) {
            return null;
        }
    }
}
