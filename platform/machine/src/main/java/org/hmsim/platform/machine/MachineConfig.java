package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.hmsim.platform.cpu.CpuConfig;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.CrossbarConfig;
import org.hmsim.platform.gpu.GpuConfig;
import org.hmsim.platform.gpu.TlbConfig;
import org.hmsim.platform.memory.DramEnergy;
import org.hmsim.platform.memory.DramTiming;
import org.hmsim.platform.memory.LinkConfig;
import org.hmsim.platform.memory.PoolConfig;

/**
 * A machine description: GPUs, memory pools, links, page size, per-event energies. Parsed from the tree
 * of a machine file (YAML preset with a study's overrides already applied). The schema, with every
 * default, is documented in {@code docs/machine-files.md}; defaults follow seed 000's Table 3.1/4.1
 * (GTX-480-like GPU) where the seed gives a value.
 */
public final class MachineConfig {
    private final String name;
    private final Map<String, Object> tree;
    private final int gpus;
    private final GpuConfig gpu;
    private final List<PoolConfig> pools;
    private final List<LinkConfig> links;
    private final long pageBytes;
    private final GpuEnergy gpuEnergy;
    /** Unified memory (demand paging, seed 002), or null. Set after construction by {@link #parse}. */
    private org.hmsim.platform.machine.uvm.UvmConfig uvm;
    /** The {@code cpu:} section (platform/cpu), or null: no CPU side. Set after construction by {@link #parse}. */
    private CpuConfig cpu;
    /** {@code watchdog:}: simulated time without progress after which a run fails as deadlocked (0 = off). Set by {@link #parse}. */
    private long watchdogPs = DEFAULT_WATCHDOG_PS;

    /**
     * 10 ms simulated: 500 UVM far faults (20 us) or 4000 SAHC permission faults (2.5 us) served back to
     * back with nothing else moving. A deadlocked run costs only the epoch clock's ticks until then.
     */
    public static final long DEFAULT_WATCHDOG_PS = 10_000_000_000L;

    private MachineConfig(String name, Map<String, Object> tree, int gpus, GpuConfig gpu, List<PoolConfig> pools,
                          List<LinkConfig> links, long pageBytes, GpuEnergy gpuEnergy) {
        this.name = name;
        this.tree = tree;
        this.gpus = gpus;
        this.gpu = gpu;
        this.pools = List.copyOf(pools);
        this.links = List.copyOf(links);
        this.pageBytes = pageBytes;
        this.gpuEnergy = gpuEnergy;
    }

    /** Energy per GPU-side event, picojoules (documented estimates; see docs/machine-files.md). */
    /** Per-event GPU energies, pJ; {@code frcLookupPj}/{@code frcSwapPj}: seed 003 §6.6.4's FRC access and swap events. */
    public record GpuEnergy(double l1AccessPj, double l2AccessPj, double xbarPjPerByte, double instructionPj,
                            double frcLookupPj, double frcSwapPj) {}

