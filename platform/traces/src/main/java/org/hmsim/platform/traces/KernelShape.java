package org.hmsim.platform.traces;

import org.hmsim.api.workload.WarpInstruction;

/** One kernel launch of a trace: its name, grid and block shapes (x, y, z) and shared memory per CTA. */
public record KernelShape(String name, int gridX, int gridY, int gridZ, int blockX, int blockY, int blockZ,
                          int sharedBytes) {
    public KernelShape {
        if (name == null || name.isEmpty()) throw new IllegalArgumentException("a kernel needs a name");
        if (gridX < 1 || gridY < 1 || gridZ < 1) throw new IllegalArgumentException("kernel " + name + ": grid dimensions must be >= 1");
        if (blockX < 1 || blockY < 1 || blockZ < 1) throw new IllegalArgumentException("kernel " + name + ": block dimensions must be >= 1");
        long threads = (long) blockX * blockY * blockZ;
        if (threads > 1024) throw new IllegalArgumentException("kernel " + name + ": " + threads + " threads per CTA (at most 1024)");
        if ((long) gridX * gridY * gridZ > Integer.MAX_VALUE) throw new IllegalArgumentException("kernel " + name + ": grid too large");
        if (sharedBytes < 0) throw new IllegalArgumentException("kernel " + name + ": negative shared memory");
    }

    /** A one-dimensional launch. */
    public static KernelShape linear(String name, int ctas, int threads, int shared) {
        return new KernelShape(name, ctas, 1, 1, threads, 1, 1, shared);
    }

    public int ctas() { return gridX * gridY * gridZ; }

    public int threadsPerCta() { return blockX * blockY * blockZ; }

    public int warpsPerCta() { return (threadsPerCta() + WarpInstruction.THREADS - 1) / WarpInstruction.THREADS; }

    /** The linear CTA index of block (x, y, z), CUDA order (x fastest). */
    public int ctaIndex(int x, int y, int z) { return x + gridX * (y + gridY * z); }
}
