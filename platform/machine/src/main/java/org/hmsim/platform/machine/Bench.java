package org.hmsim.platform.machine;

import java.io.PrintStream;

/** {@code hmsim bench}: a fixed built-in scenario, timed; prints simulated requests/s, events/s, peak heap. */
public final class Bench {
    private Bench() {}

    /** Runs the benchmark and prints its figures; returns the process exit code. */
    public static int run(String[] args, PrintStream out) {
        out.println("bench: not yet implemented");
        return 1;
    }
}