    /**
     * Parses and validates a description tree (maps, lists, strings, numbers as SnakeYAML gives them).
     * Throws {@link ConfigException} naming the dotted path of the bad field; when several fields are bad, every one of
     * them, in whichever sections (the GPU, each pool, each link, energy, uvm, cpu, ...), all at once
     * ({@link ConfigException#all()}), so a user fixes a file in one round.
     */
    public static MachineConfig parse(Map<String, Object> tree) {
        Tree t = new Tree("", tree);
        List<ConfigException> errors = new ArrayList<>();
        String name = t.string("name", "machine");
        t.raw("description");
        int gpus = section(t, errors, 1, () -> t.integer("gpus", 1, 1, 64));
        long page = section(t, errors, 4096L, () -> {
            long p = t.bytes("page_size", 4096, 512, 1L << 30);
            if (Long.bitCount(p) != 1) throw new ConfigException("page_size", "must be a power of two");
            return p;
        });
        GpuConfig gpu = section(t, errors, null, () -> {
            Tree g = t.tree("gpu");
            GpuConfig c = gpu(g);
            g.finish();
            return c;
        });
        // a bad gpu section: the pools and links are still read, their cycle counts at the default clock
        double mhz = gpu == null ? DEFAULT_CLOCK_MHZ : gpu.clockMHz();
        List<PoolConfig> pools = new ArrayList<>();
        List<Tree> poolTrees = new ArrayList<>();
        Set<String> names = new HashSet<>();
        // a machine-wide jitter every pool takes unless it gives its own (a 4-stack machine needs one key, not four)
        long jitter = section(t, errors, 0L, () -> {
            long j = t.picoseconds("jitter", 0);
            if (!jitterInRange(j)) throw new ConfigException(t.child("jitter"), JITTER_RANGE);
            return j;
        });
        for (Tree p : section(t, errors, List.<Tree>of(), () -> t.list("pools"))) {
            PoolConfig pc = section(t, errors, null, () -> pool(p, pools.size(), gpus, mhz, jitter));
            if (pc == null) continue;
            // a pool holds whole pages: one smaller than a page held nothing and every page spilled (a placement trial)
            if (pc.capacityBytes() < page)
                errors.add(new ConfigException(p.child("capacity"), "a capacity of " + pc.capacityBytes() + " B holds no page of "
                        + page + " B (page_size): give at least one page"));
            if (!names.add(pc.name())) errors.add(new ConfigException(p.child("name"), "pool name '" + pc.name() + "' used twice"));
            // a request is served in the bank and row of its first byte: a line across two rows took one ACT (a DRAM trial's
            // row: 64 under 128 B lines counted 64 ACTs for 128 row openings)
            int line = gpu == null ? 128 : gpu.l2().lineBytes();
            if (pc.rowBytes() < Math.max(line, pc.burstBytes()))
                errors.add(new ConfigException(p.child("row"), "a row of " + pc.rowBytes() + " B is smaller than " + (pc.burstBytes() > line
                        ? "a burst (" + pc.burstBytes() + " B)" : "the L2 line (" + line + " B)") + ": a request is served whole in the row of its first"
                        + " byte, so one crossing rows would take one ACT for two; give at least " + Math.max(line, pc.burstBytes()) + "B"));
            pools.add(pc);
            poolTrees.add(p);
        }
        List<LinkConfig> links = new ArrayList<>();
        Set<String> linkNames = new HashSet<>();
        for (Tree l : section(t, errors, List.<Tree>of(), () -> t.list("links"))) {
            LinkConfig lc = section(t, errors, null, () -> link(l, gpus, mhz));
            if (lc == null) continue;
            if (!linkNames.add(lc.name())) errors.add(new ConfigException(l.child("name"), "link name '" + lc.name() + "' used twice"));
            else links.stream().filter(other -> connects(other, lc.nodeA(), lc.nodeB())).findFirst()
                    .ifPresent(other -> errors.add(new ConfigException(l.child("between"), "nodes already joined by link '" + other.name() + "'")));
            links.add(lc);
        }
        GpuEnergy ge = section(t, errors, null, () -> {
            Tree e = t.tree("energy");
            GpuEnergy en = new GpuEnergy(e.real("l1_access_pj", 20, 0, 1e6), e.real("l2_access_pj", 60, 0, 1e6),
                    e.real("xbar_pj_per_byte", 2, 0, 1e6), e.real("instruction_pj", 30, 0, 1e6),
                    e.real("frc_lookup_pj", 5, 0, 1e6), e.real("frc_swap_pj", 140, 0, 1e6));
            e.finish();
            return en;
        });
        org.hmsim.platform.machine.uvm.UvmConfig uvm = section(t, errors, null, () -> UvmSection.parse(t, links, pools, gpus));
        CpuConfig cpu = section(t, errors, null, () -> { // the CPU side (platform/cpu), or none
            CpuConfig c = t.has("cpu") ? CpuSection.parse(t.tree("cpu")) : null;
            if (c != null && gpu != null) CpuSection.checkLines(c, gpu.l1().lineBytes());
            // the CPU-GPU directory takes a GPU write-back as the GPU's write: a notice would invalidate the CPU's copy
            if (c != null && gpu != null && gpu.l2().evictNotice())
                throw new ConfigException(t.tree("gpu").tree("l2").child("evict_notice"), "not with a cpu: section: the CPU-GPU directory has no "
                        + "eviction notices (it would take a clean eviction for a GPU write-back and invalidate the CPU's copy)");
            return c;
        });
        if (gpu != null && gpu.l1().writeBack()) section(t, errors, null, () -> { // dirty L1 data where frames leave the GPU
            String frames = ": frames that leave a GPU drop its L2 lines, and the L1s' dirty data with them";
            String why = cpu != null ? "a cpu: section" + frames : uvm != null ? "a uvm: section" + frames : gpus > 1 ? "more than one GPU" + frames : null;
            if (why != null) throw new ConfigException(t.tree("gpu").tree("l1").child("write_policy"), "write-back is not modelled with " + why);
            return null;
        });
        long watchdog = section(t, errors, DEFAULT_WATCHDOG_PS, () -> t.picoseconds("watchdog", DEFAULT_WATCHDOG_PS));
        for (int i = 0; i < pools.size(); i++) errors.addAll(slowerThanTheWatchdog(pools.get(i), poolTrees.get(i), watchdog));
        section(t, errors, null, () -> {
            t.finish();
            return null;
        });
        // sizes each in range can still ask for more memory than a heap holds (gpu.l1.size: 16GiB ran out of it mid-run):
        // refused here, naming the field, with what the model would allocate
        errors.addAll(t.takeDeferred()); // none read outside a section, but none may go unsaid either
        inFileOrder(errors, tree);
        if (errors.isEmpty()) errors.addAll(Footprint.check(gpus, gpu, pools, cpu));
        ConfigException.throwIfAny(errors);
        // the whole machine: only once every section reads (a pool that failed would show as missing)
        checkAttachments(pools, links, gpus);
        // unified memory with a CPU side: the pages the CPU touches first live in host memory until the GPU faults them
        // over (UvmDriver.hostTranslate); without a pool on the CPU's node they would take GPU frames outside the driver's
        if (uvm != null && cpu != null && pools.stream().noneMatch(p -> p.node() == gpus))
            throw new ConfigException("cpu", "with a uvm: section the CPU needs a pool on node cpu: the pages it touches first "
                    + "live in host memory until the GPU faults them over (GPU memory is the unified-memory driver's)");
        MachineConfig mc = new MachineConfig(name, tree, gpus, gpu, pools, links, page, ge);
        mc.uvm = uvm;
        mc.cpu = cpu;
        mc.watchdogPs = watchdog;
        return mc;
    }

