package org.hmsim.platform.workloads.apu;

import static org.hmsim.platform.workloads.apu.ApuKernel.Pattern.PARTNER;
import static org.hmsim.platform.workloads.apu.ApuKernel.Pattern.RANDOM;
import static org.hmsim.platform.workloads.apu.ApuKernel.Pattern.SEQ;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.HostPhase;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.apu.ApuKernel.Access;

/**
 * Models of seed 001's eleven APU applications (Rodinia and AMD APP SDK on one shared buffer, §5), named
 * {@code apu-<app>}. Each has a CPU initialisation phase, GPU kernels, CPU interaction between kernels
 * and CPU post-processing, chosen to give Table 1's sharing pattern: initialisation-dominated for most,
 * post-processing for nw/srad/matrixmul/bfs, active sharing (a flag page or reduction data the CPU and
 * GPU both touch every iteration) for bfs and kmeans. Sizes are scaled by {@code elements}; these are
 * access-pattern models, not the programs.
 */
public final class ApuApps {
    private ApuApps() {}

    private static final List<WorkloadProvider> ALL;

    static {
        List<WorkloadProvider> out = new ArrayList<>();
        for (App a : App.values()) out.add(new Provider(a));
        ALL = List.copyOf(out);
    }

    /** The eleven providers in the seed's table order. */
    public static List<WorkloadProvider> all() { return ALL; }

    /** The {@code i}-th provider (0..10, the seed's table order). */
    public static WorkloadProvider get(int i) { return ALL.get(i); }

    enum App {
        BFS("bfs", 6, "CPU builds a graph; iterative frontier kernels gather neighbours' costs irregularly and read a stop flag the CPU "
                + "rewrites between kernels (active sharing); the CPU post-processes the cost array"),
        BITONIC("bitonic", 12, "CPU fills the keys; bitonic compare-exchange passes (partner i^j) over them; no CPU interaction"),
        COLORING("coloring", 4, "CPU builds a graph; iterative colouring kernels with irregular neighbour reads; the CPU checks a flag between kernels"),
        HISTOGRAM("histogram", 4, "CPU fills the input; kernels stream it into per-kernel sub-histograms that the CPU zeroes just before each "
                + "launch (pages first touched by the CPU after the first launch) and merges at the end"),
        HOTSPOT("hotspot", 6, "CPU initialises temperature and power grids; ping-pong stencil kernels; a one-page read-back"),
        KMEANS("kmeans", 5, "CPU initialises the points (its row-major copy and the GPU's feature-major copy); per iteration the GPU "
                + "reads every feature of every point and writes the memberships, and the CPU reads the memberships and every point's "
                + "features to recompute the centroids, which it rewrites (active sharing: memberships and centroids)"),
        LUD("lud", 8, "CPU initialises the matrix; a sequence of kernels over a shrinking trailing part; a one-page read-back"),
        MATRIXMUL("matrixmul", 1, "CPU initialises A and B; one tiled GEMM kernel with reuse of A and B; the CPU reads C"),
        NW("nw", 16, "CPU initialises the score matrix and reference; many small diagonal-band kernels; the CPU reads the whole matrix (traceback)"),
        REDUCTION("reduction", 1, "CPU fills the input; a tree reduction writes partial sums; the CPU sums the partials"),
        SRAD("srad", 4, "CPU initialises the image; two stencil kernels per iteration; the CPU reads the result");

        final String app;
        final int iterations;
        final String doc;

        App(String app, int iterations, String doc) {
            this.app = app;
            this.iterations = iterations;
            this.doc = doc;
        }
    }

    static final class Provider extends BuiltinProvider {
        private final App app;

        Provider(App app) {
            super("apu-" + app.app, "model of seed 001's " + app.app + " on an APU with CPU phases: " + app.doc
                            + ". Words of 4 B; 'elements' sets the main arrays' length.",
                    withExtras(List.of(ParamSpec.integer("elements", 65_536, 1024, 1 << 26, "words in each main array (4 B each)"),
                            ParamSpec.integer("iterations", app.iterations, 1, 4096, "kernel iterations (the app's loop count)"),
                            ParamSpec.integer("ctas", 128, 1, 1 << 20, "CTAs per kernel"),
                            ParamSpec.integer("threads", 256, 32, 1024, "threads per CTA"),
                            ParamSpec.integer("compute", 4, 0, 10_000, "arithmetic cycles per element"),
                            ParamSpec.integer("cpu_stride", 16, 4, 4096, "bytes between consecutive CPU accesses in host phases (16 = one 128-bit vector store)"),
                            ParamSpec.integer("cpu_compute", 1, 0, 10_000, "CPU cycles of work between host accesses")), app));
            this.app = app;
        }

