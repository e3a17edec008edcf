package org.hmsim.platform.kernel.runner;

/** Where one run of a study stands. */
public enum RunState {
    PENDING, RUNNING, DONE, FAILED,
    /** Completed by an earlier execution (found by --resume). */
    RESUMED;

    public String text() { return this == RESUMED ? "done" : name().toLowerCase(java.util.Locale.ROOT); }
}
