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
 * Rodinia srad_v1: per iteration the kernels {@code prepare} (J → sums, sums2), {@code srad}
 * (5-point stencil on J through the neighbour index arrays iN/iS/jW/jE; writes dN, dS, dW, dE, c,
 * which are written before they are read: seed 000 §4 "write-only outputs") and {@code srad2}
 * (reads c, its south/east neighbours and the four derivatives; updates J). One thread per pixel,
 * column-major image as in the original, so north/south neighbours share a line and west/east are a
 * column (rows x 4 B) away. The tree reduction of sums and the host's statistics are not modelled.
 */
public final class SradWorkload extends BuiltinProvider {
    static final int THREADS = 512; // NUMBER_THREADS in srad_v1

    // allocation indices
    static final int J = 0, C = 1, DN = 2, DS = 3, DW = 4, DE = 5, IN = 6, IS = 7, JW = 8, JE = 9, SUMS = 10, SUMS2 = 11;

    public SradWorkload() {
        super("srad", "model of Rodinia srad_v1: speckle-reducing anisotropic diffusion on a rows x cols float image, "
                        + "kernels prepare, srad (stencil through neighbour-index arrays, write-only outputs dN/dS/dW/dE/c) and "
                        + "srad2 (update J) per iteration; one thread per pixel, column-major, coalesced. The reduce kernel and "
                        + "host-side statistics are not modelled. Footprint 32 B x rows x cols + 8 B x (rows + cols).",
                List.of(
                        ParamSpec.integer("rows", 256, 32, 1 << 15, "image rows; footprint 32 B per pixel (J, c, dN, dS, dW, dE, sums, sums2)"),
                        ParamSpec.integer("cols", 256, 32, 1 << 15, "image columns"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "diffusion iterations (3 kernels each)"),
                        ParamSpec.integer("compute", 24, 1, 10_000, "arithmetic cycles of the srad kernel per pixel (srad2 and prepare use a third)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int rows = p.getInt("rows"), cols = p.getInt("cols"), iterations = p.getInt("iterations"), compute = p.getInt("compute");
        long px = (long) rows * cols;
        List<AllocationSpec> a = new ArrayList<>();
        for (String n : new String[] {"J", "c", "dN", "dS", "dW", "dE"}) a.add(new AllocationSpec(n, 4 * px));
        for (String n : new String[] {"iN", "iS"}) a.add(new AllocationSpec(n, 4L * rows, AllocationHint.NONE, true));
        for (String n : new String[] {"jW", "jE"}) a.add(new AllocationSpec(n, 4L * cols, AllocationHint.NONE, true));
        a.add(new AllocationSpec("sums", 4 * px));
        a.add(new AllocationSpec("sums2", 4 * px));
        int ctas = (int) ((px + THREADS - 1) / THREADS);
        return new SimpleWorkload(name(), a, base -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++) {
                for (int k = 0; k < 3; k++) {
                    int kernel = k;
                    ks.add(new SimpleKernel(KERNEL_NAMES[k], ctas, THREADS, 0,
                            (cta, warp) -> new Program(PROGRAMS[kernel], base, rows, cols, cta, warp, compute)));
                }
            }
            return ks;
        });
    }

    static final String[] KERNEL_NAMES = {"prepare", "srad", "srad2"};

    // Step encoding: kind, allocation, neighbour (0 centre, 1 N, 2 S, 3 W, 4 E, 5 row index, 6 col index), wait.
    // A COMPUTE step uses 'allocation' as a divisor of the compute parameter.
    private static final int LD = 0, ST = 1, CP = 2;
    private static final int[][][] PROGRAMS = {
            { // prepare: sums[ei] = J[ei]; sums2[ei] = J[ei]^2
                    {LD, J, 0, 0}, {CP, 3, 0, 1}, {ST, SUMS, 0, 0}, {ST, SUMS2, 0, 0}},
            { // srad: neighbour indices, J stencil, derivatives and diffusion coefficient
                    {LD, J, 0, 0}, {LD, IN, 5, 0}, {LD, IS, 5, 0}, {LD, JW, 6, 0}, {LD, JE, 6, 0},
                    {LD, J, 1, 1}, {LD, J, 2, 0}, {LD, J, 3, 0}, {LD, J, 4, 0},
                    {CP, 1, 0, 1},
                    {ST, DN, 0, 0}, {ST, DS, 0, 0}, {ST, DW, 0, 0}, {ST, DE, 0, 0}, {ST, C, 0, 0}},
            { // srad2: divergence and image update
                    {LD, C, 0, 0}, {LD, IS, 5, 0}, {LD, JE, 6, 0},
                    {LD, C, 2, 1}, {LD, C, 4, 0},
                    {LD, DN, 0, 0}, {LD, DS, 0, 0}, {LD, DW, 0, 0}, {LD, DE, 0, 0}, {LD, J, 0, 0},
                    {CP, 3, 0, 1},
                    {ST, J, 0, 0}}};

    static final class Program implements WarpProgram {
        private final int[][] steps;
        private final long[] base;
        private final int rows, cols, compute;
        private final long first;
        private final int mask;
        private int pc;

        Program(int[][] steps, long[] base, int rows, int cols, int cta, int warp, int compute) {
            this.steps = steps;
            this.base = base;
            this.rows = rows;
            this.cols = cols;
            this.compute = compute;
            this.first = (long) cta * THREADS + (long) warp * Lanes.W;
            this.mask = Lanes.first((long) rows * cols - first);
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (pc >= steps.length || mask == 0) return false;
            int[] s = steps[pc++];
            if (s[0] == CP) {
                out.compute(Math.max(1, compute / s[1]), s[3] != 0);
                return true;
            }
            out.memory(s[0] == LD ? Kind.LOAD : Kind.STORE, 4, mask, s[3] != 0);
            for (int l = 0; l < Lanes.W; l++) out.addresses[l] = base[s[1]] + 4 * element(first + l, s[2]);
            return true;
        }

        /** The element index a pixel's thread touches: its pixel, a clamped neighbour, or its row/column. */
        private long element(long ei, int which) {
            int row = (int) (ei % rows), col = (int) (ei / rows);
            return switch (which) {
                case 1 -> Math.max(row - 1, 0) + (long) rows * col;
                case 2 -> Math.min(row + 1, rows - 1) + (long) rows * col;
                case 3 -> row + (long) rows * Math.max(col - 1, 0);
                case 4 -> row + (long) rows * Math.min(col + 1, cols - 1);
                case 5 -> row;
                case 6 -> col;
                default -> ei;
            };
        }
    }
}