    private static final double DEFAULT_CLOCK_MHZ = 1400;

    /**
     * Sorts errors as their fields stand in the description (depth first, in the order written: a file's errors top to
     * bottom), not in the order they were read (a section's unknown fields came last); a field that is not there (one
     * required) stands where its parent does. Stable: errors of one field keep their order.
     */
    static void inFileOrder(List<ConfigException> errors, Map<String, Object> tree) {
        if (errors.size() < 2) return;
        Map<String, Integer> order = new java.util.HashMap<>();
        number("", tree, order);
        errors.sort(java.util.Comparator.comparingInt(e -> position(order, e.path())));
    }

    private static void number(String path, Object node, Map<String, Integer> order) {
        order.putIfAbsent(path, order.size());
        if (node instanceof Map<?, ?> m) m.forEach((k, v) -> number(path.isEmpty() ? String.valueOf(k) : path + "." + k, v, order));
        else if (node instanceof List<?> l) for (int i = 0; i < l.size(); i++) number(path + "." + i, l.get(i), order);
    }

    private static int position(Map<String, Integer> order, String path) {
        for (String p = path; ; ) {
            Integer n = order.get(p);
            if (n != null) return n;
            int dot = p.lastIndexOf('.');
            if (dot < 0) return order.size(); // nowhere in the description: last
            p = p.substring(0, dot);
        }
    }

    /**
     * Reads one section; a bad one adds its errors to {@code errors} and gives {@code fallback}. Its bad fields are all
     * reported ({@link Tree#takeDeferred}); an error thrown by a check across its fields only when no field was bad, since
     * a bad field read as its default may be what failed the check.
     */
    private static <T> T section(Tree root, List<ConfigException> errors, T fallback, java.util.function.Supplier<T> read) {
        T value;
        ConfigException thrown = null;
        try {
            value = read.get();
        } catch (ConfigException e) {
            thrown = e;
            value = fallback;
        }
        List<ConfigException> fields = root.takeDeferred();
        errors.addAll(fields);
        if (thrown != null && fields.isEmpty()) errors.addAll(thrown.all());
        return fields.isEmpty() ? value : fallback;
    }

    /** Every GPU has a pool on its node, and a link to every pool elsewhere. */
    private static void checkAttachments(List<PoolConfig> pools, List<LinkConfig> links, int gpus) {
        // after finish: a misspelt "poolz:" is reported as the unknown field it is, not as missing pools
        if (pools.isEmpty()) throw new ConfigException("pools", "a machine needs at least one memory pool");
        if (pools.size() > 255) throw new ConfigException("pools", "at most 255 pools");
        for (int n = 0; n < gpus; n++) {
            final int node = n;
            if (pools.stream().noneMatch(p -> p.node() == node))
                throw new ConfigException("pools", "GPU " + n + " has no pool attached to its node gpu" + n);
        }
        // every GPU reaches every pool it does not hold over a link of its own: the CPU's, and on a multi-GPU
        // machine every other GPU's (that one was found only when the run built the machine, found by a review)
        for (PoolConfig p : pools) {
            for (int n = 0; n < gpus; n++) {
                final int node = n;
                if (node == p.node()) continue;
                if (links.stream().noneMatch(l -> connects(l, node, p.node())))
                    throw new ConfigException("links", "no link from gpu" + n + " to pool '" + p.name() + "' on node " + nodeName(p.node(), gpus));
            }
        }
    }

    static boolean connects(LinkConfig l, int a, int b) {
        return (l.nodeA() == a && l.nodeB() == b) || (l.nodeA() == b && l.nodeB() == a);
    }

    static String nodeName(int node, int gpus) { return node == gpus ? "cpu" : "gpu" + node; }

