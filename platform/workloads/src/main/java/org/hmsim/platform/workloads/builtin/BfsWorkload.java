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
import org.hmsim.platform.workloads.gen.PowerLawGraph;

/**
 * Rodinia bfs: level-synchronous traversal with one thread per node and two kernels per level.
 * Kernel 1 sweeps graph_mask; frontier threads read their node record, then walk their edge list
 * (uncoalesced: each lane its own list) and, per edge, gather visited[neighbour] (dependent on the
 * edge load) and mark unvisited neighbours in cost and updating_graph_mask. Kernel 2 sweeps
 * updating_graph_mask and moves newly reached nodes into mask/visited. The per-node byte arrays
 * (mask, updating, visited) and cost are small and hit every level: in the seed ~80% of traffic in
 * ~20% of the footprint (seed 000 §4, bfs); the edge array is large and read once. The graph is a
 * generated preferential-attachment power-law graph; the frontier of each level is that of a real
 * BFS on it, so divergence and hub lists emerge.
 */
public final class BfsWorkload extends BuiltinProvider {
    static final int THREADS = 512; // MAX_THREADS_PER_BLOCK in Rodinia bfs
    static final int NODES = 0, EDGES = 1, MASK = 2, UPDATING = 3, VISITED = 4, COST = 5, OVER = 6;

