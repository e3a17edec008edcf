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
 * Rodinia kmeans' membership kernel. By default with the point-major feature layout: thread p reads
 * features[p·nf + f], so neighbouring lanes are nf·4 B apart and (for nf >= 32) every warp load
 * touches 32 different lines: no coalescing, 25% line utilisation at best (seed 000 Table 6.1/6.2:
 * kmeans 0.0% coalesced). For each cluster the point's features are re-read (the cluster centres
 * come from constant memory and are not global traffic). The CPU recomputes the centres between
 * iterations (not modelled; seed 001 §4 models that sharing).
 * <p>{@code layout: feature-major} is the OpenCL kernel the FRC thesis ran (Rodinia's {@code kmeans_kernel_c}, given
 * the swapped copy {@code d_feature_swap}): thread p reads {@code feature[f·npoints + p]}, one coalesced line per warp
 * load, and each feature's centre from global memory, {@code clusters[i·nfeatures + f]}, the same word in every lane.
 * The swap kernel that builds the copy runs once before, outside the iterations, and is not modelled.
 */
public final class KmeansWorkload extends BuiltinProvider {
    static final int THREADS = 256;

    public KmeansWorkload() {
        super("kmeans", "model of Rodinia kmeans (membership kernel, point-major layout, i.e. without the feature swap): "
                        + "per thread and cluster a strided scan of its own point's features (stride features x 4 B, no "
                        + "coalescing), distance compute, membership store; several iterations. Centres in constant memory and "
                        + "the CPU centre update are not modelled. Footprint 4 B x points x (features + 1).",
                List.of(
                        ParamSpec.integer("points", 8192, 32, 1 << 24, "points; footprint 4 B x points x (features + 1)"),
                        ParamSpec.integer("features", 34, 1, 4096, "features per point (34 as in kdd_cup); >= 32 gives 32 lines per load"),
                        ParamSpec.integer("clusters", 5, 1, 1024, "clusters (the features are re-read once per cluster)"),
                        ParamSpec.integer("unroll", 4, 1, 64, "feature loads issued before the warp waits (compiler unrolling)"),
                        ParamSpec.integer("iterations", 2, 1, 10_000, "k-means iterations (one kernel each)"),
                        ParamSpec.choice("layout", "point-major", List.of("point-major", "feature-major"),
                                "point-major: features[p*nf + f] (seed 000's uncoalesced kmeans); feature-major: the OpenCL kernel_c on "
                                        + "feature_swap, feature[f*points + p], with the centres read from global memory (seed 003)")));
    }

    @Override
    public Workload create(Params p, long seed) {
        int points = p.getInt("points"), nf = p.getInt("features"), clusters = p.getInt("clusters");
        int unroll = p.getInt("unroll"), iterations = p.getInt("iterations");
        boolean featureMajor = p.getString("layout").equals("feature-major");
        List<AllocationSpec> allocs = new ArrayList<>(List.of(
                new AllocationSpec("features", 4L * points * nf, AllocationHint.NONE, true),
                new AllocationSpec("membership", 4L * points)));
        if (featureMajor) allocs.add(new AllocationSpec("clusters", 4L * clusters * nf, AllocationHint.NONE, true));
        int ctas = (points + THREADS - 1) / THREADS;
        return new SimpleWorkload(name(), allocs, b -> {
            List<Kernel> ks = new ArrayList<>();
            for (int it = 0; it < iterations; it++)
                ks.add(new SimpleKernel("kmeansPoint", ctas, THREADS, 0,
                        (cta, warp) -> new Program(b[0], b[1], featureMajor ? b[2] : -1, points, nf, clusters, unroll, cta, warp)));
            return ks;
        });
    }

    static final class Program implements WarpProgram {
        private final long features, membership, centres;
        private final int points, nf, clusters, unroll, mask;
        private final long first;
        private int cluster, f, pending;
        private boolean stored, centreNext;

        /** @param centres the clusters array read from global memory (feature-major layout), or -1 (point-major) */
        Program(long features, long membership, long centres, int points, int nf, int clusters, int unroll, int cta, int warp) {
            this.features = features;
            this.membership = membership;
            this.centres = centres;
            this.points = points;
            this.nf = nf;
            this.clusters = clusters;
            this.unroll = unroll;
            this.first = (long) cta * THREADS + (long) warp * Lanes.W;
            this.mask = Lanes.first(points - first);
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (mask == 0) return false;
            if (cluster < clusters) {
                if (pending == unroll || (f == nf && pending > 0)) {
                    out.compute(3 * pending, true); // (feature - centre)^2 accumulated per loaded feature
                    pending = 0;
                    if (f == nf) {
                        f = 0;
                        cluster++;
                    }
                    return true;
                }
                out.memory(Kind.LOAD, 4, mask, false);
                if (centres >= 0 && !centreNext) { // feature-major: the feature, then its centre
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = features + 4 * ((long) f * points + first + l);
                    centreNext = true;
                    return true;
                }
                if (centreNext) { // the feature's centre: one word, every lane
                    centreNext = false;
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = centres + 4L * ((long) cluster * nf + f);
                } else {
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = features + 4 * ((first + l) * nf + f);
                }
                f++;
                pending++;
                return true;
            }
            if (!stored) {
                stored = true;
                out.memory(Kind.STORE, 4, mask, true);
                for (int l = 0; l < Lanes.W; l++) out.addresses[l] = membership + 4 * (first + l);
                return true;
            }
            return false;
        }
    }
}
