package org.hmsim.selectivecaching;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * {@code selective-caching}: see {@link SelectiveCachingPolicy}. Defaults are the thesis's full design
 * (L1+L2 coalescing, 512 KB client cache, variable transfers; read-only caching off), so the ladder of
 * Fig. 6.4–6.7 is this policy with options switched off one by one.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=cacheability", PolicyProvider.NAME + "=selective-caching", PolicyProvider.VERSION + "=1.0.0"})
public final class SelectiveCachingProvider implements PolicyProvider {
    static final long US = 1_000_000L;

    @Override public Slot slot() { return Slot.CACHEABILITY; }

    @Override public String name() { return "selective-caching"; }

    @Override public String description() {
        return "Seed 000 Ch. 6 selective caching: the GPU never caches CPU-homed lines nor GPU-homed lines in the remote directory (a cuckoo "
                + "filter of lines the CPU read, §6.2.1); options: cacheless MSHR coalescing (§6.2.2.1), the CPU-side client cache "
                + "(§6.2.2.2), variable-size 32 B link transfers (§6.2.2.3), promiscuous read-only caching with permission faults (§6.2.3). "
                + "Naive selective caching: coalescing=none client_cache=0 variable_transfers=false.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.choice("coalescing", "l1+l2", List.of("none", "l1", "l1+l2"),
                        "cacheless request coalescing of uncached reads in the MSHRs: none (naive, lane coalescer only), l1 (per SM), l1+l2 (also across SMs at the L2 slice) (§6.2.2.1)"),
                ParamSpec.size("client_cache", 512 * 1024, 0, 1L << 30,
                        "CPU-side GPU client cache capacity at the CPU memory controller, 0 = none (§6.2.2.2: swept 64 KB-1 MB, 512 KB chosen)"),
                ParamSpec.integer("client_ways", 8, 1, 64, "client cache associativity (§6.3: 8-way, 128 B lines, write-through, no write-allocate)"),
                ParamSpec.integer("client_latency", 100, 0, 100_000, "client cache access latency, GPU cycles, on top of the link's 100 (Table 6.3: 200 = 100 link + 100 access)"),
                ParamSpec.bool("variable_transfers", true,
                        "uncached reads fetch only their 32 B sub-blocks (a 4-bit mask) instead of whole 128 B lines (§6.2.2.3)"),
                ParamSpec.bool("read_only", false,
                        "promiscuous read-only caching: CPU pages are read-only and cacheable from each kernel launch until the first GPU store faults (§6.2.3)"),
                ParamSpec.time("gpu_fault", 20 * US, 0, 10_000 * US,
                        "latency of a GPU permission fault (CPU interrupt, handler, GPU TLB shootdown); §6.2.3: 20 us measured, 20-40 us swept; 0 = RO-ZeroCost"),
                ParamSpec.time("cpu_fault", 4 * US, 0, 10_000 * US, "CPU-side cost of a CPU write to a read-only page (§6.2.3: 3-5 us)"),
                ParamSpec.integer("max_pending_faults", 16, 1, 1024, "permission faults an SM may have pending; the 17th blocks the SM (Table 6.3)"),
                ParamSpec.longValue("remote_dir_lines", 65_536, 4, 1L << 26,
                        "lines the remote directory (cuckoo filter) tracks: 8 MB of GPU memory / 128 B = 65,536 (§6.2.1)"),
                ParamSpec.integer("remote_dir_bits", 8, 1, 16, "fingerprint bits per entry (8: 64 KB of SRAM, ~3 % false positives when full, §6.2.1)"),
                ParamSpec.real("remote_dir_high_water", 1.0, 0.01, 1.0, "occupancy at which the cacheflush daemon flushes and resets the directory (§6.2.1: full or a high-water mark)"));
    }

    /**
     * Every rule here is about CPU-homed lines (§6.2): a machine without CPU memory leaves it nothing to act on. Read-only
     * caching re-arms every CPU page at each kernel launch (§6.2.3), one program's launch: in a mix it would reset the
     * co-runners' permissions too.
     */
    /** {@code gpu_fault} is the cost of a GPU write to a read-only CPU page (§6.2.3): without read_only there is none. */
    @Override public void check(Params params) {
        params.refuseUnless("gpu_fault", params.getBoolean("read_only"), "is the cost of a GPU write fault on a read-only CPU page, and read_only is false");
    }

    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        run.requireCpuMemory(name());
        if (params.getBoolean("read_only")) run.refuseMix(name() + " with read_only", "makes CPU pages read-only again at each kernel launch of one program");
    }

    @Override public Policy create(PolicyContext context, Params p) {
        SelectiveCachingPolicy.Coalescing c = switch (p.getString("coalescing")) {
            case "none" -> SelectiveCachingPolicy.Coalescing.NONE;
            case "l1" -> SelectiveCachingPolicy.Coalescing.L1;
            default -> SelectiveCachingPolicy.Coalescing.L1_L2;
        };
        return new SelectiveCachingPolicy(context.machine(), context.stats(), c, p.getLong("client_cache"), p.getInt("client_ways"),
                p.getInt("client_latency"), p.getBoolean("variable_transfers"), p.getBoolean("read_only"), p.getLong("gpu_fault"),
                p.getLong("cpu_fault"), p.getInt("max_pending_faults"), p.getLong("remote_dir_lines"), p.getInt("remote_dir_bits"),
                p.getDouble("remote_dir_high_water"));
    }
}
