package org.hmsim.platform.workloads.builtin;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
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
 * The classic latency micro-benchmark: pointers laid out one per 'stride' bytes and linked in a single
 * random cycle (a random permutation read as the visiting order), so each load's address is the value of the previous one and
 * neither caches nor prefetchers help once the footprint exceeds them. Every load waits for the one
 * before. With one warp and one chain exactly one request is in flight: the run time divided by the
 * hops is the unloaded load-to-use latency. 'chains' lanes per warp (and 'warps' warps, one per CTA)
 * chase disjoint stretches of the cycle: memory-level parallelism = warps x chains.
 */
public final class PointerChaseWorkload extends BuiltinProvider {
    public PointerChaseWorkload() {
        super("pointer-chase", "micro-benchmark (not a Rodinia model): dependent 8 B loads following a random cyclic permutation "
                        + "of nodes spaced 'stride' bytes apart; each load waits for the previous one, so MLP = warps x chains "
                        + "(1 by default: unloaded latency). Footprint = 'footprint' (rounded down to whole nodes).",
                List.of(
                        ParamSpec.size("footprint", 8L << 20, 256, 1L << 36, "bytes of the pointer array (nodes = footprint / stride)"),
                        ParamSpec.integer("stride", 128, 8, 1 << 20, "bytes between nodes (128 = one node per line, 4096 = one per page)"),
                        ParamSpec.integer("hops", 1024, 1, 1 << 30, "dependent loads per chain"),
                        ParamSpec.integer("warps", 1, 1, 1 << 20, "warps, one per CTA (spread over the SMs)"),
                        ParamSpec.integer("chains", 1, 1, 32, "independent chains per warp (active lanes): MLP per warp"),
                        ParamSpec.integer("compute", 0, 0, 100_000, "cycles of arithmetic between hops")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int stride = p.getInt("stride");
        long nodesL = p.getLong("footprint") / stride;
        if (nodesL < 2 || nodesL > Integer.MAX_VALUE - 8)
            throw new IllegalArgumentException("pointer-chase: footprint / stride must give 2.." + (Integer.MAX_VALUE - 8) + " nodes, was " + nodesL);
        int nodes = (int) nodesL;
        int hops = p.getInt("hops"), warps = p.getInt("warps"), chains = p.getInt("chains"), compute = p.getInt("compute");
        int[] order = cycleOrder(nodes, seed);
        List<AllocationSpec> allocs = List.of(new AllocationSpec("chain", (long) nodes * stride, AllocationHint.NONE, true));
        return new SimpleWorkload(name(), allocs, b -> {
            List<org.hmsim.api.workload.Kernel> ks = new ArrayList<>();
            ks.add(new SimpleKernel("pointer_chase", warps, 32, 0,
                    (cta, warp) -> new Program(b[0], stride, order, cta, warps, chains, hops, compute)));
            return ks;
        });
    }

    /** The node visited at each position of one random cycle through all nodes (a random permutation). */
    static int[] cycleOrder(int nodes, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        int[] order = new int[nodes];
        for (int i = 0; i < nodes; i++) order[i] = i;
        for (int i = nodes - 1; i > 0; i--) {
            int j = r.nextInt(i + 1);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        return order;
    }

    static final class Program implements WarpProgram {
        private final long base;
        private final int stride, chains, hops, compute;
        private final int[] order;
        private final long[] position = new long[Lanes.W];
        private int hop;
        private boolean computeNext;

        Program(long base, int stride, int[] order, int warp, int warps, int chains, int hops, int compute) {
            this.base = base;
            this.stride = stride;
            this.order = order;
            this.chains = chains;
            this.hops = hops;
            this.compute = compute;
            long total = (long) warps * chains;
            for (int c = 0; c < chains; c++) position[c] = ((long) warp * chains + c) * order.length / total;
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (computeNext) {
                computeNext = false;
                out.compute(compute, true);
                return true;
            }
            if (hop >= hops) return false;
            out.memory(Kind.LOAD, 8, Lanes.first(chains), true);
            for (int c = 0; c < chains; c++) {
                out.addresses[c] = base + (long) order[(int) ((position[c] + hop) % order.length)] * stride;
            }
            hop++;
            computeNext = compute > 0;
            return true;
        }
    }
}