    private static GpuConfig gpu(Tree g) {
        double mhz = g.megahertz("clock", DEFAULT_CLOCK_MHZ);
        int sms = g.integer("sms", 15, 1, 64);
        int ctas = g.integer("max_ctas_per_sm", 8, 1, 64);
        int warps = g.integer("max_warps_per_sm", 48, 1, 64);
        long shared = g.bytes("shared_memory_per_sm", 48 << 10, 0, 1L << 30);
        int issue = g.integer("issue_width", 2, 1, 8);
        Tree l1t = g.tree("l1");
        // ports: an L1's only (an L2 slice takes what its crossbar port delivers, one packet a cycle)
        CacheConfig l1 = cache(l1t, 16 << 10, 4, 3, 64, 8, 64, 8, false).withPorts(l1t.integer("ports", 1, 1, 64))
                .withWriteBack(writePolicy(l1t)).withFixedLru(fixedLru(l1t));
        l1t.finish();
        Tree l2t = g.tree("l2");
        int slices = l2t.integer("slices", 8, 1, 256);
        // evict_notice: a clean victim's eviction waits for the memory side's acknowledgement (Multi2Sim 4.2's NMOESI)
        CacheConfig l2 = cache(l2t, 128 << 10, 8, 120, 128, 8, 64, 32, true).withEvictNotice(l2t.bool("evict_notice", false))
                .withInvalidationMessages(invalidation(l2t)).withFixedLru(fixedLru(l2t));
        l2t.finish();
        // an L1 request's sector mask is its own line's and answers one L2 line: with other sizes an L1 line of 64 B took
        // bytes 64-127 for 0-63 and one of 1 KB fetched an eighth of its line, the DRAM traffic halved or worse (a trial)
        if (l1.lineBytes() != l2.lineBytes())
            throw new ConfigException(l1t.has("line") ? l1t.child("line") : l2t.child("line"), "an L1 line of " + l1.lineBytes()
                    + " B under an L2 line of " + l2.lineBytes() + " B is not modelled: give gpu.l1.line and gpu.l2.line the same size");
        Tree x = g.tree("crossbar");
        int sliceChunk = (int) x.bytes("slice_interleave", 0, 0, 1L << 30); // 0 = hashed; seed 003: 256 B
        if (sliceChunk != 0 && Integer.bitCount(sliceChunk) != 1) {
            x.refuse("slice_interleave", "slice_interleave must be 0 (hashed) or a power of two, was " + sliceChunk);
            sliceChunk = 0;
        }
        if (sliceChunk != 0 && sliceChunk < l2.lineBytes()) // a line lives in one slice: smaller chunks would leave slices unused
            throw new ConfigException(x.child("slice_interleave"), "slice_interleave " + sliceChunk + " B is smaller than the L2 line ("
                    + l2.lineBytes() + " B): each line lives in one slice, so the chunk must hold at least a line");
        CrossbarConfig xbar = new CrossbarConfig(x.integer("latency", 4, 0, 10_000), x.integer("bytes_per_cycle", 32, 1, 4096),
                x.integer("queue", 16, 1, 1 << 16), sliceChunk);
        x.finish();
        Tree tl = g.tree("tlb");
        TlbConfig tlb = new TlbConfig(tl.integer("l1_entries", 64, 1, 1 << 16), tl.integer("l1_ways", 64, 1, 64),
                tl.integer("l1_latency", 0, 0, 10_000), tl.integer("l2_entries", 1024, 1, 1 << 20), tl.integer("l2_ways", 16, 1, 64),
                tl.integer("l2_latency", 10, 0, 10_000), tl.integer("walk_latency", 100, 0, 1_000_000),
                tl.integer("walkers", 16, 1, 1024), tl.integer("shootdown", 100, 0, 10_000_000));
        tl.finish();
        if (tlb.l1Entries() % tlb.l1Ways() != 0) throw new ConfigException(tl.child("l1_ways"), "l1_entries must be a multiple of l1_ways");
        if (tlb.l2Entries() % tlb.l2Ways() != 0) throw new ConfigException(tl.child("l2_ways"), "l2_entries must be a multiple of l2_ways");
        return new GpuConfig(mhz, sms, ctas, warps, shared, issue, l1, l2, slices, xbar, tlb);
    }

    /**
     * An L1 or ({@code l2}) an L2 slice. Only the L2 takes {@code ways: 0}, one set (seed 003's FA L2), and an input
     * {@code queue}; {@code bpc} and the L1's {@code queue} are defaults no file sets (refused: not modelled).
     */
    private static CacheConfig cache(Tree c, long size, int ways, int latency, int mshrs, int merge, int bpc, int queue, boolean l2) {
        long bytes = c.bytes("size", size, 128, 1L << 34);
        int w = c.integer("ways", ways, l2 ? 0 : 1, 64);
        int line = c.integer("line", 128, 32, 1024);
        if (Integer.bitCount(line) != 1) {
            c.refuse("line", "line size must be a power of two");
            line = 128;
        }
        if (w == 0) {
            if (bytes % line != 0 || bytes / line > 1 << 20)
                throw new ConfigException(c.child("ways"), "ways: 0 (fully associative) needs a size that is a multiple of line and at most 2^20 lines");
            w = (int) (bytes / line);
        }
        long sets = bytes / ((long) w * line);
        if (sets < 1 || sets * w * line != bytes) throw new ConfigException(c.child("size"), "size must be a multiple of ways x line (" + w + " x " + line + ")");
        // parsed and documented, never read: a sweep of them changed nothing (review of silent inputs). The L1's throughput
        // is its ports (line requests per cycle); data moves between the L1s and the L2 slices at the crossbar's port width
        String notModelled = "is not modelled (the crossbar's bytes_per_cycle sets the data width between L1s and L2 slices"
                + (l2 ? "" : "; the L1's ports set the line requests it takes per cycle") + ")";
        c.refuseIfGiven("bytes_per_cycle", notModelled);
        if (!l2) c.refuseIfGiven("queue", notModelled);
        return new CacheConfig(bytes, w, line, c.integer("latency", latency, 0, 100_000), c.integer("mshrs", mshrs, 1, 1 << 16),
                c.integer("mshr_merge", merge, 1, 1024), bpc, l2 ? c.integer("queue", queue, 1, 1 << 16) : queue);
    }

