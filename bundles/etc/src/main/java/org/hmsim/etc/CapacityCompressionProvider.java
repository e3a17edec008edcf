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
 * Compression {@code etc}: ETC's capacity compression (CC, seed 002 §4.3; LCP + BDI). Once active, pages
 * migrated into GPU memory are stored compressed at {@code ratio}, so memory holds ratio x more pages
 * (the paper gives no per-application ratios; Fig 20 sweeps synthetic ones). An L2 miss to a compressed page
 * pays {@code decompression_latency}, plus {@code metadata_miss_latency} (an extra DRAM access) when its
 * page's entry is not in the {@code metadata_entries}-entry metadata cache in the memory controller (512,
 * §6.5; direct-mapped by page here). Codec latencies are not given in the paper; ours are parameters.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=compression", PolicyProvider.NAME + "=etc", PolicyProvider.VERSION + "=1.0.0"})
public final class CapacityCompressionProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.COMPRESSION; }

    @Override public String name() { return "etc"; }

    @Override public String description() {
        return "ETC capacity compression (seed 002 §4.3, LCP+BDI): compressed pages raise GPU memory capacity by a ratio and cost decompression and metadata-cache latency; on for regular-sharing and irregular applications by ETC's classifier (§4.4).";
    }

    @Override public List<ParamSpec> parameters() {
        List<ParamSpec> p = new ArrayList<>();
        p.add(Mode.param("CC"));
        p.add(ParamSpec.real("ratio", 1.5, 1, 16, "compression ratio: pages per frame of compressed data (not given per application in seed 002; ours)"));
        p.add(ParamSpec.time("decompression_latency", 10_000L, 0, 1_000_000_000L, "added to every L2 miss to a compressed page (BDI decompression; ours)"));
        p.add(ParamSpec.integer("metadata_entries", 512, 1, 1 << 24, "entries of the LCP metadata cache (seed 002 §6.5: 512)"));
        p.add(ParamSpec.time("metadata_miss_latency", 100_000L, 0, 1_000_000_000L, "added when the page's metadata misses the cache (one DRAM access; ours)"));
        p.addAll(Classifier.params());
        return p;
    }

    @Override public Policy create(PolicyContext ctx, Params params) { return new Cc(ctx, params); }

    static final class Cc implements CompressionPolicy {
        private final MachineView machine;
        private final Mode mode;
        private final double ratio;
        private final long decompressPs, missPs;
        private final long[] metaTags;
        private final Classifier classifier;
        private final int gpuPool;
        private long hits, misses;

        Cc(PolicyContext ctx, Params p) {
            this.machine = ctx.machine();
            this.mode = Mode.of(p.getString("mode"));
            this.ratio = p.getDouble("ratio");
            this.decompressPs = p.getLong("decompression_latency");
            this.missPs = p.getLong("metadata_miss_latency");
            this.metaTags = new long[p.getInt("metadata_entries")];
            java.util.Arrays.fill(metaTags, -1);
            this.gpuPool = machine.localPool(0);
            this.classifier = new Classifier(machine, p, () -> {});
            classifier.registerStats(ctx.stats());
            ctx.stats().counter("metadata_hits", "compressed-page accesses whose metadata hit the metadata cache (compression hits)", () -> hits);
            ctx.stats().counter("metadata_misses", "compressed-page accesses that missed the metadata cache (an extra DRAM access)", () -> misses);
        }

        private boolean active() {
            return switch (mode) {
                case ON -> true;
                case OFF -> false;
                case AUTO -> classifier.decided().cc;
            };
        }

        @Override
        public double capacityFactor(int pool) { return pool == gpuPool && active() ? ratio : 1.0; }

        @Override
        public long extraLatencyPs(long vpn) {
            int set = (int) Math.floorMod(vpn, (long) metaTags.length);
            if (metaTags[set] == vpn) {
                hits++;
                return decompressPs;
            }
            metaTags[set] = vpn;
            misses++;
            return decompressPs + missPs;
        }
    }
}
