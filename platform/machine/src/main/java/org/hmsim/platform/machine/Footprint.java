package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.hmsim.platform.cpu.CacheGeometry;
import org.hmsim.platform.cpu.CpuConfig;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.GpuConfig;
import org.hmsim.platform.memory.PoolConfig;

/**
 * The memory the model's sized structures take, from a machine's fields, checked before anything is built. Each field
 * has a range, but sizes in range could still ask for more than a heap holds: {@code gpu.l1.size: 16GiB} is 2^27 lines
 * in each SM's L1, whose tag arrays ran a run out of memory (OutOfMemoryError, no field named; a bad-input review).
 *
 * <p>A <em>structure</em> is one kind of array-backed part in all its copies (every SM's L1, every slice's MSHRs, every
 * channel's queue of a pool): its estimate is entries x copies x the bytes the model's arrays keep per entry (tag,
 * sector masks, lock and replacement stamp per cache line, ...; a reference counted as 4 B, as a heap under 32 GB keeps it).
 * Built machines measured with {@code jmap -histo:live} agree within a few percent. One structure may take at most {@link #STRUCTURE}
 * (1 GiB), the machine's structures together at most {@link #MACHINE} (2 GiB); docs/machine-files.md ("How big a machine
 * can be") lists the structures and their bytes per entry. Structures that grow only as they are used (link queues,
 * page tables, freed-frame lists, the UVM driver's page state) depend on the workload and are not counted. The
 * CPU-GPU directory's entries are bounded by their own range (at most 2^26: about 1.1 GB) and count towards the
 * machine's total only.
 */
final class Footprint {
    private Footprint() {}

    /** The most one structure may take, bytes. */
    static final long STRUCTURE = 1L << 30;
    /** The most the machine's structures may take together, bytes. */
    static final long MACHINE = 2L << 30;

    /**
     * One structure: {@code path} is the field named when it is too big; {@code lead} says where its count comes from
     * ("16GiB in 128 B lines is"), {@code unit} what it counts ("lines"); {@code copies} of {@code copiesWhat} ("SMs' L1s").
     */
    record Structure(String path, String lead, String unit, double perCopy, double copies, String copiesWhat, double bytes, boolean bounded) {}

    /** The errors of a machine whose structures are too big (one per structure, or one for the whole), empty if none. */
    static List<ConfigException> check(int gpus, GpuConfig gpu, List<PoolConfig> pools, CpuConfig cpu) {
        List<Structure> all = structures(gpus, gpu, pools, cpu);
        List<ConfigException> errors = new ArrayList<>();
        for (Structure s : all)
            if (s.bounded() && s.bytes() > STRUCTURE)
                errors.add(new ConfigException(s.path(), describe(s) + "; one structure of the model may take at most " + size(STRUCTURE)
                        + " (docs/machine-files.md, \"How big a machine can be\")"));
        if (!errors.isEmpty()) return errors;
        double total = all.stream().mapToDouble(Structure::bytes).sum();
        if (total > MACHINE) {
            Structure big = all.stream().max(java.util.Comparator.comparingDouble(Structure::bytes)).orElseThrow();
            errors.add(new ConfigException(big.path(), "the machine's structures would take about " + size(total) + " of memory together, at most "
                    + size(MACHINE) + " may be (docs/machine-files.md, \"How big a machine can be\"); the largest: " + describe(big)));
        }
        return errors;
    }

    /** {@code 16GiB in 128 B lines is 134217728 lines in each of the 4 SMs' L1s, 536870912 in all, about 12.5 GiB of memory}. */
    private static String describe(Structure s) {
        String lead = s.lead().isEmpty() ? "" : s.lead() + " ";
        if (s.copies() == 1) return lead + count(s.perCopy()) + " " + s.unit() + ", about " + size(s.bytes()) + " of memory";
        return lead + count(s.perCopy()) + " " + s.unit() + " in each of the " + count(s.copies()) + " " + s.copiesWhat() + ", "
                + count(s.perCopy() * s.copies()) + " in all, about " + size(s.bytes()) + " of memory";
    }

