package org.hmsim.platform.machine;

import java.util.Locale;
import org.hmsim.platform.cpu.CacheGeometry;
import org.hmsim.platform.cpu.CpuConfig;
import org.hmsim.platform.cpu.DirectoryConfig;

/**
 * The {@code cpu:} section of a machine file: the CPU cores, their caches and the CPU–GPU directory
 * (platform/cpu). Absent = no CPU side (the GPU-only machines of seeds 000/002–004). Defaults are
 * {@link CpuConfig#defaults()} (seed 001 Table 2 where it gives a value; see docs/machine-files.md).
 */
final class CpuSection {
    private CpuSection() {}

    static CpuConfig parse(Tree c) {
        CpuConfig d = CpuConfig.defaults();
        int cores = c.integer("cores", d.cores(), 1, 8);
        double mhz = c.megahertz("clock", d.clockMHz());
        int mlp = c.integer("mlp", d.mlp(), 1, 1024);
        CacheGeometry l1 = cache(c, "l1", d.l1());
        CacheGeometry l2 = cache(c, "l2", d.l2());
        CacheGeometry llc = cache(c, "llc", d.llc());
        int llcMshrs = c.integer("llc_mshrs", d.llcMshrs(), 1, 4096);
        Tree t = c.tree("directory");
        DirectoryConfig dd = d.directory();
        int entries = t.integer("entries", dd.entries(), 1, 1 << 26);
        int ways = t.integer("ways", dd.ways(), 1, 64);
        int banks = t.integer("banks", dd.banks(), 1, 1024), mshrs = t.integer("mshrs", dd.mshrs(), 1, 1 << 16);
        int lookup = t.integer("lookup_cycles", dd.lookupCycles(), 0, 100_000), bank = t.integer("bank_cycles", dd.bankCycles(), 1, 100_000);
        int cpuProbe = t.integer("cpu_probe_cycles", dd.cpuProbeCycles(), 0, 1_000_000), gpuProbe = t.integer("gpu_probe_cycles", dd.gpuProbeCycles(), 0, 1_000_000);
        t.finish();
        // what a GPU permission fault stops (seed 001 does not say): the walk that found it, or the whole GPU
        String stall = c.string("gpu_fault_stall", "walk").toLowerCase(Locale.ROOT);
        if (!stall.equals("walk") && !stall.equals("gpu")) {
            c.refuse("gpu_fault_stall", "unknown value '" + stall + "' (walk or gpu)");
            stall = "walk";
        }
        c.finish();
        // across fields, once every field has been read (a misspelt one is reported with the others)
        if (entries % ways != 0 || Integer.bitCount(entries / ways) != 1)
            throw new ConfigException(t.child("entries"), "entries / ways must be a power of two (entries " + entries + ", ways " + ways + ")");
        // the LLC is inclusive: one smaller than the private caches it covers back-invalidates their lines, and the cores'
        // caches quietly shrink to its size (a CPU-side trial's 32 KB LLC under 1 MB L1s ran without a word)
        if (llc.sizeBytes() < cores * l2.sizeBytes())
            throw new ConfigException(c.child("llc") + ".size", "an inclusive LLC of " + llc.sizeBytes() + " B is smaller than the "
                    + cores + " cores' private L2s it covers (" + cores + " x " + l2.sizeBytes() + " B): give it at least their size");
        if (l2.sizeBytes() < l1.sizeBytes())
            throw new ConfigException(c.child("l2") + ".size", "a core's L2 of " + l2.sizeBytes() + " B is smaller than its L1 ("
                    + l1.sizeBytes() + " B), which it includes");
        DirectoryConfig dir = new DirectoryConfig(entries, ways, banks, mshrs, lookup, bank, cpuProbe, gpuProbe);
        return new CpuConfig(cores, mhz, mlp, l1, l2, llc, llcMshrs, dir, CpuConfig.GpuFaultStall.valueOf(stall.toUpperCase(Locale.ROOT)));
    }

    private static CacheGeometry cache(Tree parent, String key, CacheGeometry d) {
        Tree t = parent.tree(key);
        long size = t.bytes("size", d.sizeBytes(), 1024, 1L << 34);
        int ways = t.integer("ways", d.ways(), 1, 64);
        int latency = t.integer("latency", d.latencyCycles(), 0, 100_000);
        t.finish();
        return new CacheGeometry(size, ways, latency);
    }

    /** Checks the caches' geometry against the machine's line size (the CPU caches use the GPU's line). */
    static void checkLines(CpuConfig cpu, int lineBytes) {
        check(cpu.l1(), "cpu.l1.size", lineBytes);
        check(cpu.l2(), "cpu.l2.size", lineBytes);
        check(cpu.llc(), "cpu.llc.size", lineBytes);
    }

    private static void check(CacheGeometry g, String path, int lineBytes) {
        long sets = g.sizeBytes() / ((long) g.ways() * lineBytes);
        if (sets < 1 || sets * g.ways() * lineBytes != g.sizeBytes() || Long.bitCount(sets) != 1)
            throw new ConfigException(path, "size / (ways x line " + lineBytes + " B) must be a power of two");
    }
}
