package org.hmsim.coda;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;

/** Parameters and checks the CODA-family interleave providers share. */
final class InterleaveProviders {
    private InterleaveProviders() {}

    static ParamSpec channelGranularity() {
        return ParamSpec.size("granularity", 128, 32, 1L << 30,
                "bytes of a GPU memory's local address mapped to one channel before the next (seed 004 Table 1: 128 B); a power of two >= 32");
    }

    static ParamSpec blocksPerGpu() {
        return ParamSpec.integer("blocks_per_gpu", 0, GpuGeometry.OCCUPANCY, 1 << 20,
                "N_blocks_per_GPU of Eq. 1-2 (thread blocks one GPU holds at once); 0 = SMs per GPU x the SM's resident-CTA limit; "
                        + "-1 = the kernel's occupancy (the paper's definition), SMs per GPU x min(CTA limit, warps per SM / warps per block)");
    }

    /**
     * blocks_per_gpu as the machine resolves it: 0 is SMs per GPU x the SM's CTA limit (RunFacts knows both); -1 depends on
     * the kernel, so it stays -1.
     */
    static Object blocksPerGpuOn(Params p, org.hmsim.api.policy.RunFacts run) {
        int given = p.getInt("blocks_per_gpu");
        return given == 0 && run.smsPerGpu() > 0 && run.ctasPerSm() > 0 ? run.smsPerGpu() * run.ctasPerSm() : given;
    }

    static long channel(Params p) { return p.getPowerOfTwo("granularity", 32); }

    /** The channel granularity checked against the run's line (RunFacts#refuseUnderLine). */
    static void checkChannel(Params p, org.hmsim.api.policy.RunFacts run) { run.refuseUnderLine("granularity", channel(p), "channels"); }

    static List<ParamSpec> channelOnly() { return List.of(channelGranularity()); }
}
