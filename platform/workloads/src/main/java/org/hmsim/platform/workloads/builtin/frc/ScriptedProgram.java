package org.hmsim.platform.workloads.builtin.frc;

import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;

/**
 * A warp program written as numbered steps, for the SDK kernel models: a step either emits one memory or
 * barrier instruction, is skipped (no active lane), or stands for {@code n} ALU instructions, which are
 * issued as {@code n} one-cycle COMPUTE instructions (one wavefront VALU instruction each, so that OPC and
 * MPKO count them as the thesis does; the first of a run waits for the warp's loads).
 */
abstract class ScriptedProgram implements WarpProgram {
    /** {@link #step} results besides an ALU count (>= 0). */
    static final int EMITTED = -1, SKIP = -2, END = -3;

    private int step, aluLeft;

    /**
     * Step {@code s}: emits its instruction into {@code o} and returns {@link #EMITTED}, or returns an ALU
     * instruction count, {@link #SKIP} or {@link #END}; called once per step.
     */
    abstract int step(int s, WarpInstruction o);

    @Override
    public final boolean next(WarpInstruction o) {
        if (aluLeft > 0) {
            aluLeft--;
            o.compute(1, false);
            return true;
        }
        while (true) {
            int r = step(step++, o);
            if (r == END) {
                step--;
                return false;
            }
            if (r == EMITTED) return true;
            if (r > 0) {
                aluLeft = r - 1;
                o.compute(1, true);
                return true;
            }
        }
    }

    /** Fills a memory instruction whose lane l accesses {@code base + stride·(first + l) + offset}. */
    static void linear(WarpInstruction o, WarpInstruction.Kind kind, int bytes, int mask, long base, long first, long stride, long offset) {
        o.memory(kind, bytes, mask, false);
        for (int l = 0; l < WarpInstruction.THREADS; l++) o.addresses[l] = base + stride * (first + l) + offset;
    }
}