    /** Every structure a machine of these sections builds. */
    static List<Structure> structures(int gpus, GpuConfig gpu, List<PoolConfig> pools, CpuConfig cpu) {
        List<Structure> out = new ArrayList<>();
        if (gpu != null) {
            double sms = (double) gpu.sms() * gpus, slices = (double) gpu.l2Slices() * gpus;
            String ofGpus = gpus == 1 ? "" : " of the " + gpus + " GPUs";
            String smL1s = "SMs' L1s" + ofGpus, l2s = "L2 slices" + ofGpus;
            CacheConfig l1 = gpu.l1(), l2 = gpu.l2();
            // L1: per line tag (8), valid and dirty sector masks (4 + 4), lock (1), replacement stamp (8, as LRU's)
            double l1Lines = (double) l1.sizeBytes() / l1.lineBytes();
            out.add(new Structure("gpu.l1.size", bytes(l1.sizeBytes()) + " in " + l1.lineBytes() + " B lines is", "lines", l1Lines, sms, smL1s,
                    l1Lines * 25 * sms, true));
            // L1 MSHRs: 43 B of state each, a line-to-MSHR map, and mshr_merge waiting requests (8 B) each
            double l1Slots = (double) l1.mshrs() * l1.mshrMerge();
            out.add(new Structure(l1.mshrMerge() > l1.mshrs() ? "gpu.l1.mshr_merge" : "gpu.l1.mshrs", "mshrs " + l1.mshrs() + " x mshr_merge "
                    + l1.mshrMerge() + " is", "request slots", l1Slots, sms, smL1s, (l1.mshrs() * 43.0 + map(l1.mshrs()) + l1Slots * 8) * sms, true));
            // L2: as the L1, plus the sharer bits of each line (8); a fully associative bank also a map and LRU links
            double l2Lines = (double) l2.sizeBytes() / l2.lineBytes();
            boolean fa = l2.sets() == 1 && l2.ways() > 64;
            out.add(new Structure("gpu.l2.size", bytes(l2.sizeBytes()) + " in " + l2.lineBytes() + " B lines is", "lines", l2Lines, slices, l2s,
                    (l2Lines * 33 + (fa ? l2Lines * 12 + map((long) l2Lines) : 0)) * slices, true));
            // L2 MSHRs: about 130 B of transaction state each, a map, and per MSHR mshr_merge targets (references, 4 B) per 32 B sector of a line
            double l2Slots = (double) l2.mshrs() * l2.mshrMerge() * (l2.lineBytes() / 32);
            out.add(new Structure(l2.mshrMerge() > l2.mshrs() ? "gpu.l2.mshr_merge" : "gpu.l2.mshrs", "mshrs " + l2.mshrs() + " x mshr_merge "
                    + l2.mshrMerge() + " x " + l2.lineBytes() / 32 + " sectors a line is", "target slots", l2Slots, slices, l2s,
                    (l2.mshrs() * 130.0 + map(l2.mshrs()) + l2Slots * 4) * slices, true));
            // an L2 slice's input queue (4 B a request) and the list of requests waiting for a set (16 B, twice the queue)
            out.add(new Structure("gpu.l2.queue", "", "queue entries (and twice as many waiting for a set)", l2.queueDepth(),
                    slices, l2s, (l2.queueDepth() * 4.0 + Math.max(64, 2.0 * l2.queueDepth()) * 16) * slices, true));
            // the crossbar's FIFO to each slice: the queue rounded up to a power of two, 12 B an entry
            int q = gpu.crossbar().queueDepth();
            double fifo = Math.max(2, Long.highestOneBit(Math.max(1, q - 1)) << 1);
            out.add(new Structure("gpu.crossbar.queue", "", "FIFO entries", fifo, slices, "crossbar ports to L2 slices" + ofGpus,
                    fifo * 12 * slices, true));
            // TLBs: page, frame and stamp (24 B) an entry, and a page-to-entry map when the sets are wider than 16 ways
            var tlb = gpu.tlb();
            out.add(new Structure("gpu.tlb.l1_entries", "", "L1 TLB entries", tlb.l1Entries(), sms, "SMs" + ofGpus,
                    (tlb.l1Entries() * 24.0 + (tlb.l1Ways() > 16 ? map(tlb.l1Entries()) : 0)) * sms, true));
            out.add(new Structure("gpu.tlb.l2_entries", "", "L2 TLB entries", tlb.l2Entries(), gpus, "GPUs",
                    (tlb.l2Entries() * 24.0 + (tlb.l2Ways() > 16 ? map(tlb.l2Entries()) : 0)) * gpus, true));
        }
        for (int i = 0; i < pools.size(); i++) { // a DRAM channel's queue: request, bank, row, times, links, 58 B an entry
            PoolConfig p = pools.get(i);
            out.add(new Structure("pools." + i + ".queue", "", "queue entries", p.queueDepth(), p.channels(),
                    "channels of pool '" + p.name() + "'", 58.0 * p.queueDepth() * p.channels(), true));
        }
        if (cpu != null && gpu != null) { // the CPU caches use the GPU's line; a line is tag, state and stamp (17 B)
            int line = gpu.l1().lineBytes();
            out.add(cpuCache("cpu.l1.size", cpu.l1(), line, cpu.cores()));
            out.add(cpuCache("cpu.l2.size", cpu.l2(), line, cpu.cores()));
            out.add(cpuCache("cpu.llc.size", cpu.llc(), line, 1));
            var d = cpu.directory();
            out.add(new Structure("cpu.directory.entries", "", "directory entries", d.entries(), 1, "", d.entries() * 17.0, false));
            // each bank queues up to every MSHR (4 B each)
            out.add(new Structure(d.banks() > d.mshrs() ? "cpu.directory.banks" : "cpu.directory.mshrs", "mshrs " + d.mshrs() + " x banks " + d.banks()
                    + " is", "bank queue slots", (double) d.mshrs() * d.banks(), 1, "", d.mshrs() * 42.0 + 4.0 * d.mshrs() * d.banks(), true));
        }
        return out;
    }