        /** The app's own parameters after the common ones: kmeans's feature count. */
        private static List<ParamSpec> withExtras(List<ParamSpec> common, App app) {
            if (app != App.KMEANS) return common;
            List<ParamSpec> all = new ArrayList<>(common);
            // 34 features per point make each point 136 B in two copies: a quarter of the common default
            // keeps the default footprint a few MB, like the other models'.
            all.replaceAll(s -> s.name().equals("elements")
                    ? ParamSpec.integer("elements", 16_384, 1024, 1 << 26, "points (each 'features' words, in two copies)") : s);
            all.add(ParamSpec.integer("features", 34, 1, 1024,
                    "features per point ('elements' = points); Rodinia's kmeans inputs (kdd_cup, 204800, 819200) have 34"));
            return List.copyOf(all);
        }

        @Override
        public Workload create(Params p, long seed) {
            Shape s = new Shape(p);
            return new ApuWorkload(name(), s.allocations(app), (base, k, ph) -> s.plan(app, base, k, ph));
        }
    }

    /** The concrete arrays, kernels and phases of one app at one size. */
    static final class Shape {
        final long n;
        final int it, ctas, threads, compute, stride, cpuCompute, features;

        Shape(Params p) {
            n = p.getInt("elements");
            it = p.getInt("iterations");
            ctas = p.getInt("ctas");
            threads = p.getInt("threads");
            compute = p.getInt("compute");
            stride = p.getInt("cpu_stride");
            cpuCompute = p.getInt("cpu_compute");
            features = p.asMap().containsKey("features") ? p.getInt("features") : 1;
        }

        List<AllocationSpec> allocations(App app) {
            long w = 4 * n;
            return switch (app) {
                case BFS -> List.of(a("edges", w), a("cost", w), a("frontier", w), a("flag", 4096));
                case BITONIC -> List.of(a("keys", w));
                case COLORING -> List.of(a("edges", w), a("colors", w), a("flag", 4096));
                case HISTOGRAM -> List.of(a("input", w), a("sub", Math.max(4096L * it, w / 16)));
                case HOTSPOT -> List.of(a("temp", w), a("power", w), a("temp2", w));
                case KMEANS -> List.of(a("feature", features * w), a("feature_swap", features * w), a("membership", w), a("centroids", 4096));
                case LUD -> List.of(a("matrix", w));
                case MATRIXMUL -> List.of(a("A", w), a("B", w), a("C", w));
                case NW -> List.of(a("score", w), a("reference", w));
                case REDUCTION -> List.of(a("input", w), a("partials", Math.max(4096, w / 256)));
                case SRAD -> List.of(a("J", w), a("c", w));
            };
        }

        private static AllocationSpec a(String name, long bytes) { return new AllocationSpec(name, bytes); }

