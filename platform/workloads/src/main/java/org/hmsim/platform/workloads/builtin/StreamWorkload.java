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
 * Vector add {@code c[i] = a[i] + b[i]} with a grid-stride loop: every warp instruction touches 32
 * consecutive floats, i.e. exactly one 128 B line, so the stream is fully coalesced and has no reuse.
 * With {@code writes: false} it is a pure streaming read of a and b (bandwidth measurements).
 */
public final class StreamWorkload extends BuiltinProvider {
    public StreamWorkload() {
        super("stream", "model of a STREAM-style vector add c[i]=a[i]+b[i] (the 'add' kernel of McCalpin's STREAM, "
                        + "as in CUDA samples vectorAdd): grid-stride loop, 2 coalesced 4 B loads, compute, 1 coalesced store "
                        + "per element; no reuse. writes=false drops c and the store (pure streaming read). "
                        + "Footprint 12 B x elements (8 B x elements when writes=false).",
                List.of(
                        ParamSpec.integer("elements", 262_144, 32, 1 << 28, "elements per array (4 B floats); footprint 12 B per element (8 B without writes)"),
                        ParamSpec.integer("ctas", 120, 1, 1 << 20, "CTAs in the grid (default 8 per SM of a 15-SM GPU)"),
                        ParamSpec.integer("threads", 256, 32, 1024, "threads per CTA"),
                        ParamSpec.integer("unroll", 1, 1, 8, "grid-stride iterations whose loads a warp issues before it waits (memory-level parallelism per warp)"),
                        ParamSpec.integer("compute", 2, 0, 10_000, "arithmetic cycles per element"),
                        ParamSpec.bool("writes", true, "store c[i]; false = read-only streaming of a and b"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "kernel launches (each streams all arrays once)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = p.getInt("elements");
        int ctas = p.getInt("ctas");
        int threads = p.getInt("threads");
        int unroll = p.getInt("unroll");
        int compute = p.getInt("compute");
        boolean writes = p.getBoolean("writes");
        int iterations = p.getInt("iterations");
        List<AllocationSpec> allocs = new ArrayList<>();
        allocs.add(new AllocationSpec("a", 4L * n, AllocationHint.NONE, !writes));
        allocs.add(new AllocationSpec("b", 4L * n, AllocationHint.NONE, !writes));
        if (writes) allocs.add(new AllocationSpec("c", 4L * n, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, base -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++) {
                ks.add(new SimpleKernel(writes ? "vector_add" : "vector_read", ctas, threads, 0,
                        (cta, warp) -> new Program(base[0], base[1], writes ? base[2] : -1, n, ctas, threads, cta, warp, unroll, compute)));
            }
            return ks;
        });
    }

    /** The grid-stride loop of one warp: groups of {@code unroll} iterations: loads a, loads b, compute, stores c. */
    static final class Program implements WarpProgram {
        private final long a, b, c;
        private final long n, gridThreads, firstElement;
        private final int existing, unroll, compute;
        private final int rounds;
        private int round, slot, phase;

        Program(long a, long b, long c, int n, int ctas, int threads, int cta, int warp, int unroll, int compute) {
            this.a = a;
            this.b = b;
            this.c = c;
            this.n = n;
            this.gridThreads = (long) ctas * threads;
            this.firstElement = (long) cta * threads + (long) warp * Lanes.W;
            this.existing = Lanes.existing(warp, threads);
            this.unroll = unroll;
            this.compute = compute;
            this.rounds = firstElement >= n ? 0 : (int) ((n - firstElement + gridThreads - 1) / gridThreads);
        }

        @Override
        public boolean next(WarpInstruction out) {
            while (round < rounds) {
                int group = Math.min(unroll, rounds - round);
                switch (phase) {
                    case 0, 1, 3 -> {
                        Kind kind = phase == 3 ? Kind.STORE : Kind.LOAD;
                        long base = phase == 0 ? a : phase == 1 ? b : c;
                        // the store needs the sum, which needs both loads
                        emit(out, kind, base, round + slot, phase == 3);
                        if (++slot == group) {
                            slot = 0;
                            phase = phase == 0 ? 1 : phase == 1 ? 2 : 4;
                        }
                        return true;
                    }
                    case 2 -> {
                        out.compute(Math.max(1, compute * group), true);
                        phase = c >= 0 ? 3 : 4;
                        return true;
                    }
                    default -> {
                        round += group;
                        phase = 0;
                    }
                }
            }
            return false;
        }

        private void emit(WarpInstruction out, Kind kind, long base, int r, boolean wait) {
            long e0 = firstElement + r * gridThreads;
            out.memory(kind, 4, existing & Lanes.first(n - e0), wait);
            for (int l = 0; l < Lanes.W; l++) out.addresses[l] = base + 4 * (e0 + l);
        }
    }
}