    /** {@code replacement}: {@code slot} (the study's replacement policy, default) or {@code lru} (this level keeps LRU). */
    private static boolean fixedLru(Tree c) {
        return choice(c, "replacement", "slot", "lru", "slot: the replacement slot's policy chooses this level's victims; "
                + "lru: this level keeps LRU whatever the slot holds");
    }

    /** {@code l1.write_policy}: {@code write-through} (no write allocation) or {@code write-back} (write-allocate, dirty lines kept). */
    private static boolean writePolicy(Tree l1t) {
        return choice(l1t, "write_policy", "write-through", "write-back", "write-through: stores go on to the L2, "
                + "not allocated; write-back: stores allocate, fetching the line, and stay dirty until it leaves");
    }

    /**
     * {@code l2.invalidation}: {@code fixed}, a victim's L1 copies are invalidated in an unloaded crossbar round
     * trip; {@code crossbar}, by packets that queue with the crossbar's other traffic and are acknowledged.
     */
    private static boolean invalidation(Tree l2t) {
        return choice(l2t, "invalidation", "fixed", "crossbar", "fixed: an unloaded round trip; crossbar: packets that queue with the crossbar's traffic");
    }

    /**
     * A field that is one of two words, case-insensitive: true for {@code other}, false for {@code def} (also when
     * absent); anything else is refused at the field with {@code explain} in parentheses.
     */
    private static boolean choice(Tree t, String key, String def, String other, String explain) {
        String v = t.string(key, def).toLowerCase(Locale.ROOT);
        if (!v.equals(def) && !v.equals(other)) {
            t.refuse(key, "unknown " + key + " '" + v + "' (" + explain + ")");
            return false;
        }
        return v.equals(other);
    }

    /**
     * A pool whose single row conflict (tRP + tRCD + tCL) takes the watchdog's interval or longer: every run would fail as
     * stuck before its first access is served, and the watchdog blamed a livelocking scheduler (a DRAM trial's 1 MHz clock
     * with rcd 10000 against the default 10 ms).
     */
    private static List<ConfigException> slowerThanTheWatchdog(PoolConfig pc, Tree p, long watchdogPs) {
        DramTiming tm = pc.timing();
        long access = org.hmsim.api.engine.ClockDomain.ofMHz("dram", pc.clockMHz()).ps((long) tm.tRP() + tm.tRCD() + tm.tCL());
        if (watchdogPs <= 0 || access < watchdogPs) return List.of();
        return List.of(new ConfigException(p.child("timing"), "rp + rcd + cl at " + fmt(pc.clockMHz()) + " MHz take " + fmt(access / 1e9) + " ms, not under"
                + " the watchdog's " + fmt(watchdogPs / 1e9) + " ms: every run would fail as stuck before its first access is served; raise the"
                + " machine's watchdog (0 = off) or shorten the timing"));
    }

    /** Reads one pool, unknown fields included, so that a misspelt {@code name} is reported as such rather than as missing. */
    private static final String JITTER_RANGE = "must be 0 .. 1us (a perturbation of a few ns; seeds then vary the run)";

    private static boolean jitterInRange(long ps) { return ps >= 0 && ps <= 1_000_000; }

