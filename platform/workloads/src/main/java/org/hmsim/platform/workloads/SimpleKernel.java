package org.hmsim.platform.workloads;

import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpProgram;

/** A kernel launch described by its grid, block, shared memory and a factory of warp programs. */
public final class SimpleKernel implements Kernel {
    /** Creates the program of one warp; called once per warp, never per instruction. */
    @FunctionalInterface
    public interface ProgramFactory {
        WarpProgram program(int cta, int warp);
    }

    private final String name;
    private final int ctas;
    private final int threads;
    private final int sharedBytes;
    private final ProgramFactory factory;

    public SimpleKernel(String name, int ctas, int threadsPerCta, int sharedBytesPerCta, ProgramFactory factory) {
        if (ctas < 1) throw new IllegalArgumentException("kernel " + name + ": needs at least one CTA, was " + ctas);
        if (threadsPerCta < 1 || threadsPerCta > 1024)
            throw new IllegalArgumentException("kernel " + name + ": threads per CTA must be in [1, 1024], was " + threadsPerCta);
        this.name = name;
        this.ctas = ctas;
        this.threads = threadsPerCta;
        this.sharedBytes = sharedBytesPerCta;
        this.factory = factory;
    }

    @Override public String name() { return name; }
    @Override public int ctas() { return ctas; }
    @Override public int threadsPerCta() { return threads; }
    @Override public int sharedBytesPerCta() { return sharedBytes; }

    @Override
    public WarpProgram program(int cta, int warp) {
        if (cta < 0 || cta >= ctas || warp < 0 || warp >= warpsPerCta())
            throw new IllegalArgumentException("kernel " + name + ": no warp " + warp + " in CTA " + cta);
        return factory.program(cta, warp);
    }

    @Override public String toString() { return name + "<<<" + ctas + ", " + threads + ">>>"; }
}
