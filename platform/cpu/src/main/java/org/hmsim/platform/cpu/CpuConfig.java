package org.hmsim.platform.cpu;

/**
 * The CPU side of a machine (seed 001 Table 2: 2 cores at 2 GHz; 64 kB L1D per core; 2 MB shared L2,
 * which hmsim calls the LLC): {@code cores} cores at {@code clockMHz}, each with at most {@code mlp}
 * memory operations outstanding (the memory-level-parallelism window of a simple out-of-order core),
 * private L1 and L2, a shared LLC with {@code llcMshrs} miss registers, and the CPU–GPU directory.
 */
public record CpuConfig(int cores, double clockMHz, int mlp, CacheGeometry l1, CacheGeometry l2, CacheGeometry llc,
                        int llcMshrs, DirectoryConfig directory, GpuFaultStall gpuFaultStall) {
    /**
     * What a GPU coherence-permission fault stops while the OS serves it (seed 001 does not say; its summary's
     * open question 4): {@code WALK} only the walk that found it, so the warps waiting for that page (the
     * summary's default, "stall the faulting wavefront"); {@code GPU} every SM of the GPU.
     */
    public enum GpuFaultStall { WALK, GPU }

    public CpuConfig {
        if (cores < 1 || cores > 8) throw new IllegalArgumentException("cpu: cores must be in [1, 8]");
        if (!(clockMHz > 0) || mlp < 1 || llcMshrs < 1) throw new IllegalArgumentException("cpu: clock, mlp and llc mshrs must be > 0");
    }

    /** Seed 001 Table 2 where it gives a value; ours elsewhere (see docs/machine-files.md). */
    public static CpuConfig defaults() {
        return new CpuConfig(2, 2000, 8, new CacheGeometry(64 << 10, 8, 3), new CacheGeometry(256 << 10, 8, 12),
                new CacheGeometry(2 << 20, 16, 30), 32, DirectoryConfig.DEFAULT, GpuFaultStall.WALK);
    }
}