    /** A CPU cache: per core, or the LLC (one, with a byte per line saying which cores hold it). */
    private static Structure cpuCache(String path, CacheGeometry g, int line, int cores) {
        double lines = (double) g.sizeBytes() / line;
        return new Structure(path, bytes(g.sizeBytes()) + " in " + line + " B lines is", "lines", lines, cores, "cores",
                lines * (cores == 1 ? 18 : 17) * cores, true);
    }

    /** Bytes of the model's open-addressing map for {@code n} entries (LongIntMap: at most a quarter full, two longs a slot). */
    static double map(long n) {
        long cap = Long.highestOneBit(Math.max(4, 4 * Math.min(n, 1L << 40) - 1)) << 1;
        return cap * 16.0;
    }

    private static String count(double n) {
        return n < 1e15 ? Long.toString((long) n) : String.format(Locale.ROOT, "%.3g", n);
    }

    /** A size as the machine file would write it: 16GiB, 512KiB. */
    private static String bytes(long b) {
        String[] units = {"TiB", "GiB", "MiB", "KiB"};
        for (int i = 0; i < units.length; i++) {
            long u = 1L << (40 - 10 * i);
            if (b >= u && b % u == 0) return b / u + units[i];
        }
        return b + "B";
    }

    /** Memory, one decimal: 12.5 GiB, 640.0 MiB. */
    static String size(double b) {
        double v = b >= (1L << 30) ? b / (1L << 30) : b / (1L << 20);
        String n = v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%.1f", v);
        return n + (b >= (1L << 30) ? " GiB" : " MiB");
    }
}
