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
import org.hmsim.platform.workloads.gen.PowerLawGraph;

/**
 * Pannotia graph kernels of seed 003 §5 (Ch. 6: Color +163 % with an unbounded FRC, PRK up to +200 %),
 * thread per vertex over a CSR power-law graph ({@link PowerLawGraph}): each lane walks its own edge list
 * ({@code col[row[v] + k]}: lanes far apart, a gather) and then touches the neighbour's data at a random
 * place — long bursts of irregular misses that fill the L2's sets (and exceed its capacity once the per-vertex
 * arrays do: 32 K vertices at the defaults are 128 KB per array; Pannotia's inputs are 10-100x that).
 * <ul>
 *   <li>{@code prk} (pagerank1 + pagerank2): per edge an atomic add of {@code rank1[v] / degree} into
 *       {@code rank2[col]} (Pannotia's {@code add_float_atomic}: a load of {@code rank2[col]}, then a
 *       compare-and-swap; its retries under contention are not modelled); then a streaming pass
 *       {@code rank1 = 0.15/n + 0.85 rank2; rank2 = 0}.</li>
 *   <li>{@code color} (Pannotia's {@code color}, max variant): per edge reads {@code color[col]} and
 *       {@code value[col]}, sets the shared {@code stop} flag (every neighbour is uncoloured in the first
 *       round, which is the one modelled), keeps the maximum, writes {@code max[v]}; then ({@code color2})
 *       colours the vertices that are local maxima.</li>
 * </ul>
 */
public final class PannotiaWorkload extends BuiltinProvider {
    public enum App { PRK, COLOR }

    private final App app;

    public PannotiaWorkload(App app) {
        super(app == App.PRK ? "pannotia-prk" : "pannotia-color",
                (app == App.PRK ? "model of Pannotia PageRank (pagerank1: per-edge load and compare-and-swap of rank/degree into the neighbour; "
                        + "pagerank2: streaming update)" : "model of Pannotia graph colouring (color: per-edge gather of the neighbour's "
                        + "colour and value and a store to the stop flag; color2: a streaming colour pass)")
                        + ", thread per vertex on a Barabasi-Albert power-law CSR graph (seed 003 §5). Footprint 4 B x (2 nodes + edges) + per-node arrays.",
                List.of(
                        ParamSpec.integer("nodes", 32_768, 64, 1 << 24, "graph vertices"),
                        ParamSpec.integer("edges_per_node", 4, 1, 64, "Barabasi-Albert attachment (mean degree about 2x this)"),
                        ParamSpec.integer("threads", 256, 32, 1024, "work-items per work-group"),
                        ParamSpec.integer("compute", 4, 0, 10_000, "arithmetic cycles per edge"),
                        ParamSpec.integer("iterations", 1, 1, 10_000, "iterations (two kernels each)")));
        this.app = app;
    }

