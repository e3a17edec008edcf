package org.hmsim.platform.traces.importer;

import org.hmsim.api.workload.WarpInstruction;

/**
 * What a SASS opcode means for the memory system (Accel-Sim and NVBit traces): loads, stores and
 * atomics to global or local memory reach the caches; shared-memory and constant accesses stay in the SM
 * and count as one issue cycle, as any other instruction. The access size per thread comes from the
 * opcode's width modifier as Accel-Sim's {@code get_datawidth_from_opcode} does (U8/S8 1, U16/S16 2,
 * 64 8, 128 16, otherwise 4), because NVBit's reported width is not reliable.
 */
final class Sass {
    private Sass() {}

    /** LOAD, STORE or ATOMIC for a global/local memory opcode; null for anything else. */
    static WarpInstruction.Kind memoryKind(String opcode) {
        int dot = opcode.indexOf('.');
        String base = dot < 0 ? opcode : opcode.substring(0, dot);
        switch (base) {
            case "LDG", "LD", "LDL", "LDGSTS", "TEX", "TLD", "TLD4", "TXD", "SULD":
                return WarpInstruction.Kind.LOAD;
            case "STG", "ST", "STL", "SUST":
                return WarpInstruction.Kind.STORE;
            case "ATOMG", "ATOM", "RED", "REDG", "SUATOM", "SURED":
                return WarpInstruction.Kind.ATOMIC;
            default:
                return null;
        }
    }

    /**
     * Opcodes that may carry addresses but whose data stays in the SM (shared memory, its barriers, constants) or that move
     * no data (cache control, queries): one issue cycle, as Accel-Sim counts them. Any other opcode with addresses is
     * refused ({@link #unknownMemoryOpcode}): counted as compute, its accesses would vanish from the import unnoticed (a
     * bad-input review).
     */
    static boolean staysInSm(String opcode) {
        int dot = opcode.indexOf('.');
        switch (dot < 0 ? opcode : opcode.substring(0, dot)) {
            case "LDS", "STS", "ATOMS", "LDSM", "STSM", "SYNCS", "ARRIVES", // shared memory and its barriers
                 "LDC", "ULDC",                                             // constant banks
                 "CCTL", "CCTLL", "CCTLT", "QSPC", "SUQUERY", "TMML", "TXQ": // cache control and queries
                return true;
            default:
                return false;
        }
    }

    /** The error for an opcode with addresses in neither table. */
    static String unknownMemoryOpcode(String opcode) {
        return "unknown memory opcode '" + opcode + "' (it has addresses, but it is neither a global or local load, store or atomic nor a shared-memory, "
                + "constant or cache-control instruction the importer knows): its accesses cannot be placed";
    }

    static boolean isBarrier(String opcode) { return opcode.equals("BAR") || opcode.startsWith("BAR."); }

    static boolean isExit(String opcode) { return opcode.equals("EXIT") || opcode.startsWith("EXIT."); }

    static int width(String opcode) {
        for (String t : opcode.split("\\.")) {
            switch (t) {
                case "U8", "S8": return 1;
                case "U16", "S16": return 2;
                case "64": return 8;
                case "128": return 16;
                default: break;
            }
        }
        return 4;
    }
}
