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
 * AMD APP SDK 2.5 MatrixTranspose (seed 003 §5, Fig. 3.5/5.7): a work-group of block×block work-items
 * copies its tile of the input into the LDS (row-major reads, {@code block} consecutive floats per row),
 * waits at a barrier, and writes the transposed tile: work-item (lx, ly) writes
 * {@code output[(gx·block + lx)·height + gy·block + ly]}, so neighbouring lanes write {@code height·4 B}
 * apart — a warp's store touches {@code block} rows of the output, and with a power-of-two height those
 * rows fall into the same few L2 sets (the FRC-set conflicts of Fig. 5.7). The LDS traffic is not global
 * and costs {@code compute} cycles.
 */
public final class MatrixTransposeWorkload extends BuiltinProvider {
    public MatrixTransposeWorkload() {
        super("matrix-transpose", "model of AMD APP SDK 2.5 MatrixTranspose (seed 003): LDS-tiled transpose whose tile read is "
                        + "row-major (block floats per row) and whose write walks down columns (neighbouring lanes height x 4 B apart), "
                        + "so power-of-two heights send each warp's store burst to few L2 sets. Footprint 8 B x width x height.",
                List.of(
                        ParamSpec.integer("width", 1024, 8, 1 << 15, "input columns (multiple of block)"),
                        ParamSpec.integer("height", 1024, 8, 1 << 15, "input rows (multiple of block); the output row pitch"),
                        ParamSpec.integer("block", 16, 8, 32, "tile edge (SDK blockSize: 8, 16 or 32; block x block work-items per group)"),
                        ParamSpec.integer("compute", 4, 0, 10_000, "cycles of LDS store/load and index math per work-item"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int width = p.getInt("width"), height = p.getInt("height"), bs = p.getInt("block");
        int compute = p.getInt("compute"), iterations = p.getInt("iterations");
        if (bs != 8 && bs != 16 && bs != 32) throw new IllegalArgumentException("matrix-transpose: block must be 8, 16 or 32, was " + bs);
        if (width % bs != 0 || height % bs != 0)
            throw new IllegalArgumentException("matrix-transpose: width and height must be multiples of block (" + bs + ")");
        int gxs = width / bs, ctas = gxs * (height / bs);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("input", 4L * width * height, AllocationHint.NONE, true),
                new AllocationSpec("output", 4L * width * height, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("matrixTranspose", ctas, bs * bs, bs * bs * 4,
                        (cta, warp) -> new Program(b[0], b[1], width, height, bs, cta % gxs, cta / gxs, warp, compute)));
            return ks;
        });
    }

    /** Tile read, LDS store + barrier, transposed write. */
    static final class Program implements WarpProgram {
        private final long in, out;
        private final int width, height, bs, gx, gy, warp, compute, mask;
        private int phase;

        Program(long in, long out, int width, int height, int bs, int gx, int gy, int warp, int compute) {
            this.in = in;
            this.out = out;
            this.width = width;
            this.height = height;
            this.bs = bs;
            this.gx = gx;
            this.gy = gy;
            this.warp = warp;
            this.compute = compute;
            this.mask = Lanes.existing(warp, bs * bs);
        }

        @Override
        public boolean next(WarpInstruction o) {
            switch (phase++) {
                case 0 -> {
                    o.memory(Kind.LOAD, 4, mask, false);
                    for (int l = 0; l < Lanes.W; l++) {
                        int tid = warp * Lanes.W + l, lx = tid % bs, ly = tid / bs;
                        o.addresses[l] = in + 4L * ((long) (gy * bs + ly) * width + gx * bs + lx);
                    }
                }
                case 1 -> o.compute(Math.max(1, compute), true); // the LDS store needs the loaded value
                case 2 -> o.barrier();
                case 3 -> {
                    o.memory(Kind.STORE, 4, mask, false);
                    for (int l = 0; l < Lanes.W; l++) {
                        int tid = warp * Lanes.W + l, lx = tid % bs, ly = tid / bs;
                        o.addresses[l] = out + 4L * ((long) (gx * bs + lx) * height + gy * bs + ly);
                    }
                }
                default -> { return false; }
            }
            return true;
        }
    }
}
