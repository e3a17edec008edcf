package org.hmsim.api.workload;

import java.util.List;

/**
 * Work the host CPU does between kernel launches (seed 001 §3: CPU initialisation, CPU interaction
 * between kernels, CPU post-processing). The phase runs on the CPU cores before kernel
 * {@link #beforeKernel} launches; {@code beforeKernel == 0} is initialisation, a value at or beyond the
 * kernel count is post-processing (after the last kernel). Each stream is split across the cores in
 * contiguous chunks; every access is one word at {@code strideBytes} apart, separated by
 * {@link #computeCycles} CPU cycles of work. Since api.workload 1.1.0.
 *
 * <p>An {@link #alongside} phase (since api.workload 1.5.0) runs <em>while</em> kernel {@code beforeKernel} runs
 * instead of before it, as a program's CPU works between an asynchronous launch and its synchronisation: it starts
 * as the kernel starts, and the program waits for both before its next host work or launch. CPU and GPU then contend
 * for the memory system (the directory, the links, the DRAM pools) as they do on the hardware.
 */
public record HostPhase(int beforeKernel, String name, List<Stream> streams, int computeCycles, boolean alongside) {
    /** Post-processing: after the last kernel. */
    public static final int AFTER_LAST_KERNEL = Integer.MAX_VALUE;

    public HostPhase {
        if (beforeKernel < 0) throw new IllegalArgumentException("host phase " + name + ": beforeKernel must be >= 0");
        if (computeCycles < 0) throw new IllegalArgumentException("host phase " + name + ": computeCycles must be >= 0");
        if (alongside && beforeKernel == AFTER_LAST_KERNEL)
            throw new IllegalArgumentException("host phase " + name + ": alongside needs a kernel, not the end of the program");
        streams = List.copyOf(streams);
    }

    /** A phase before kernel {@code beforeKernel} (api.workload 1.1.0's form). */
    public HostPhase(int beforeKernel, String name, List<Stream> streams, int computeCycles) {
        this(beforeKernel, name, streams, computeCycles, false);
    }

    /** {@code bytes} from virtual address {@code base}, one access every {@code strideBytes}; writes or reads. */
    public record Stream(long base, long bytes, int strideBytes, boolean write) {
        public Stream {
            if (bytes <= 0 || strideBytes <= 0) throw new IllegalArgumentException("host stream: bytes and stride must be > 0");
        }

        public long accesses() { return (bytes + strideBytes - 1) / strideBytes; }
    }
}