    private static PoolConfig pool(Tree p, int index, int gpus, double gpuMHz, long machineJitter) {
        String name = p.string("name", null);
        String kind = p.string("kind", "DDR4").toUpperCase(Locale.ROOT);
        int node = node(p, "node", gpus);
        int channels = p.integer("channels", 4, 1, 1024);
        double bw = p.bandwidth("bandwidth", 80e9);
        long cap = p.bytes("capacity", 4L << 30, 64 << 10, 1L << 40);
        int banks = p.integer("banks", 16, 1, 64);
        int row = (int) p.bytes("row", 2048, 64, 1 << 20);
        int burst = (int) p.bytes("burst", 0, 0, 4096); // the bus's smallest transfer; 0 = a transfer's own bytes
        if (burst != 0 && (burst < 8 || Integer.bitCount(burst) != 1)) {
            p.refuse("burst", burst + " B is no burst: 0 (none) or a power of two from 8 B (burst length x bus width: DDR4's BL8 x 64 bit = 64B)");
            burst = 0;
        }
        double clock = p.megahertz("clock", 1000);
        Tree tt = p.tree("timing");
        DramTiming timing = new DramTiming(tt.integer("rcd", 12, 0, 10_000), tt.integer("rp", 12, 0, 10_000), tt.integer("cl", 12, 0, 10_000),
                tt.integer("ras", 28, 0, 10_000), tt.integer("rc", 40, 0, 10_000), tt.integer("wr", 12, 0, 10_000),
                tt.integer("rrd", 0, 0, 10_000), tt.integer("faw", 0, 0, 10_000), tt.integer("wtr", 0, 0, 10_000),
                tt.integer("rtrs", 0, 0, 10_000), tt.integer("rfc", 0, 0, 10_000), tt.integer("refi", 0, 0, 10_000_000));
        tt.finish(); // a misspelt field is named as such, before the checks that read the others
        // refresh needs both: tRFC without tREFI would never refresh, tREFI without tRFC would cost nothing
        if ((timing.tRFC() == 0) != (timing.tREFI() == 0))
            throw new ConfigException(tt.child(timing.tRFC() == 0 ? "refi" : "rfc"), "refresh needs both rfc and refi above 0 (0 is off), or neither");
        // a refresh closes every row: a period must hold one more ACT, its column command and the precharge before the
        // next, or an ACT made after each refresh is lost to the next one and the channel never serves (found by a review)
        long cycle = timing.refreshPeriodFloor();
        if (timing.tREFI() > 0 && timing.tREFI() <= cycle)
            throw new ConfigException(tt.child("refi"), "must exceed rfc + ras + rp + rcd + cl + wr, each of the last five at least 1 (" + cycle
                    + " cycles): a refresh period must leave time to open a row and use it");
        int queue = p.integer("queue", 64, 1, 1 << 16);
        // given, it fixes the pool's controller (hardware); absent, the study's dram-scheduler slot decides (fr-fcfs by default)
        // null or empty is absent, as for any field (a trial's `scheduler:` with no value fixed the pool to fr-fcfs)
        String sched = p.string("scheduler", "").isBlank() ? null : choice(p, "scheduler", "fr-fcfs", "fcfs", "fr-fcfs or fcfs") ? "fcfs" : "fr-fcfs";
        Tree et = p.tree("energy");
        // an unknown kind took DDR4's energies without a word (a trial's HBM2e: 160 pJ/B instead of HBM2's 31)
        if (!ENERGY_KINDS.contains(kind) && !(et.has("activate_pj") && et.has("read_pj_per_byte") && et.has("write_pj_per_byte")))
            p.refuse("kind", "'" + p.string("kind", "DDR4") + "' has no energy defaults (kinds with them: " + String.join(", ", ENERGY_KINDS)
                    + "): write the nearest of those, or give energy: {activate_pj, read_pj_per_byte, write_pj_per_byte}");
        DramEnergy energy = new DramEnergy(et.real("activate_pj", defaultActivatePj(kind), 0, 1e7),
                et.real("read_pj_per_byte", defaultAccessPjPerByte(kind), 0, 1e6), et.real("write_pj_per_byte", defaultAccessPjPerByte(kind), 0, 1e6));
        et.finish();
        // A fixed controller/PHY delay on every response (GPGPU-Sim's -dram_latency, counted in GPU core
        // cycles): as a time, or in GPU cycles like a link's latency_cycles. Absent = 0, no delay.
        long controller;
        if (p.has("controller_latency_cycles")) {
            if (p.has("controller_latency")) {
                p.raw("controller_latency"); // read: reported as given twice, not also as unknown
                p.refuse("controller_latency", "give either controller_latency or controller_latency_cycles");
            }
            controller = Math.round(p.integer("controller_latency_cycles", 0, 0, 10_000_000) * 1_000_000.0 / gpuMHz);
        } else controller = p.picoseconds("controller_latency", 0);
        boolean ackQueued = choice(p, "write_ack", "written", "queued", "written: when the data is in DRAM; queued: when a channel takes the write");
        boolean splitCommands = choice(p, "command_bus", "shared", "split",
                "shared: one command per cycle, as DDR and GDDR; split: row and column commands on buses of their own, as HBM");
        long jitter = p.picoseconds("jitter", machineJitter);
        if (!jitterInRange(jitter)) {
            p.refuse("jitter", JITTER_RANGE);
            jitter = 0;
        }
        p.finish();
        // thrown, so reported only when the pool has no other bad field: a misspelt 'name' is the unknown field it is
        if (name == null) throw new ConfigException(p.child("name"), "is required");
        // a name is a path segment (pools.ddr.bandwidth) and part of statistics and figure file names: a dot, a slash
        // or a number there made the pool unaddressable or its figure silently go missing (found by a review)
        if (!name.matches("[A-Za-z][A-Za-z0-9_-]{0,63}")) {
            p.refuse("name", "'" + name + "' is not a pool name: a letter, then letters, digits, '_' or '-' (at most 64)");
            return null;
        }
        return new PoolConfig(name, kind, node, channels, bw, cap, banks, row, clock, timing, queue, sched, energy, controller, ackQueued, jitter, burst,
                splitCommands);
    }

    /** The kinds whose energies {@link #defaultActivatePj} and {@link #defaultAccessPjPerByte} know (DDR3 and DDR4 share theirs). */
    private static final List<String> ENERGY_KINDS = List.of("DDR3", "DDR4", "GDDR5", "GDDR6", "HBM", "HBM2", "NVM");

    /** Activate+precharge energy of a 2 KB row; order-of-magnitude figures from DRAM power models. */
    private static double defaultActivatePj(String kind) {
        return switch (kind) {
            case "HBM", "HBM2" -> 900;
            case "GDDR5", "GDDR6" -> 1500;
            default -> 2000;
        };
    }

    /** Read/write energy per byte including I/O: HBM2 ~3.9 pJ/bit, GDDR5 ~14 pJ/bit, DDR4 ~20 pJ/bit. */
    private static double defaultAccessPjPerByte(String kind) {
        return switch (kind) {
            case "HBM", "HBM2" -> 31;
            case "GDDR5", "GDDR6" -> 112;
            case "NVM" -> 300;
            default -> 160;
        };
    }

