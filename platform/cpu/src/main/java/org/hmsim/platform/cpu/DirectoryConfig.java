package org.hmsim.platform.cpu;

/**
 * The block-grain, inclusive CPU–GPU directory (seed 001 §2, Table 2: 262,144 entries, "8-way banked",
 * read as 8 banks). Entries are set-associative with {@code ways}; each bank takes a new lookup every
 * {@code bankCycles} and answers after {@code lookupCycles}; an MSHR is held from acceptance until the
 * request completes (probes and the memory access included). Probe round trips to the CPU caches and
 * to the GPU L2 cost {@code cpuProbeCycles} and {@code gpuProbeCycles}. All cycles are CPU cycles.
 * The seed gives no latencies or MSHR counts: those defaults are ours.
 */
public record DirectoryConfig(int entries, int ways, int banks, int mshrs, int lookupCycles, int bankCycles,
                              int cpuProbeCycles, int gpuProbeCycles) {
    public static final DirectoryConfig DEFAULT = new DirectoryConfig(262_144, 16, 8, 64, 20, 4, 40, 200);

    public DirectoryConfig {
        if (entries < 1 || ways < 1 || entries % ways != 0) throw new IllegalArgumentException("directory: entries must be a positive multiple of ways");
        if (Integer.bitCount(entries / ways) != 1) throw new IllegalArgumentException("directory: entries / ways must be a power of two");
        if (banks < 1 || mshrs < 1) throw new IllegalArgumentException("directory: banks and mshrs must be >= 1");
        if (lookupCycles < 0 || bankCycles < 1 || cpuProbeCycles < 0 || gpuProbeCycles < 0) throw new IllegalArgumentException("directory: bad cycle count");
    }

    public int sets() { return entries / ways; }
}
