package org.hmsim.api.workload;

import java.util.List;

/**
 * Independent programs run side by side, each on a GPU of its own: seed 004 §6.5's multiprogrammed mixes. The
 * platform runs program {@code p} on GPU {@code p}: it makes the program's allocations (telling the memory manager
 * whose they are, {@link org.hmsim.api.os.MemoryManager#programGpu}), then launches its kernels one after another on
 * that GPU alone, while the other programs do the same on theirs. The run ends when the last program ends.
 *
 * <p>As a plain {@link Workload} (for validation and tools that count allocations and launches) a mix is its
 * programs one after another: their allocations in program order (named {@link #allocationName}), their kernels in program order, each program's
 * kernels built from its own slice of the base addresses. Since api.workload 1.3.0.
 */
public interface Multiprogram extends Workload {
    /** The programs, in GPU order: program p runs on GPU p. */
    List<Workload> programs();

    /**
     * Allocation {@code name} of program {@code program} as a mix's run names it: {@code p<program>.<name>}. Two programs may
     * both allocate "own"; policies and statistics keyed by allocation name (hints, per-allocation counters) must tell
     * them apart, and a study names them so ({@code hints: {p1.own: BO}}).
     */
    static String allocationName(int program, String name) { return "p" + program + "." + name; }
}