    public BfsWorkload() {
        super("bfs", "model of Rodinia bfs: level-synchronous BFS, one thread per node, 2 kernels per level, on a generated "
                        + "preferential-attachment power-law graph in CSR (deterministic from the seed). Hot per-node arrays "
                        + "(mask, updating, visited: 1 B; cost: 4 B) swept every level and gathered per edge; cold node records "
                        + "(8 B) and edge array (4 B per directed edge) read once; edge loads depend on the node record, visited "
                        + "gathers on the edge load. The host's stop-flag loop is not modelled. Footprint ~ nodes x (15 B + 4 B x degree).",
                List.of(
                        ParamSpec.integer("nodes", 32_768, 64, 1 << 24, "graph nodes; footprint ~ nodes x (15 B + 4 B x degree)"),
                        ParamSpec.integer("degree", 8, 2, 1024, "mean degree (each new node attaches degree/2 undirected edges)"),
                        ParamSpec.integer("source", 0, 0, Integer.MAX_VALUE, "start node (taken modulo nodes)"),
                        ParamSpec.integer("compute", 2, 1, 10_000, "cycles of the branch/compare after each dependent load")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = p.getInt("nodes"), compute = p.getInt("compute");
        PowerLawGraph g = new PowerLawGraph(n, Math.max(1, p.getInt("degree") / 2), seed);
        int[] level = g.levels(p.getInt("source") % n);
        int maxLevel = 0;
        for (int l : level) maxLevel = Math.max(maxLevel, l);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("graph_nodes", 8L * n, AllocationHint.NONE, true),
                new AllocationSpec("graph_edges", 4L * g.edgeCount(), AllocationHint.NONE, true),
                new AllocationSpec("graph_mask", n),
                new AllocationSpec("updating_graph_mask", n),
                new AllocationSpec("graph_visited", n),
                new AllocationSpec("cost", 4L * n),
                new AllocationSpec("over", 4));
        int ctas = (n + THREADS - 1) / THREADS;
        int levels = maxLevel + 1;
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int L = 0; L < levels; L++) {
                int lv = L;
                ks.add(new SimpleKernel("bfs_kernel1", ctas, THREADS, 0, (cta, warp) -> new Expand(g, level, lv, b, cta, warp, compute)));
                ks.add(new SimpleKernel("bfs_kernel2", ctas, THREADS, 0, (cta, warp) -> new Update(level, lv, b, cta, warp, compute)));
            }
            return ks;
        });
    }

    static void fill(WarpInstruction out, Kind kind, int bytes, int mask, boolean wait, long base, long first) {
        out.memory(kind, bytes, mask, wait);
        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = base + bytes * (first + l);
    }

    /** Kernel 1 of level L: expand the frontier. */
    static final class Expand implements WarpProgram {
        private final PowerLawGraph g;
        private final int[] level;
        private final int lv, compute;
        private final long[] b;
        private final long first;
        private final int valid, frontier;
        private final int[] start = new int[Lanes.W], deg = new int[Lanes.W];
        private int maxDeg;
        private int pc, k, phase, active, unvisited;

        Expand(PowerLawGraph g, int[] level, int lv, long[] b, int cta, int warp, int compute) {
            this.g = g;
            this.level = level;
            this.lv = lv;
            this.b = b;
            this.compute = compute;
            this.first = (long) cta * THREADS + (long) warp * Lanes.W;
            this.valid = Lanes.first(g.nodes() - first);
            int f = 0;
            for (int l = 0; l < Lanes.W; l++) {
                if ((valid & (1 << l)) == 0) continue;
                int v = (int) first + l;
                if (level[v] == lv) {
                    f |= 1 << l;
                    start[l] = g.rowStart(v);
                    deg[l] = g.degree(v);
                    maxDeg = Math.max(maxDeg, deg[l]);
                }
            }
            this.frontier = f;
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (valid == 0) return false;
            switch (pc) {
                case 0 -> { pc++; fill(out, Kind.LOAD, 1, valid, false, b[MASK], first); return true; }
                case 1 -> { pc++; out.compute(compute, true); return true; }
                case 2 -> {
                    if (frontier == 0) return false;
                    pc++;
                    fill(out, Kind.STORE, 1, frontier, false, b[MASK], first);
                    return true;
                }
                case 3 -> { pc++; fill(out, Kind.LOAD, 8, frontier, false, b[NODES], first); return true; }
                case 4 -> { pc++; fill(out, Kind.LOAD, 4, frontier, false, b[COST], first); return true; }
                default -> { return edgeStep(out); }
            }
        }

        /** Per edge k: load the edge, gather visited[neighbour], branch, mark unvisited neighbours. */
        private boolean edgeStep(WarpInstruction out) {
            while (k < maxDeg) {
                switch (phase++) {
                    case 0 -> {
                        active = 0;
                        for (int l = 0; l < Lanes.W; l++) if ((frontier & (1 << l)) != 0 && deg[l] > k) active |= 1 << l;
                        out.memory(Kind.LOAD, 4, active, true);
                        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[EDGES] + 4L * (start[l] + k);
                        return true;
                    }
                    case 1 -> {
                        unvisited = 0;
                        out.memory(Kind.LOAD, 1, active, true);
                        for (int l = 0; l < Lanes.W; l++) {
                            if ((active & (1 << l)) == 0) continue;
                            int id = g.edge(start[l] + k);
                            out.addresses[l] = b[VISITED] + id;
                            // visited[id] is set for nodes of level <= lv by the previous kernel 2s
                            if (level[id] > lv || level[id] < 0) unvisited |= 1 << l;
                        }
                        return true;
                    }
                    case 2 -> { out.compute(compute, true); return true; }
                    case 3 -> { if (unvisited != 0) { neighbours(out, Kind.STORE, 4, b[COST]); return true; } }
                    case 4 -> { if (unvisited != 0) { neighbours(out, Kind.STORE, 1, b[UPDATING]); return true; } }
                    default -> { phase = 0; k++; }
                }
            }
            return false;
        }

        private void neighbours(WarpInstruction out, Kind kind, int bytes, long base) {
            out.memory(kind, bytes, unvisited, true);
            for (int l = 0; l < Lanes.W; l++)
                out.addresses[l] = (unvisited & (1 << l)) != 0 ? base + (long) bytes * g.edge(start[l] + k) : base;
        }
    }

    /** Kernel 2 of level L: nodes reached in this level join the next frontier. */
    static final class Update implements WarpProgram {
        private final long[] b;
        private final long first;
        private final int valid, reached, compute;
        private int pc;

        Update(int[] level, int lv, long[] b, int cta, int warp, int compute) {
            this.b = b;
            this.compute = compute;
            this.first = (long) cta * THREADS + (long) warp * Lanes.W;
            this.valid = Lanes.first(level.length - first);
            int r = 0;
            for (int l = 0; l < Lanes.W; l++) if ((valid & (1 << l)) != 0 && level[(int) first + l] == lv + 1) r |= 1 << l;
            this.reached = r;
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (valid == 0) return false;
            int at = pc++;
            switch (at) {
                case 0 -> fill(out, Kind.LOAD, 1, valid, false, b[UPDATING], first);
                case 1 -> out.compute(compute, true);
                case 2, 3, 5 -> {
                    if (reached == 0) return false;
                    long base = at == 2 ? b[MASK] : at == 3 ? b[VISITED] : b[UPDATING];
                    fill(out, Kind.STORE, 1, reached, false, base, first);
                }
                case 4 -> { // *g_over = true, every reached lane writes the same flag
                    out.memory(Kind.STORE, 4, reached, false);
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[OVER];
                }
                default -> { return false; }
            }
            return true;
        }
    }
}
