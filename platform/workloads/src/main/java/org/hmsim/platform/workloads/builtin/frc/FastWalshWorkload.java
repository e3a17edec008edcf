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
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;

/**
 * AMD APP SDK FastWalshTransform (seed 003 §5: "butterfly with power-of-two strides"; FRC up to +150 % on
 * the HD 7770, Fig. 5.4). The host launches one kernel per butterfly step (step = 1, 2, 4 … length/2);
 * work-item t of a step computes {@code pair = 2·step·(t / step) + t % step}, {@code match = pair + step},
 * reads both, and writes {@code a+b} to pair and {@code a−b} to match, in place. For large steps every
 * warp reads two lines {@code step·4 B} apart, which fall into the same L2 set whenever the step is a
 * multiple of the set span, and writes them back dirty: a burst of dirty replacements to few sets.
 */
public final class FastWalshWorkload extends BuiltinProvider {
    public FastWalshWorkload() {
        super("fast-walsh", "model of AMD APP SDK FastWalshTransform (seed 003): one kernel per butterfly step (1, 2, 4 ... "
                        + "length/2), length/2 work-items each reading tArray[pair] and tArray[pair+step] and writing both back in "
                        + "place; power-of-two strides concentrate the pairs on few L2 sets. Footprint 4 B x length.",
                List.of(
                        ParamSpec.integer("length", 1 << 18, 64, 1 << 26, "signal length (floats, rounded down to a power of two); footprint 4 B x length"),
                        ParamSpec.integer("threads", 256, 32, 1024, "work-items per work-group"),
                        ParamSpec.integer("min_step", 1, 1, 1 << 25, "first butterfly step launched (smaller steps are skipped: shortens runs)"),
                        ParamSpec.integer("compute", 4, 0, 10_000, "arithmetic cycles per butterfly (add, subtract, index math)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int length = Integer.highestOneBit(p.getInt("length"));
        int threads = p.getInt("threads");
        int minStep = Integer.highestOneBit(p.getInt("min_step"));
        int compute = p.getInt("compute");
        int half = length / 2;
        int ctas = (half + threads - 1) / threads;
        List<AllocationSpec> allocs = List.of(new AllocationSpec("tArray", 4L * length, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int step = Math.min(minStep, half); step < length; step <<= 1) {
                int s = step;
                ks.add(new SimpleKernel("fastWalshTransform_step" + s, ctas, threads, 0,
                        (cta, warp) -> new Program(b[0], half, s, threads, cta, warp, compute)));
            }
            return ks;
        });
    }

    /** One warp of one step: load pair, load match, compute, store pair, store match. */
    static final class Program implements WarpProgram {
        private final long base;
        private final long first;
        private final int step, mask, compute;
        private int phase;

        Program(long base, int half, int step, int threads, int cta, int warp, int compute) {
            this.base = base;
            this.step = step;
            this.compute = compute;
            this.first = (long) cta * threads + (long) warp * Lanes.W;
            this.mask = Lanes.existing(warp, threads) & Lanes.first(half - first);
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (mask == 0) return false;
            switch (phase++) {
                case 0 -> emit(out, Kind.LOAD, 0, false);
                case 1 -> emit(out, Kind.LOAD, step, false);
                case 2 -> out.compute(Math.max(1, compute), true);
                case 3 -> emit(out, Kind.STORE, 0, false);
                case 4 -> emit(out, Kind.STORE, step, false);
                default -> { return false; }
            }
            return true;
        }

        private void emit(WarpInstruction out, Kind kind, long offset, boolean wait) {
            out.memory(kind, 4, mask, wait);
            for (int l = 0; l < Lanes.W; l++) {
                long t = first + l;
                long pair = 2L * step * (t / step) + t % step;
                out.addresses[l] = base + 4 * (pair + offset);
            }
        }
    }
}