    @Override
    public Workload create(Params p, long seed) {
        int n = p.getInt("nodes"), threads = p.getInt("threads"), compute = p.getInt("compute"), iterations = p.getInt("iterations");
        PowerLawGraph g = new PowerLawGraph(n, p.getInt("edges_per_node"), seed);
        int ctas = (n + threads - 1) / threads;
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("row", 4L * (n + 1), AllocationHint.NONE, true),
                new AllocationSpec("col", 4L * g.edgeCount(), AllocationHint.NONE, true),
                new AllocationSpec(app == App.PRK ? "rank1" : "color", 4L * n, AllocationHint.NONE, false),
                new AllocationSpec(app == App.PRK ? "rank2" : "value", 4L * n, AllocationHint.NONE, app == App.COLOR),
                new AllocationSpec(app == App.PRK ? "unused" : "max", 4L * n, AllocationHint.NONE, false),
                new AllocationSpec("stop", 128, AllocationHint.NONE, false));
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++) {
                ks.add(new SimpleKernel(app == App.PRK ? "pagerank1" : "color", ctas, threads, 0,
                        (cta, warp) -> new EdgeProgram(app, g, b, threads, cta, warp, compute)));
                ks.add(new SimpleKernel(app == App.PRK ? "pagerank2" : "color2", ctas, threads, 0,
                        (cta, warp) -> new VertexProgram(app, b, n, threads, cta, warp)));
            }
            return ks;
        });
    }

    /** pagerank1 / color: row bounds and own data, then per edge k the edge load and the neighbour access. */
    static final class EdgeProgram implements WarpProgram {
        private final App app;
        private final PowerLawGraph g;
        private final long row, col, a, bArr, max, stop;
        private final int first, mask, compute, maxDegree;
        private int phase, k;

        EdgeProgram(App app, PowerLawGraph g, long[] b, int threads, int cta, int warp, int compute) {
            this.app = app;
            this.g = g;
            this.row = b[0];
            this.col = b[1];
            this.a = b[2];
            this.bArr = b[3];
            this.max = b[4];
            this.stop = b[5];
            this.compute = compute;
            this.first = cta * threads + warp * Lanes.W;
            this.mask = Lanes.existing(warp, threads) & Lanes.first(g.nodes() - (long) first);
            int d = 0;
            for (int l = 0; l < Lanes.W; l++) if ((mask & (1 << l)) != 0) d = Math.max(d, g.degree(first + l));
            this.maxDegree = d;
        }

        @Override
        public boolean next(WarpInstruction o) {
            if (mask == 0) return false;
            switch (phase) {
                case 0 -> { vertex(o, Kind.LOAD, row, 0, false); phase = 1; }             // row[v]
                case 1 -> { vertex(o, Kind.LOAD, row, 1, false); phase = 2; }             // row[v+1]
                case 2 -> { vertex(o, Kind.LOAD, a, 0, false); phase = 3; }               // rank1[v] / color[v]
                case 3 -> {
                    if (k == maxDegree) {
                        if (app == App.COLOR) { vertex(o, Kind.STORE, max, 0, true); phase = 5; return true; }
                        return false;
                    }
                    int m = lanesWithEdge();
                    o.memory(Kind.LOAD, 4, m, true); // col[row[v] + k]: needs the row bounds
                    for (int l = 0; l < Lanes.W; l++) o.addresses[l] = col + 4L * (((m >>> l) & 1) != 0 ? g.rowStart(first + l) + k : 0);
                    phase = 4;
                }
                case 4 -> {
                    // PRK's add_float_atomic: load rank2[col], then compare-and-swap it (retries, rare, not modelled);
                    // Color: read color[col] (and value[col] next)
                    neighbour(o, Kind.LOAD, app == App.PRK ? bArr : a, true);
                    phase = app == App.PRK ? 8 : 7;
                }
                case 8 -> { neighbour(o, Kind.ATOMIC, bArr, true); phase = 6; }             // atomic_cmpxchg(rank2[col], ...)
                case 7 -> { neighbour(o, Kind.LOAD, bArr, false); phase = 9; }             // value[col]
                case 9 -> {                                                                 // an uncoloured neighbour: *stop = 1
                    o.memory(Kind.STORE, 4, lanesWithEdge(), false);
                    for (int l = 0; l < Lanes.W; l++) o.addresses[l] = stop;
                    phase = 6;
                }
                case 6 -> { o.compute(Math.max(1, compute), true); k++; phase = 3; }
                default -> { return false; }
            }
            return true;
        }

        /** Each lane with a k-th edge touches its neighbour's element of {@code base}. */
        private void neighbour(WarpInstruction o, Kind kind, long base, boolean wait) {
            int m = lanesWithEdge();
            o.memory(kind, 4, m, wait);
            for (int l = 0; l < Lanes.W; l++) o.addresses[l] = base + 4L * (((m >>> l) & 1) != 0 ? g.edge(g.rowStart(first + l) + k) : 0);
        }

        private int lanesWithEdge() {
            int m = 0;
            for (int l = 0; l < Lanes.W; l++) if ((mask & (1 << l)) != 0 && g.degree(first + l) > k) m |= 1 << l;
            return m;
        }

        private void vertex(WarpInstruction o, Kind kind, long base, int off, boolean wait) {
            o.memory(kind, 4, mask, wait);
            for (int l = 0; l < Lanes.W; l++) o.addresses[l] = base + 4L * (first + l + off);
        }
    }

    /** pagerank2 / color: a coalesced streaming pass over the per-vertex arrays. */
    static final class VertexProgram implements WarpProgram {
        private final App app;
        private final long a, bArr, max;
        private final int first, mask;
        private int phase;

        VertexProgram(App app, long[] b, int n, int threads, int cta, int warp) {
            this.app = app;
            this.a = b[2];
            this.bArr = b[3];
            this.max = b[4];
            this.first = cta * threads + warp * Lanes.W;
            this.mask = Lanes.existing(warp, threads) & Lanes.first(n - (long) first);
        }

        @Override
        public boolean next(WarpInstruction o) {
            if (mask == 0) return false;
            switch (phase++) {
                case 0 -> emit(o, Kind.LOAD, bArr, false);                      // rank2[v] / value[v]
                case 1 -> { // pagerank2 reads rank2 only; color also reads max
                    if (app != App.PRK) emit(o, Kind.LOAD, max, false);
                    else {
                        o.compute(2, true);
                        phase = 3;
                    }
                }
                case 2 -> o.compute(2, true);
                case 3 -> emit(o, Kind.STORE, a, false);                        // rank1[v] / color[v]
                case 4 -> { if (app != App.PRK) return false; emit(o, Kind.STORE, bArr, false); } // rank2[v] = 0
                default -> { return false; }
            }
            return true;
        }

        private void emit(WarpInstruction o, Kind kind, long base, boolean wait) {
            o.memory(kind, 4, mask, wait);
            for (int l = 0; l < Lanes.W; l++) o.addresses[l] = base + 4L * (first + l);
        }
    }
}
