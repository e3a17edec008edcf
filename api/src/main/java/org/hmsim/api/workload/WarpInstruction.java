package org.hmsim.api.workload;

/**
 * One instruction of a warp's stream, filled in place by {@link WarpProgram#next} (reused: nothing is
 * allocated per instruction). Memory instructions carry one address per active thread; the SM's
 * coalescer turns them into 32 B sector and 128 B line requests.
 */
public final class WarpInstruction {
    public static final int THREADS = 32;

    public enum Kind {
        /** {@link #cycles} cycles of arithmetic (issue occupancy of the warp). */
        COMPUTE,
        LOAD,
        STORE,
        ATOMIC,
        /** Waits for every warp of the thread block ({@code __syncthreads}). */
        BARRIER
    }

    public Kind kind = Kind.COMPUTE;
    public int cycles;
    /** Bit t set = thread t executes this instruction. */
    public int activeMask = -1;
    /** Bytes each thread accesses (4 for a float, 8 for a double, up to 16). */
    public int bytesPerThread = 4;
    /** Virtual byte address per thread; only entries of active threads are read. */
    public final long[] addresses = new long[THREADS];
    /**
     * The instruction needs the values of every load this warp issued before it (a dependent load,
     * or arithmetic on loaded data): the warp waits for them before issuing it.
     */
    public boolean waitsForLoads;

    public void compute(int cycles, boolean waitsForLoads) {
        this.kind = Kind.COMPUTE;
        this.cycles = cycles;
        this.waitsForLoads = waitsForLoads;
        this.activeMask = -1;
    }

    /** A memory instruction; the caller then fills {@link #addresses}. */
    public void memory(Kind kind, int bytesPerThread, int activeMask, boolean waitsForLoads) {
        this.kind = kind;
        this.bytesPerThread = bytesPerThread;
        this.activeMask = activeMask;
        this.waitsForLoads = waitsForLoads;
        this.cycles = 0;
    }

    public void barrier() {
        this.kind = Kind.BARRIER;
        this.cycles = 0;
        this.waitsForLoads = false;
        this.activeMask = -1;
    }
}
