package org.hmsim.platform.cpu;

/** MOESI line states (CPU caches, seed 001 §2: "the CPU side uses MOESI"). I = 0 so new arrays start invalid. */
public final class Moesi {
    public static final byte I = 0, S = 1, E = 2, O = 3, M = 4;

    private Moesi() {}

    /** Holds data newer than memory (must be written back or supplied on a probe). */
    public static boolean dirty(int s) { return s == M || s == O; }

    /** May be written without asking anyone. */
    public static boolean writable(int s) { return s == M || s == E; }

    public static char name(int s) { return "ISEOM".charAt(s); }
}
