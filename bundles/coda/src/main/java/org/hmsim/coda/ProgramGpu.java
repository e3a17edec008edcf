package org.hmsim.coda;

import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;

/**
 * Seed 004 §6.5: in a multiprogrammed mix each program runs on a GPU of its own, so with page-grained mapping "memory
 * pages that an application accesses can be allocated to the GPU where the application is executed".
 */
final class ProgramGpu {
    private ProgramGpu() {}

    /** The memory for the next page of {@code a} when its program has a GPU of its own, else -1. */
    static int memoryOf(MemoryManager memory, Allocation a, GpuGeometry.MemoryTurns turns) {
        // one GPU: the program has the whole machine, and each policy keeps its own rule (a review saw coarse turn into first-touch)
        if (turns.gpus() <= 1) return -1;
        return turns.nextOf(memory.programGpu(a));
    }
}