    /** Reads one link; {@code between} is checked after the unknown fields, as a pool's name is. */
    private static LinkConfig link(Tree l, int gpus, double gpuMHz) {
        String name = l.string("name", null);
        Object between = l.raw("between");
        double bw = l.bandwidth("bandwidth", 90e9);
        long latency;
        if (l.has("latency_cycles")) {
            if (l.has("latency")) {
                l.raw("latency"); // read: reported as given twice, not also as unknown
                l.refuse("latency", "give either latency or latency_cycles");
            }
            latency = Math.round(l.integer("latency_cycles", 0, 0, 10_000_000) * 1_000_000.0 / gpuMHz);
        } else latency = l.has("latency") ? l.picoseconds("latency", 0) : Math.round(100 * 1_000_000.0 / gpuMHz);
        int flit = l.integer("flit", 16, 1, 4096);
        int header = l.integer("header", 16, 0, 4096);
        int queue = l.integer("queue", 64, 1, 1 << 16);
        double pj = l.real("energy_pj_per_byte", 10, 0, 1e6);
        l.finish();
        // absent: thrown, so reported only when the link has no other bad field (a misspelt 'between' is the unknown field it is)
        if (between == null) throw new ConfigException(l.child("between"), "expected two node names, e.g. [gpu0, cpu]");
        if (!(between instanceof List<?> ends) || ends.size() != 2) {
            l.refuse("between", "expected two node names, e.g. [gpu0, cpu]");
            return null; // the section's errors are reported; no link is built from it
        }
        int a = nodeOf(l, ends.get(0), "between.0", gpus);
        int b = nodeOf(l, ends.get(1), "between.1", gpus);
        if (a < 0 || b < 0) return null;
        if (a == b) {
            l.refuse("between", "a link joins two different nodes");
            return null;
        }
        if (name == null) name = nodeName(a, gpus) + "-" + nodeName(b, gpus);
        return new LinkConfig(name, a, b, bw, latency, flit, header, queue, pj);
    }

    private static int node(Tree p, String key, int gpus) {
        Object v = p.raw(key);
        if (v == null) return 0;
        return Math.max(0, nodeOf(p, v, key, gpus));
    }

    /** Node {@code v} of field {@code key} of {@code t}, or -1 when it names none (the error kept for the round's report). */
    private static int nodeOf(Tree t, Object v, String key, int gpus) {
        String s = v.toString().trim().toLowerCase(Locale.ROOT);
        if (s.equals("cpu")) return gpus;
        if (s.startsWith("gpu")) {
            try {
                int n = Integer.parseInt(s.substring(3));
                if (n >= 0 && n < gpus) return n;
            } catch (NumberFormatException ignored) {
                // fall through to the error
            }
        }
        t.refuse(key, "unknown node '" + v + "' (cpu, or gpu0..gpu" + (gpus - 1) + ")");
        return -1;
    }

    public String name() { return name; }

    /** The pools as policies see them ({@link org.hmsim.api.machine.MachineView#pools()}), by index. */
    /** What a policy's parameters are checked against for a run of this machine with a workload allocating {@code allocations}. */
    public org.hmsim.api.policy.RunFacts runFacts(List<String> allocations) { return runFacts(allocations, 1, false); }

    /** As {@link #runFacts(List)}, for a multiprogrammed mix ({@code mix}) of {@code programs} programs, one per GPU. */
    public org.hmsim.api.policy.RunFacts runFacts(List<String> allocations, int programs, boolean mix) {
        return new org.hmsim.api.policy.RunFacts(poolInfos(), pageBytes, gpus, uvm != null, cpu != null, allocations, programs, mix,
                gpu.sms(), gpu.maxCtasPerSm(), gpu.maxWarpsPerSm(), gpu.l2().lineBytes());
    }

    public List<org.hmsim.api.machine.PoolInfo> poolInfos() {
        List<org.hmsim.api.machine.PoolInfo> out = new java.util.ArrayList<>();
        for (int i = 0; i < pools.size(); i++) {
            PoolConfig p = pools.get(i);
            out.add(new org.hmsim.api.machine.PoolInfo(i, p.name(), p.kind(), p.node(), p.channels(), p.bytesPerSecond(), p.capacityBytes()));
        }
        return List.copyOf(out);
    }

    /**
     * What the simulation is built from, as values (records compare by value): two configurations with equal ones are
     * the same simulated machine whatever their names and however their files spelt the values.
     */
    public List<Object> simulated() { return java.util.Arrays.asList(gpus, gpu, pools, links, pageBytes, gpuEnergy, uvm, cpu, watchdogPs); }

    /** The resolved tree, for results' config.json. */
    public Map<String, Object> tree() { return tree; }

