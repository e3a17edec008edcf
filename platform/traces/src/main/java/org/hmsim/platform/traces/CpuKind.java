package org.hmsim.platform.traces;

/**
 * The kind of one CPU access of a CPU phase, with valgrind lackey's letters: an instruction fetch, a
 * load, a store, or a modify (a load and a store to the same address by one instruction).
 */
public enum CpuKind {
    IFETCH('I'), LOAD('L'), STORE('S'), MODIFY('M');

    public final char letter;

    CpuKind(char letter) { this.letter = letter; }

    private static final CpuKind[] VALUES = values();

    public static CpuKind ofCode(int code) { return VALUES[code]; }

    /** The kind for a lackey letter, or null. */
    public static CpuKind ofLetter(char c) {
        switch (c) {
            case 'I': return IFETCH;
            case 'L': return LOAD;
            case 'S': return STORE;
            case 'M': return MODIFY;
            default: return null;
        }
    }
}
