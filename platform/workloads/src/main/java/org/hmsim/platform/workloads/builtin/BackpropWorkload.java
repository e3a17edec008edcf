package org.hmsim.platform.workloads.builtin;

import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * Rodinia backprop's two kernels on a network with 'input' input units and 16 hidden units, 16x16 thread
 * blocks, one block per 16 input rows. {@code layerforward}: thread (ty, tx) reads input[16·by+ty+1] (16
 * threads share the word) and weight w[(16·by+ty+1)·17 + tx+1] (rows of 17 floats: neighbouring rows and
 * warps share lines), multiplies, reduces in shared memory (barriers) and writes the product back into the
 * weight matrix, the row-0 threads writing the block's partial sums. {@code adjust_weights}: reads delta[tx+1],
 * ly[16·by+ty+1], w and oldw, writes w and oldw (read-modify-write bursts). Seed 000 Tables 6.1/6.2:
 * backprop coalesces well (54 % L1, 60 % L1+L2) with 86 % line utilisation, and its writes to CPU-homed
 * pages make read-only caching fault (§6.4.2).
 */
public final class BackpropWorkload extends BuiltinProvider {
    static final int H = 16, THREADS = 256;
    static final int INPUT = 0, WEIGHTS = 1, OLDW = 2, PARTIAL = 3, DELTA = 4;

    public BackpropWorkload() {
        super("backprop", "model of Rodinia backprop (layerforward + adjust_weights, 16 hidden units, 16x16 blocks): shared input words, "
                        + "17-float weight rows shared by neighbouring warps, in-place weight writes, read-modify-write of weights and old "
                        + "weights. Footprint ~ 2 x 68 B x input.",
                List.of(ParamSpec.integer("input", 32768, 16, 1 << 24, "input units (multiple of 16); one 16x16 block per 16 units"),
                        ParamSpec.integer("compute", 4, 1, 10_000, "cycles of arithmetic per multiply-accumulate step")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int input = p.getInt("input") / 16 * 16, compute = p.getInt("compute");
        int blocks = input / 16;
        long wBytes = 4L * (input + 1) * (H + 1);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("input_units", 4L * (input + 1), AllocationHint.NONE, true),
                new AllocationSpec("input_weights", wBytes),
                new AllocationSpec("input_prev_weights", wBytes),
                new AllocationSpec("hidden_partial_sum", 4L * blocks * H),
                new AllocationSpec("hidden_delta", 4L * (H + 1), AllocationHint.NONE, true));
        return new SimpleWorkload(name(), allocs, b -> List.of(
                new SimpleKernel("bpnn_layerforward", blocks, THREADS, 4 * (H * H + H), (cta, warp) -> new Forward(b, cta, warp, compute)),
                new SimpleKernel("bpnn_adjust_weights", blocks, THREADS, 0, (cta, warp) -> new Adjust(b, cta, warp, compute))));
    }

    private static long weight(long[] b, int alloc, int by, int t) {
        int tx = t % H, ty = t / H;
        return b[alloc] + 4L * ((long) (H * by + ty + 1) * (H + 1) + tx + 1);
    }

    static final class Forward implements WarpProgram {
        private final long[] b;
        private final int by, warp, compute;
        private int pc;

        Forward(long[] b, int by, int warp, int compute) {
            this.b = b;
            this.by = by;
            this.warp = warp;
            this.compute = compute;
        }

        @Override
        public boolean next(WarpInstruction out) {
            switch (pc++) {
                case 0 -> { // input_node[ty] = input[16 by + ty + 1] (threads tx == 0 load it; all lanes of a row share the word)
                    out.memory(Kind.LOAD, 4, Lanes.first(32), false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[INPUT] + 4L * (H * by + (warp * 32 + l) / H + 1);
                }
                case 1 -> {
                    out.memory(Kind.LOAD, 4, Lanes.first(32), false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = weight(b, WEIGHTS, by, warp * 32 + l);
                }
                case 2 -> out.compute(compute, true);
                case 3, 5, 7, 9 -> out.barrier();
                case 4, 6, 8 -> out.compute(compute, false); // the shared-memory reduction, log2(16) steps
                case 10 -> { // input_hidden[index] = weight_matrix[ty][tx]
                    out.memory(Kind.STORE, 4, Lanes.first(32), false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = weight(b, WEIGHTS, by, warp * 32 + l);
                }
                case 11 -> { // tx == 0 of row 0: hidden_partial_sum[by * 16 + ty]
                    if (warp != 0) return false;
                    out.memory(Kind.STORE, 4, Lanes.first(H), true);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[PARTIAL] + 4L * (by * H + (l % H));
                }
                default -> { return false; }
            }
            return true;
        }
    }

    static final class Adjust implements WarpProgram {
        private final long[] b;
        private final int by, warp, compute;
        private int pc;

        Adjust(long[] b, int by, int warp, int compute) {
            this.b = b;
            this.by = by;
            this.warp = warp;
            this.compute = compute;
        }

        @Override
        public boolean next(WarpInstruction out) {
            int all = Lanes.first(32);
            switch (pc++) {
                case 0 -> { // delta[tx + 1]
                    out.memory(Kind.LOAD, 4, all, false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[DELTA] + 4L * (l % H + 1);
                }
                case 1 -> { // ly[16 by + ty + 1]
                    out.memory(Kind.LOAD, 4, all, false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[INPUT] + 4L * (H * by + (warp * 32 + l) / H + 1);
                }
                case 2, 3 -> {
                    out.memory(Kind.LOAD, 4, all, false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = weight(b, pc == 3 ? WEIGHTS : OLDW, by, warp * 32 + l);
                }
                case 4 -> out.compute(compute, true);
                case 5, 6 -> {
                    out.memory(Kind.STORE, 4, all, pc == 7);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = weight(b, pc == 6 ? WEIGHTS : OLDW, by, warp * 32 + l);
                }
                default -> { return false; }
            }
            return true;
        }
    }
}
