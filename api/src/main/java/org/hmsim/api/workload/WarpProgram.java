package org.hmsim.api.workload;

/** The instruction stream of one warp of one thread block, generated on demand. */
public interface WarpProgram {
    /** Fills {@code out} with the next instruction; returns false when the warp has exited. */
    boolean next(WarpInstruction out);
}
