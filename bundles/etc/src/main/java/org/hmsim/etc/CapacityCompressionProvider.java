package org.hmsim.etc;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.policy.CompressionPolicy;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * Compression {@code etc}: ETC's capacity compression (CC, seed 002 §4.4; LCP + BDI). Once active, pages
 * migrated into GPU memory are stored compressed at {@code ratio}, so memory holds ratio x more pages
 * (the paper gives no per-application ratios; Fig 20 sweeps synthetic ones).
 *
 * <p>Cost (§4.4: LCP's "additional memory accesses to fetch compression-related metadata that is stored
 * inside the main memory ... additional bandwidth demand", 13 % under unlimited memory, Fig 8). Every L2
 * miss or write-back to a compressed page looks its metadata up in the memory controller's metadata cache
 * ({@code metadata_entries} = 512, §6.5; {@code metadata_ways}-way LRU, ours). On a miss the platform reads
 * the 64 B metadata block from GPU memory before the access (LCP's layout: the metadata region follows
 * the page's compressed data in its frame), a real DRAM request that takes bandwidth. One entry holds 64 B
 * of metadata (the paper's 32 KB / 512 entries) describing {@code metadata_coverage} bytes of data: 4 KB,
 * LCP's page, whose metadata (exception bits and indices of its 64 lines) is 64 B. Then the access pays
 * {@code decompression_latency} (codec latency; footnote 3 includes it but gives no value: ours).
 * <p>Ratios. Seed 002 gives none per application (Fig 20 sweeps synthetic ones, §6.6). With {@code declared_ratios}
 * (default) an allocation whose workload declares how well its data compress ({@code compression_ratio} in a
 * workload file) is stored at that ratio, every other page at {@code ratio}; a page at ratio 1 is stored as it is, with
 * no metadata read and no codec latency (LCP keeps a page that does not compress uncompressed).
 * Not modelled: LCP's exception lines and page overflows on writes that stop compressing (the paper does
 * not discuss them), and the bandwidth compressed lines could save.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=compression", PolicyProvider.NAME + "=etc", PolicyProvider.VERSION + "=1.2.0"})
public final class CapacityCompressionProvider implements PolicyProvider {
    /** CC compresses pages as they migrate in (seed 002 §4.4): nothing migrates without demand paging. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) { run.requireDemandPaging("compression etc"); }

    @Override public Slot slot() { return Slot.COMPRESSION; }

    @Override public String name() { return "etc"; }

    /** 1.1.0 (eleventh session): its state is handed over at a live swap (1.0.0 restarted). 1.2.0: declared per-allocation ratios. */
    @Override public String version() { return "1.2.0"; }

    @Override public String description() {
        return "ETC capacity compression (seed 002 §4.4, LCP+BDI): compressed pages raise GPU memory capacity by a ratio and cost decompression and metadata-cache latency; on for regular-sharing and irregular applications by ETC's classifier (§4.1, §4.5).";
    }

    @Override public List<ParamSpec> parameters() {
        List<ParamSpec> p = new ArrayList<>();
        p.add(Mode.param("CC"));
        p.add(ParamSpec.real("ratio", 1.5, 1, 16, "compression ratio: pages per frame of compressed data (not given per application in seed 002; ours)"));
        p.add(ParamSpec.bool("declared_ratios", true, "store an allocation whose workload declares its compression_ratio at that ratio (1: uncompressed), the others at ratio; false: every page at ratio"));
        p.add(ParamSpec.time("decompression_latency", 10_000L, 0, 1_000_000_000L, "added to every L2 miss or write-back to a compressed page (BDI codec; ours, the paper gives none)"));
        p.add(ParamSpec.integer("metadata_entries", 512, 1, 1 << 24, "entries of the LCP metadata cache in the memory controller (seed 002 §6.5: 512, 32 KB)"));
        p.add(ParamSpec.integer("metadata_ways", 8, 1, 64, "associativity of the metadata cache, LRU (ours; the paper does not say)"));
        p.add(ParamSpec.size("metadata_coverage", 4096, 64, 1L << 30, "data bytes one 64 B metadata entry describes (LCP's 4 KB page: 64 lines' exception bits and indices); a miss reads that 64 B block from GPU memory"));
        p.addAll(Classifier.params());
        return p;
    }

    @Override public Policy create(PolicyContext ctx, Params params) { return new Cc(ctx, params); }

    static final class Cc implements CompressionPolicy, org.hmsim.api.machine.UnifiedMemory.Listener {
        private final MachineView machine;
        private final Mode mode;
        private final double ratio;
        private final boolean declaredRatios;
        private final org.hmsim.api.os.MemoryManager memory;
        private final long decompressPs, coverage;
        private final int ways, sets;
        private final long[] metaTags, metaUse;
        private long useClock;
        private final Classifier classifier;
        private final int gpuPool;
        private long hits, misses;

        Cc(PolicyContext ctx, Params p) {
            this.machine = ctx.machine();
            this.mode = Mode.of(p.getString("mode"));
            this.ratio = p.getDouble("ratio");
            this.declaredRatios = p.getBoolean("declared_ratios");
            this.memory = ctx.memory();
            this.decompressPs = p.getLong("decompression_latency");
            this.coverage = p.getLong("metadata_coverage");
            int entries = p.getInt("metadata_entries");
            this.ways = Math.min(p.getInt("metadata_ways"), entries);
            if (entries % ways != 0)
                throw new IllegalArgumentException("compression etc: metadata_entries (" + entries + ") must be a multiple of metadata_ways (" + ways + ")");
            this.sets = entries / ways;
            this.metaTags = new long[entries];
            this.metaUse = new long[entries];
            java.util.Arrays.fill(metaTags, -1);
            this.gpuPool = machine.localPool(0);
            this.classifier = new Classifier(machine, p, () -> {});
            classifier.registerStats(ctx.stats(), "CC", mode == Mode.AUTO);
            ctx.stats().counter("metadata_hits", "compressed-page accesses whose metadata hit the metadata cache (compression hits)", () -> hits);
            ctx.stats().counter("metadata_misses", "compressed-page accesses that missed the metadata cache (a 64 B metadata read from GPU memory first)", () -> misses);
            if (machine.unifiedMemory() != null) machine.unifiedMemory().addListener(this); // evictions drop metadata entries
        }

        private boolean active() {
            return switch (mode) {
                case ON -> true;
                case OFF -> false;
                case AUTO -> classifier.decided().cc;
            };
        }

        /**
         * The classifier's decision (the application's class, seed 002 §4.1) and the metadata cache's contents (a
         * structure of the memory controller, §4.4's 512 entries, which a change of policy parameters does not flush)
         * for a successor: without them a swap switched compression off for a new sampling window, so pages arriving
         * meanwhile were stored uncompressed, and every compressed page's metadata missed again.
         */
        @Override
        public java.util.Map<String, Object> exportState() {
            java.util.Map<String, Object> m = new java.util.HashMap<>(classifier.exportState());
            m.put(K_META, new long[] {ways, sets, coverage});
            m.put(K_META_TAGS, metaTags.clone());
            m.put(K_META_USE, metaUse.clone());
            return m;
        }

        static final String K_META = "etc.cc.metadata_geometry", K_META_TAGS = "etc.cc.metadata_tags", K_META_USE = "etc.cc.metadata_use";

        /** Takes over the decision, and the metadata cache if its geometry is this one's (else it starts empty). */
        @Override
        public void importState(java.util.Map<String, Object> state) {
            classifier.importState(state);
            if (state.get(K_META) instanceof long[] g && g.length == 3 && g[0] == ways && g[1] == sets && g[2] == coverage
                    && state.get(K_META_TAGS) instanceof long[] t && t.length == metaTags.length
                    && state.get(K_META_USE) instanceof long[] u && u.length == metaUse.length) {
                System.arraycopy(t, 0, metaTags, 0, t.length);
                System.arraycopy(u, 0, metaUse, 0, u.length);
                for (long x : u) useClock = Math.max(useClock, x);
            }
        }

        @Override
        public void close() {
            classifier.close();
            if (machine.unifiedMemory() != null) machine.unifiedMemory().removeListener(this);
        }

        /**
         * An evicted page's metadata leaves with it (its frame takes another page): the entries of its blocks are dropped,
         * so a page fetched again reads its new metadata as a page fetched the first time does (they were keyed by page
         * and survived the eviction, found by a review).
         */
        @Override
        public void onEviction(long vpn, boolean proactive) {
            long perPage = blocksPerPage();
            for (long block = 0; block < perPage; block++) {
                long key = vpn * perPage + block;
                int base = (int) Math.floorMod(key, (long) sets) * ways;
                for (int w = base; w < base + ways; w++)
                    if (metaTags[w] == key) {
                        metaTags[w] = -1;
                        metaUse[w] = 0; // the next fill takes this way first
                    }
            }
        }

        private long pageBytes() { return machine.unifiedMemory() != null ? machine.unifiedMemory().pageBytes() : coverage; }

        private long blocksPerPage() { return Math.max(1, (pageBytes() + coverage - 1) / coverage); }

        @Override
        public double capacityFactor(int pool) { return pool == gpuPool && active() ? ratio : 1.0; }

        @Override
        public double capacityFactor(int pool, long vpn) { return pool == gpuPool && active() ? ratioOf(vpn) : 1.0; }

        /** The ratio page {@code vpn} compresses at: its allocation's declared one, else {@code ratio}. */
        private double ratioOf(long vpn) {
            if (!declaredRatios) return ratio;
            org.hmsim.api.os.Allocation a = memory.allocationOf(vpn * memory.pageBytes());
            double declared = a == null ? 0 : memory.compressionRatio(a);
            return declared >= 1 ? declared : ratio;
        }

        @Override
        public long extraLatencyPs(long vpn) { return decompressPs; }

        /** Looks up the metadata of the {@code coverage}-byte block holding {@code offset}; on a miss, fills (LRU) and asks for its 64 B. */
        @Override
        public long metadataRead(long vpn, long offset, boolean write) {
            long page = pageBytes();
            long block = offset / coverage, perPage = blocksPerPage();
            long key = vpn * perPage + block;
            int base = (int) Math.floorMod(key, (long) sets) * ways, lru = base;
            for (int w = base; w < base + ways; w++) {
                if (metaTags[w] == key) {
                    metaUse[w] = ++useClock;
                    hits++;
                    return -1;
                }
                if (metaUse[w] < metaUse[lru]) lru = w;
            }
            metaTags[lru] = key;
            metaUse[lru] = ++useClock;
            misses++;
            // LCP: the metadata region follows the compressed data region (page / ratio) in the page's frame
            return Math.min(page - 64, (long) (page / ratioOf(vpn)) + block * 64);
        }
    }
}