    /**
     * Settings this machine's description gives that act on nothing here, each as "key: why": validation prints them as
     * notes rather than refusing them, since a study that crosses a preset with an override (the etc preset's prefetch
     * region with {@code uvm.prefetcher: none}) gives them without a mistake.
     */
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        if (uvm != null && uvm.prefetcher().equals("none") && tree.get("uvm") instanceof Map<?, ?> u)
            // prefetch_evicts still governs a residency policy's own prefetches: only the tree's region is inert
            if (u.containsKey("prefetch_region_pages")) notes.add("uvm.prefetch_region_pages: acts on nothing with uvm.prefetcher: none");
        for (PoolConfig p : pools) {
            // a label in runs.csv that the pool's controller does not run (a trial's fcfs pool was labelled fr-fcfs)
            if (p.scheduler() != null)
                notes.add("pools." + p.name() + ".scheduler: fixes this pool's controller to " + p.scheduler() + ", which the study's dram-scheduler slot"
                        + " (runs.csv's slot.dram-scheduler) does not reach");
            // one command per command-clock cycle: where a line crosses the bus in less than a cycle, column commands take
            // every command slot and ACTs wait for a gap, so a little more bandwidth made a trial's runs 8.5 % slower (sahc,
            // 682 -> 684 GB/s); a clock set as the data rate gives that (a trial swept clock believing only latency would move)
            int line = gpu == null ? 128 : gpu.l2().lineBytes();
            double perChannel = p.bytesPerSecond() / p.channels(), lineCap = line * p.clockMHz() * 1e6;
            notes.addAll(timingNotes(p));
            // commands issue at any picosecond, one per tCK: an ACT or PRE sent between two row hits delays the next column
            // command to the next free cycle, which costs bandwidth once a line takes under two cycles (a DRAM trial: 8 % at
            // 100 of 128 GB/s, 2 % at 72, where the note above had not fired)
            if (perChannel > lineCap / 2 && perChannel <= lineCap && !p.splitCommandBus())
                notes.add("pools." + p.name() + ".bandwidth: a " + line + " B line crosses the bus in under two cycles of the " + fmt(p.clockMHz())
                        + " MHz command clock (" + fmt(perChannel / 1e9) + " GB/s a channel): an ACT or PRE issued between two row hits holds the next"
                        + " column command to the next cycle, so a stream reaches some per cent less than the bandwidth (a trial: 92 of 100 GB/s at"
                        + " 1 GHz); HBM's command_bus: split, or more channels at the same total, avoid it");
            if (perChannel > lineCap && !p.splitCommandBus())
                notes.add("pools." + p.name() + ".bandwidth: a channel issues one command per cycle of its " + fmt(p.clockMHz()) + " MHz clock, and above "
                        + fmt(lineCap * p.channels() / 1e9) + " GB/s (of its " + fmt(p.bytesPerSecond() / 1e9) + ") a " + line + " B line crosses the bus in less"
                        + " than a cycle: column commands take every command slot and ACTs wait for a gap, so more bandwidth can make runs slower"
                        + " (the clock is the command clock, not the data rate; more channels at the same total, or HBM's command_bus: split, avoid it)");
            else if (perChannel > lineCap)
                notes.add("pools." + p.name() + ".bandwidth: a channel issues one column command per cycle of its " + fmt(p.clockMHz()) + " MHz clock,"
                        + " so " + line + " B lines move at most " + fmt(lineCap * p.channels() / 1e9) + " GB/s of its " + fmt(p.bytesPerSecond() / 1e9)
                        + " (the clock is the command clock, not the data rate)");
        }
        return notes;
    }

    /**
     * Bank timings no DRAM part has, which the channel follows all the same (a DRAM trial's typos ran silently): a row that
     * may close before its column command (tRAS under tRCD), tRC under tRAS + tRP, a read with no CAS latency.
     */
    private static List<String> timingNotes(PoolConfig p) {
        DramTiming t = p.timing();
        String at = "pools." + p.name() + ".timing: ";
        List<String> notes = new ArrayList<>();
        if (t.tRAS() < t.tRCD())
            notes.add(at + "ras " + t.tRAS() + " is under rcd " + t.tRCD() + ": a row may be precharged before a column command could use it (tRAS >= tRCD in every DRAM part)");
        if (t.tRC() < t.tRAS() + t.tRP())
            notes.add(at + "rc " + t.tRC() + " is under ras + rp = " + (t.tRAS() + t.tRP()) + " (tRC = tRAS + tRP in DRAM parts): the channel keeps each of the three,"
                    + " so a bank reopens after ras + rp");
        if (t.tCL() == 0) notes.add(at + "cl 0: a read's data leaves with its command (every DRAM part has a CAS latency)");
        return notes;
    }

    private static String fmt(double v) { return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString(); }

    public int gpus() { return gpus; }

    public GpuConfig gpu() { return gpu; }

    public List<PoolConfig> pools() { return pools; }

    public List<LinkConfig> links() { return links; }

    public long pageBytes() { return pageBytes; }

    public GpuEnergy gpuEnergy() { return gpuEnergy; }

    /** The {@code uvm:} section (demand paging), or null if the machine maps pages on first touch. */
    public org.hmsim.platform.machine.uvm.UvmConfig uvm() { return uvm; }

    /** The CPU side ({@code cpu:} section), or null when the machine has none. */
    public CpuConfig cpu() { return cpu; }

    /**
     * The {@code watchdog:} interval: a run in which no instruction retires (GPU or CPU), no memory request
     * completes at DRAM and no kernel is launched for this long (simulated) fails as deadlocked; 0 = off.
     */
    public long watchdogPs() { return watchdogPs; }

    /** The CPU's node index (GPUs are 0..gpus-1). */
    public int cpuNode() { return gpus; }
}
