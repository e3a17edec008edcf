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
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * AMD APP SDK 2.x DCT, kernel {@code DCT} of DCT_Kernels.cl (seed 003 §5: "compute-dominated; NBS +60 %; FA +6 %,
 * FRC (unbounded) +29 %; smooth FRC curve"). One 8x8 work-group per 8x8 tile; work-item (i, j) =
 * (local x, local y), linear id {@code i + 8j}, so a 32-lane warp holds rows j = 0..3 (or 4..7) of the group.
 * First loop, k = 0..7: {@code acc += dct8x8[k·8 + i] · input[(8·gy + k)·width + 8·gx + j]} (the 64-float cosine
 * table is a global array, read every iteration; the input read is row k of the tile, columns j of the warp:
 * one line per warp load, 8 rows {@code width·4 B} apart over the loop); the product goes to the LDS, barrier;
 * second loop, k = 0..7: {@code acc += inter[8i + k] · dct8x8[8k + j]} (LDS and table only); then
 * {@code output[(8·gy + j)·width + 8·gx + i] = acc}: a warp writes 4 rows of 32 B, {@code width·4 B} apart.
 * {@code blockWidth} is a kernel argument, so the loops are not unrolled: each iteration's loads are followed
 * by its multiply-add, which waits for them. ALU counts are estimates (index math, mad, loop control).
 * Sizes are ours.
 */
public final class SdkDctWorkload extends BuiltinProvider {
    public SdkDctWorkload() {
        super("sdk-dct", "model of AMD APP SDK DCT (DCT kernel, 8x8 tiles; seed 003): 8x8 work-groups; each work-item reads "
                        + "row k of its tile (one line per warp load, rows width x 4 B apart) and the global 8x8 cosine table in an "
                        + "8-step loop, LDS + barrier, a second 8-step loop on the LDS and the table, then a transposed-index "
                        + "store of 4 rows per warp. Footprint 8 B x width x height.",
                List.of(
                        ParamSpec.integer("width", 512, 8, 1 << 15, "matrix columns (multiple of 8)"),
                        ParamSpec.integer("height", 512, 8, 1 << 15, "matrix rows (multiple of 8)"),
                        ParamSpec.integer("loop_alu", 8, 1, 10_000, "ALU instructions per loop iteration (index math, mad, loop control; estimate)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int width = p.getInt("width"), height = p.getInt("height"), loopAlu = p.getInt("loop_alu"), iterations = p.getInt("iterations");
        if (width % 8 != 0 || height % 8 != 0) throw new IllegalArgumentException("sdk-dct: width and height must be multiples of 8");
        int gxs = width / 8, ctas = gxs * (height / 8);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("output", 4L * width * height, AllocationHint.NONE, false),
                new AllocationSpec("input", 4L * width * height, AllocationHint.NONE, true),
                new AllocationSpec("dct8x8", 4L * 64, AllocationHint.NONE, true));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("DCT", ctas, 64, 64 * 4, (cta, warp) -> {
                    int gx = cta % gxs, gy = cta / gxs;
                    return new ScriptedProgram() {
                        @Override
                        int step(int s, WarpInstruction o) {
                            if (s < 24) { // first loop: table, input, mad
                                int k = s / 3;
                                switch (s % 3) {
                                    case 0 -> lanes(o, Kind.LOAD, (i, j) -> b[2] + 4L * (k * 8 + i));
                                    case 1 -> lanes(o, Kind.LOAD, (i, j) -> b[1] + 4L * ((long) (8 * gy + k) * width + 8 * gx + j));
                                    default -> { return loopAlu; }
                                }
                                return EMITTED;
                            }
                            if (s == 24) return 2; // LDS store
                            if (s == 25) { o.barrier(); return EMITTED; }
                            if (s < 26 + 16) { // second loop: table, LDS read + mad
                                int k = (s - 26) / 2;
                                if ((s - 26) % 2 == 1) return loopAlu + 1;
                                lanes(o, Kind.LOAD, (i, j) -> b[2] + 4L * (k * 8 + j));
                                return EMITTED;
                            }
                            if (s == 42) {
                                lanes(o, Kind.STORE, (i, j) -> b[0] + 4L * ((long) (8 * gy + j) * width + 8 * gx + i));
                                return EMITTED;
                            }
                            return END;
                        }

                        private void lanes(WarpInstruction o, Kind kind, Addr a) {
                            o.memory(kind, 4, -1, false);
                            for (int l = 0; l < WarpInstruction.THREADS; l++) {
                                int tid = warp * WarpInstruction.THREADS + l;
                                o.addresses[l] = a.of(tid % 8, tid / 8);
                            }
                        }
                    };
                }));
            return ks;
        });
    }

    @FunctionalInterface
    private interface Addr {
        long of(int i, int j);
    }
}
