package org.hmsim.coda;

import java.util.List;
import java.util.Locale;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/** The {@code coda} interleave: dual-mode (FGP/CGP) pages placed by the per-block exclusive stride. */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=interleave", PolicyProvider.NAME + "=coda", PolicyProvider.VERSION + "=1.0.0"})
public final class CodaInterleaveProvider implements PolicyProvider {
    @Override public Slot slot() { return Slot.INTERLEAVE; }

    @Override public String name() { return "coda"; }

    @Override public String description() {
        return "CODA (seed 004 §4): objects with a known per-block exclusive stride B are laid out in chunks of B x N_blocks_per_GPU "
                + "on consecutive GPUs as coarse-grained pages (Eq. 2-3); shared/irregular/unknown objects stay fine-grained (spread at 'spread' bytes). "
                + "Pair with cta-scheduler 'affinity' (Eq. 1) and the same blocks_per_gpu.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(InterleaveProviders.channelGranularity(),
                ParamSpec.size("spread", 128, 32, 1L << 21, "fine-grained pages: bytes per GPU before the next GPU (seed 004: 128 B); a power of two <= page"),
                InterleaveProviders.blocksPerGpu(),
                ParamSpec.choice("chunk", "owner", List.of("owner", "roundup", "literal"),
                        "Eq. 2's ambiguity: owner = chunks of exactly B x N_bpg, each page to the GPU owning its middle byte; "
                                + "roundup = chunk rounded up to whole pages; literal = min(4KB, B x N_bpg) as printed"),
                ParamSpec.real("min_chunk_pages", 1.0, 0.0, 1e6, "objects whose chunk B x N_bpg is smaller than this many pages stay fine-grained"),
                ParamSpec.choice("estimate", "auto", List.of("auto", "declared", "profile"),
                        "where B comes from (seed 004 §4.1): auto = the declared stride, else the profiling fallback (address streams of sampled "
                                + "consecutive block pairs); declared = declarations only (unknown stays fine); profile = always profiled"),
                ParamSpec.real("max_cov", 0.5, 0.0, 100, "a profiled stride is used only if its coefficient of variation sigma/mu is at most this "
                        + "(irregular objects stay fine-grained; the paper gives no threshold)"));
    }

    @Override public void check(Params params) {
        InterleaveProviders.channel(params);
        params.getPowerOfTwo("spread", 32);
    }

    /** A fine-grained page is spread within itself: 'spread' beyond the machine's page would leave GPUs without its blocks. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) {
        long spread = params.getPowerOfTwo("spread", 32);
        if (spread > run.pageBytes())
            throw new IllegalArgumentException("parameter 'spread' (" + spread + " B) is larger than the machine's page (" + run.pageBytes() + " B)");
        InterleaveProviders.checkChannel(params, run);
        run.refuseUnderLine("spread", spread, "GPUs"); // a line goes whole to the GPU of its first byte too
    }

    /** N_bpg must be the same for placement (Eq. 1's chunks) and the affinity scheduler (§4.3), or blocks run away from their data. */
    @Override public java.util.Set<String> sharedParameters() { return java.util.Set.of("blocks_per_gpu"); }

    @Override public Object sharedValue(String parameter, Params params, org.hmsim.api.policy.RunFacts run) {
        return parameter.equals("blocks_per_gpu") ? InterleaveProviders.blocksPerGpuOn(params, run) : params.asMap().get(parameter);
    }

    @Override public Policy create(PolicyContext context, Params params) {
        int spread = (int) params.getPowerOfTwo("spread", 32);
        CodaInterleave p = new CodaInterleave(InterleaveProviders.channel(params), spread, context.memory(),
                new GpuGeometry.LazyBlocks(context.machine(), params.getInt("blocks_per_gpu")), GpuGeometry.memoriesOfGpu(context.machine()),
                CodaInterleave.Chunk.valueOf(params.getString("chunk").toUpperCase(Locale.ROOT)), params.getDouble("min_chunk_pages"),
                CodaInterleave.Estimate.valueOf(params.getString("estimate").toUpperCase(Locale.ROOT)), params.getDouble("max_cov"));
        context.stats().counter("cgp_pages", "pages CODA placed whole on their chunk's GPU", p::cgpDecisions);
        context.stats().counter("profiled_objects", "allocations whose stride came from the profiling fallback", p::profiled);
        context.stats().counter("fgp_pages", "pages CODA left fine-grained (shared, irregular or unknown stride)", p::fgpDecisions);
        return p;
    }
}