        void plan(App app, long[] b, List<Kernel> k, List<HostPhase> ph) {
            long w = 4 * n;
            switch (app) {
                case BFS -> {
                    init(ph, b[0], w, b[1], w, b[2], w, b[3], 4096);
                    for (int i = 0; i < it; i++) {
                        k.add(kernel("bfs_expand", 0, n, List.of(seq(b[0], n), rnd(b[1], n, i), seq(b[3], 1)), rnd(b[1], n, i + 1000)));
                        if (i > 0) ph.add(phase(i, "stop_flag", write(b[3], 64)));
                    }
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "read_cost", read(b[1], w)));
                }
                case BITONIC -> {
                    init(ph, b[0], w);
                    int log = 63 - Long.numberOfLeadingZeros(n);
                    for (int i = 0; i < it; i++) {
                        long j = 1L << (log - 1 - (i % log));
                        k.add(kernel("bitonic_pass", 0, n, List.of(seq(b[0], n), new Access(b[0], n, PARTNER, j)), seq(b[0], n)));
                    }
                }
                case COLORING -> {
                    init(ph, b[0], w, b[1], w, b[2], 4096);
                    for (int i = 0; i < it; i++) {
                        k.add(kernel("color", 0, n, List.of(seq(b[0], n), rnd(b[1], n, i), seq(b[2], 1)), seq(b[1], n)));
                        if (i > 0) ph.add(phase(i, "check_flag", read(b[2], 64)));
                    }
                }
                case HISTOGRAM -> {
                    long sub = Math.max(4096L * it, w / 16) / it;
                    init(ph, b[0], w, b[1], sub);
                    for (int i = 0; i < it; i++) {
                        k.add(kernel("histogram", 0, n, List.of(seq(b[0], n)), rnd(b[1] + i * sub, sub / 4, i)));
                        if (i > 0) ph.add(phase(i, "zero_sub", write(b[1] + i * sub, sub)));
                    }
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "merge", read(b[1], sub * it)));
                }
                case HOTSPOT -> {
                    init(ph, b[0], w, b[1], w);
                    for (int i = 0; i < it; i++) {
                        long src = i % 2 == 0 ? b[0] : b[2], dst = i % 2 == 0 ? b[2] : b[0];
                        k.add(kernel("hotspot", 0, n, List.of(seq(src, n), seq(b[1], n)), seq(dst, n)));
                    }
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "read_back", read(it % 2 == 0 ? b[0] : b[2], 4096)));
                }
                case KMEANS -> {
                    // Rodinia's OpenCL kmeans: the kernel reads all features of its point from the feature-major
                    // copy (feature l of point i at l * points + i, coalesced) and the centroids, and writes the
                    // point's membership; after each kernel the CPU walks the points, reading the membership and
                    // the point's features from its row-major copy to sum the new centroids, then rewrites them.
                    // Rodinia builds the feature-major copy with a GPU swap kernel that reads the CPU's copy; here
                    // the CPU builds it during initialisation, because a GPU read of the CPU's copy would make each
                    // of its pages fault once at the first reduction, and Table 3's 617 kmeans faults (kept under
                    // SAHC-A, i.e. all from active sharing) leave no room for that.
                    init(ph, b[0], features * w, b[1], features * w, b[3], 4096);
                    List<Access> loads = new ArrayList<>();
                    for (int f = 0; f < features; f++) loads.add(seq(b[1] + f * w, n));
                    loads.add(seq(b[3], 1024));
                    for (int i = 0; i < it; i++) {
                        k.add(kernel("kmeans_assign", 0, n, loads, seq(b[2], n)));
                        ph.add(phase(i + 1 < it ? i + 1 : HostPhase.AFTER_LAST_KERNEL, i + 1 < it ? "recompute_centroids" : "final_centroids",
                                read(b[2], w), read(b[0], features * w), write(b[3], 4096)));
                    }
                }
                case LUD -> {
                    init(ph, b[0], w);
                    for (int i = 0; i < it; i++) {
                        long first = i * n / (2L * it);
                        k.add(kernel(i % 2 == 0 ? "lud_perimeter" : "lud_internal", first, n - first, List.of(seq(b[0], n)), seq(b[0], n)));
                    }
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "read_back", read(b[0], 4096)));
                }
                case MATRIXMUL -> {
                    init(ph, b[0], w, b[1], w);
                    for (int i = 0; i < it; i++)
                        k.add(kernel("gemm", 0, 4 * n, List.of(seq(b[0], n), new Access(b[1], n, PARTNER, 32 * 31)), seq(b[2], n)));
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "read_C", read(b[2], w)));
                }
                case NW -> {
                    init(ph, b[0], w, b[1], w);
                    for (int i = 0; i < it; i++) {
                        long first = i * n / it;
                        k.add(kernel("nw_band", first, n / it, List.of(seq(b[1], n), seq(b[0], n)), seq(b[0], n)));
                    }
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "traceback", read(b[0], w)));
                }
                case REDUCTION -> {
                    long parts = Math.max(1024, n / 256);
                    init(ph, b[0], w);
                    for (int i = 0; i < it; i++) k.add(kernel("reduce", 0, n, List.of(seq(b[0], n)), seq(b[1], parts)));
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "sum_partials", read(b[1], 4 * parts)));
                }
                case SRAD -> {
                    init(ph, b[0], w);
                    for (int i = 0; i < it; i++) {
                        k.add(kernel("srad_1", 0, n, List.of(seq(b[0], n)), seq(b[1], n)));
                        k.add(kernel("srad_2", 0, n, List.of(seq(b[0], n), seq(b[1], n)), seq(b[0], n)));
                    }
                    ph.add(phase(HostPhase.AFTER_LAST_KERNEL, "read_result", read(b[0], w)));
                }
            }
        }

        private Kernel kernel(String name, long first, long count, List<Access> loads, Access store) {
            return ApuKernel.of(name, ctas, threads, first, count, loads, store, compute);
        }

        private static Access seq(long base, long words) { return new Access(base, words, SEQ, 0); }

        private static Access rnd(long base, long words, long salt) { return new Access(base, words, RANDOM, salt); }

        private HostPhase.Stream write(long base, long bytes) { return new HostPhase.Stream(base, bytes, Math.min(stride, (int) bytes), true); }

        private HostPhase.Stream read(long base, long bytes) { return new HostPhase.Stream(base, bytes, Math.min(stride, (int) bytes), false); }

        private HostPhase phase(int beforeKernel, String name, HostPhase.Stream... streams) {
            return new HostPhase(beforeKernel, name, List.of(streams), cpuCompute);
        }

        /** CPU initialisation: writes each (base, bytes) pair before the first kernel. */
        private void init(List<HostPhase> ph, long... baseBytes) {
            List<HostPhase.Stream> s = new ArrayList<>();
            for (int i = 0; i < baseBytes.length; i += 2) s.add(write(baseBytes[i], baseBytes[i + 1]));
            ph.add(new HostPhase(0, "init", s, cpuCompute));
        }
    }
}
