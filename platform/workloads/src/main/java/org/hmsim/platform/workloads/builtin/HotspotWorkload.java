package org.hmsim.platform.workloads.builtin;

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
 * Rodinia hotspot ({@code calculate_temp}): 16x16 CTAs each load a tile of temperature and power,
 * including a halo of {@code pyramid} cells, into shared memory; run {@code pyramid} 5-point stencil
 * steps on it separated by barriers; and write back the inner (16-2·pyramid)² cells. Launches
 * ping-pong between two temperature grids. Neighbour reuse happens in shared memory, so global
 * traffic is two coalesced tile reads and one tile write per CTA (seed 003 §5: "LDS-tiled stencil").
 */
public final class HotspotWorkload extends BuiltinProvider {
    static final int BLOCK = 16;

    public HotspotWorkload() {
        super("hotspot", "model of Rodinia hotspot: 2D 5-point thermal stencil on a rows x cols float grid; each 16x16 CTA "
                        + "loads its temp and power tile with halo (coalesced 64 B row segments), runs 'pyramid' shared-memory "
                        + "stencil steps with barriers, stores the inner tile; launches ping-pong between two temp grids. "
                        + "Host set-up and the final copy-back are not modelled. Footprint 12 B x rows x cols.",
                List.of(
                        ParamSpec.integer("rows", 512, 16, 1 << 15, "grid rows; footprint 12 B x rows x cols (temp in, temp out, power)"),
                        ParamSpec.integer("cols", 512, 16, 1 << 15, "grid columns"),
                        ParamSpec.integer("pyramid", 1, 1, 7, "time steps per launch computed in shared memory (halo width)"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches"),
                        ParamSpec.integer("compute", 16, 1, 10_000, "arithmetic cycles per stencil step per warp")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int rows = p.getInt("rows"), cols = p.getInt("cols"), pyramid = p.getInt("pyramid");
        int iterations = p.getInt("iterations"), compute = p.getInt("compute");
        long bytes = 4L * rows * cols;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("temp0", bytes),
                new AllocationSpec("power", bytes, AllocationHint.NONE, true),
                new AllocationSpec("temp1", bytes));
        int small = BLOCK - 2 * pyramid;
        int gx = (cols + small - 1) / small, gy = (rows + small - 1) / small;
        return new SimpleWorkload(name(), allocs, base -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++) {
                long src = it % 2 == 0 ? base[0] : base[2], dst = it % 2 == 0 ? base[2] : base[0];
                long power = base[1];
                ks.add(new SimpleKernel("calculate_temp", gx * gy, BLOCK * BLOCK, 3 * BLOCK * BLOCK * 4,
                        (cta, warp) -> new Program(src, power, dst, rows, cols, pyramid, gx, cta, warp, compute)));
            }
            return ks;
        });
    }

    /** Warp w of a 16x16 CTA holds tile rows 2w and 2w+1 (lanes 0-15 and 16-31). */
    static final class Program implements WarpProgram {
        private final long src, power, dst;
        private final int cols, compute, steps;
        private final int tileX, tileY, warp;
        private final int loadMask, storeMask;
        private int pc;

        Program(long src, long power, long dst, int rows, int cols, int pyramid, int gx, int cta, int warp, int compute) {
            this.src = src;
            this.power = power;
            this.dst = dst;
            this.cols = cols;
            this.compute = compute;
            this.steps = pyramid;
            this.warp = warp;
            int small = BLOCK - 2 * pyramid;
            this.tileX = small * (cta % gx) - pyramid;
            this.tileY = small * (cta / gx) - pyramid;
            int lm = 0, sm = 0;
            for (int l = 0; l < Lanes.W; l++) {
                int tx = l % BLOCK, ty = 2 * warp + l / BLOCK;
                int x = tileX + tx, y = tileY + ty;
                boolean inGrid = x >= 0 && x < cols && y >= 0 && y < rows;
                if (inGrid) lm |= 1 << l;
                if (inGrid && tx >= pyramid && tx < BLOCK - pyramid && ty >= pyramid && ty < BLOCK - pyramid) sm |= 1 << l;
            }
            this.loadMask = lm;
            this.storeMask = sm;
        }

        // pc: 0 load power, 1 load temp, 2 barrier, then (compute, barrier) x steps, then store
        @Override
        public boolean next(WarpInstruction out) {
            int stepEnd = 3 + 2 * steps;
            while (true) {
                int at = pc++;
                if (at == 0 || at == 1) {
                    if (loadMask == 0) continue;
                    fill(out, Kind.LOAD, at == 0 ? power : src, loadMask, false);
                } else if (at == 2) {
                    out.barrier();
                } else if (at < stepEnd) {
                    if ((at - 3) % 2 == 0) out.compute(compute, at == 3); // the first step needs the loaded tile
                    else out.barrier();
                } else if (at == stepEnd) {
                    if (storeMask == 0) continue;
                    fill(out, Kind.STORE, dst, storeMask, true);
                } else {
                    return false;
                }
                return true;
            }
        }

        private void fill(WarpInstruction out, Kind kind, long base, int mask, boolean wait) {
            out.memory(kind, 4, mask, wait);
            for (int l = 0; l < Lanes.W; l++) {
                long x = tileX + l % BLOCK, y = tileY + 2L * warp + l / BLOCK;
                out.addresses[l] = base + 4 * (y * cols + x);
            }
        }
    }
}
