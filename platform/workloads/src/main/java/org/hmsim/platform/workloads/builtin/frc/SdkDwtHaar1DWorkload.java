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
 * AMD APP SDK DwtHaar1D, kernel {@code dwtHaar1D} of DwtHaar1D_Kernels.cl (seed 003 §5: "sensitive to small
 * MSHR; FRC raises latency & traffic"; Fig 5.5: MPKO drops, OPC flat). One launch decomposes up to
 * log2(2·ls) levels of a signal of length L with work-groups of {@code ls = min(threads, L/2)}: group g loads
 * its 2·ls samples {@code inSignal[g·2ls + lid]} and {@code inSignal[g·2ls + ls + lid]} into the LDS; at level
 * i ({@code act = ls >> i} active work-items, a barrier before and after) work-item lid < act reads LDS pairs,
 * keeps the average in the LDS and writes the detail to {@code coefsSignal[L/2^(i+1) + g·act + lid]}; work-item
 * 0 writes the last average to {@code AverageSignal[g]}. So per launch: a streaming read, then log-step
 * passes of contiguous writes whose width halves each level, into regions L/2, L/4, … apart. The host then
 * continues on the averages (L / 2^levels samples, which it writes back into inSignal: host copies not
 * modelled) until one sample is left (e.g. 2^19 with 256 work-items: launches of 2^19, 2^10 and 2 samples).
 * ALU counts are estimates (LDS reads and writes, add, subtract, two multiplies by 1/sqrt 2). Sizes are ours.
 */
public final class SdkDwtHaar1DWorkload extends BuiltinProvider {
    public SdkDwtHaar1DWorkload() {
        super("sdk-dwt-haar1d", "model of AMD APP SDK DwtHaar1D (dwtHaar1D kernel; seed 003): per launch a streaming read of "
                        + "the signal into the LDS, then one level per halving step whose active work-items (halving) write detail "
                        + "coefficients contiguously into regions L/2, L/4, ... apart; the host relaunches on the averages. "
                        + "Footprint 8 B x length.",
                List.of(
                        ParamSpec.integer("length", 1 << 19, 64, 1 << 26, "signal length (floats, rounded down to a power of two)"),
                        ParamSpec.integer("threads", 256, 32, 1024, "largest work-group (the SDK: 256 or the device maximum; a power of two)"),
                        ParamSpec.integer("load_alu", 6, 0, 10_000, "ALU instructions after the loads (normalisation, LDS stores; estimate)"),
                        ParamSpec.integer("level_alu", 8, 0, 10_000, "ALU instructions per active warp per level (LDS pair read, add, sub, "
                                + "scale, LDS write; estimate)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "whole transforms (each one or more launches)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int length = Integer.highestOneBit(p.getInt("length")), threads = p.getInt("threads");
        int loadAlu = p.getInt("load_alu"), levelAlu = p.getInt("level_alu"), iterations = p.getInt("iterations");
        if (Integer.bitCount(threads) != 1) throw new IllegalArgumentException("sdk-dwt-haar1d: threads must be a power of two, was " + threads);
        int firstLs = Math.min(threads, length / 2);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("inSignal", 4L * length, AllocationHint.NONE, false),
                new AllocationSpec("coefsSignal", 4L * length, AllocationHint.NONE, false),
                new AllocationSpec("AverageSignal", 4L * Math.max(1, length / (2 * firstLs)), AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                for (int len = length; len > 1; ) {
                    int ls = Math.min(threads, len / 2), levels = Integer.numberOfTrailingZeros(2 * ls), groups = len / (2 * ls), l = len;
                    ks.add(new SimpleKernel("dwtHaar1D_L" + len, groups, ls, 8 * ls,
                            (cta, warp) -> program(b, l, ls, levels, cta, warp, loadAlu, levelAlu)));
                    len >>= levels;
                }
            return ks;
        });
    }

    private static ScriptedProgram program(long[] b, int len, int ls, int levels, int g, int warp, int loadAlu, int levelAlu) {
        int lid0 = warp * Lanes.W;
        int mask = Lanes.existing(warp, ls);
        return new ScriptedProgram() {
            @Override
            int step(int s, WarpInstruction o) {
                switch (s) {
                    case 0 -> linear(o, Kind.LOAD, 4, mask, b[0], (long) g * 2 * ls + lid0, 4, 0);
                    case 1 -> linear(o, Kind.LOAD, 4, mask, b[0], (long) g * 2 * ls + ls + lid0, 4, 0);
                    case 2 -> { return loadAlu; }
                    case 3 -> o.barrier();
                    default -> {
                        int k = s - 4, level = k / 5;
                        if (level < levels) {
                            int act = ls >> level, m = mask & Lanes.first(act - lid0);
                            switch (k % 5) {
                                case 0 -> { return m != 0 ? levelAlu / 2 : SKIP; } // LDS pair read
                                case 1 -> o.barrier();
                                case 2 -> { return m != 0 ? levelAlu - levelAlu / 2 : SKIP; } // average, detail, LDS write
                                case 3 -> { // the detail to global memory
                                    if (m == 0) return SKIP;
                                    linear(o, Kind.STORE, 4, m, b[1], ((long) len >> (level + 1)) + (long) g * act + lid0, 4, 0);
                                }
                                default -> o.barrier();
                            }
                            return EMITTED;
                        }
                        if (k == 5 * levels && warp == 0) {
                            linear(o, Kind.STORE, 4, 1, b[2], g, 4, 0);
                            return EMITTED;
                        }
                        return END;
                    }
                }
                return EMITTED;
            }
        };
    }
}
