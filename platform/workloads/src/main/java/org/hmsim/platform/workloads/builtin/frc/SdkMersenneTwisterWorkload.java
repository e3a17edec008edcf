package org.hmsim.platform.workloads.builtin.frc;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * AMD APP SDK MersenneTwister, kernel {@code gaussianRand} of MersenneTwister_Kernels.cl (seed 003 §5:
 * "latency-bound; FRC up to +150 %; miss latency −84…−93 %"). Work-item t loads its 128-bit seed
 * {@code seedArray[t]} (uint4), derives four more state words and {@code mulFactor} uint4 SFMT outputs in
 * registers (no global traffic), then converts them pairwise by Box-Muller and stores
 * {@code gaussianRand[t·mulFactor + j]} (float4) for j = 0 … mulFactor−1, two stores per pair. A warp's
 * seed load is 512 contiguous bytes; each of its stores puts 16 B into each of 32 lines
 * {@code mulFactor·16 B} apart (with the default 4 and 64 B lines: 32 lines, a quarter each), and the
 * next stores fill the same lines: bursts of partial-line store misses, write-dominated (output
 * {@code mulFactor} x the input).
 * <p>The SDK's 2-D NDRange (width x height seeds, index {@code y·width + x}) is linearised: work-groups of
 * {@code threads} consecutive work-items (a group inside one row). ALU counts are estimates from the
 * kernel source (uint4 shifts and xors per SFMT step; log, sqrt, cos/sin per Box-Muller pair), not
 * measured from compiled code. The sizes are ours: the thesis gives none.
 */
public final class SdkMersenneTwisterWorkload extends BuiltinProvider {
    public SdkMersenneTwisterWorkload() {
        super("sdk-mersenne-twister", "model of AMD APP SDK MersenneTwister (gaussianRand kernel; seed 003): each work-item "
                        + "loads one 16 B seed (coalesced), runs SFMT + Box-Muller in registers (ALU-heavy) and stores mul_factor float4 "
                        + "outputs at a mul_factor x 16 B lane stride: bursts of partial-line store misses to 32 lines per store. "
                        + "Footprint 16 B x seeds x (1 + mul_factor).",
                List.of(
                        ParamSpec.integer("seeds", 32768, 32, 1 << 24, "work-items (the SDK's width x height seeds, uint4 each)"),
                        ParamSpec.integer("mul_factor", 4, 2, 8, "float4 outputs per work-item (SDK mulFactor: even, 2..8)"),
                        ParamSpec.integer("threads", 256, 32, 1024, "work-items per work-group"),
                        ParamSpec.integer("gen_alu", 40, 0, 10_000, "ALU instructions per SFMT output (estimate: 128-bit shifts and xors on uint4)"),
                        ParamSpec.integer("init_alu", 64, 0, 10_000, "ALU instructions deriving the four state words from the seed (estimate)"),
                        ParamSpec.integer("out_alu", 60, 0, 10_000, "ALU instructions per float4 output (estimate: half a Box-Muller pair: "
                                + "convert, log, sqrt, cos or sin)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int seeds = p.getInt("seeds"), mf = p.getInt("mul_factor"), threads = p.getInt("threads");
        int genAlu = p.getInt("gen_alu"), initAlu = p.getInt("init_alu"), outAlu = p.getInt("out_alu"), iterations = p.getInt("iterations");
        if (mf % 2 != 0) throw new IllegalArgumentException("sdk-mersenne-twister: mul_factor must be even, was " + mf);
        int ctas = (seeds + threads - 1) / threads;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("seedArray", 16L * seeds, AllocationHint.NONE, true),
                new AllocationSpec("gaussianRand", 16L * seeds * mf, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("gaussianRand", ctas, threads, 0, (cta, warp) -> {
                    long first = (long) cta * threads + (long) warp * Lanes.W;
                    int mask = Lanes.existing(warp, threads) & Lanes.first(seeds - first);
                    return new ScriptedProgram() {
                        @Override
                        int step(int s, WarpInstruction o) {
                            if (mask == 0) return END;
                            if (s == 0) { linear(o, Kind.LOAD, 16, mask, b[0], first, 16, 0); return EMITTED; }
                            if (s == 1) return initAlu + mf * genAlu;
                            int j = (s - 2) / 2;
                            if (j >= mf) return END;
                            if (s % 2 == 0) return outAlu;
                            linear(o, Kind.STORE, 16, mask, b[1], first, 16L * mf, 16L * j);
                            return EMITTED;
                        }
                    };
                }));
            return ks;
        });
    }
}
