package org.hmsim.platform.workloads;

import java.util.HashMap;
import java.util.Map;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.Workload;
import org.hmsim.api.workload.WorkloadProvider;

/** Small configurations of the built-ins for tests. */
public final class TestSupport {
    private TestSupport() {}

    public static Map<String, Object> small(String name) {
        Map<String, Object> m = new HashMap<>();
        switch (name) {
            case "stream" -> { m.put("elements", 10_000); m.put("ctas", 8); m.put("threads", 96); m.put("unroll", 3); }
            case "hotspot" -> { m.put("rows", 50); m.put("cols", 70); m.put("pyramid", 2); m.put("iterations", 2); }
            case "srad" -> { m.put("rows", 40); m.put("cols", 50); m.put("iterations", 2); }
            case "sgemm" -> m.put("n", 48);
            case "spmv" -> { m.put("rows", 500); m.put("nnz", 40); m.put("band", 64); }
            case "minife" -> { m.put("n", 6); m.put("iterations", 2); }
            case "bfs" -> { m.put("nodes", 3000); m.put("degree", 6); }
            case "kmeans" -> { m.put("points", 1000); m.put("features", 34); m.put("clusters", 3); }
            case "needle" -> m.put("n", 64);
            case "btree" -> { m.put("keys", 5000); m.put("order", 16); m.put("queries", 40); }
            case "pointer-chase" -> { m.put("footprint", 64 * 1024); m.put("hops", 600); m.put("warps", 3); m.put("chains", 4); }
            case "sdk-mersenne-twister" -> m.put("seeds", 2048);
            case "sdk-black-scholes" -> m.put("work_items", 2048);
            case "sdk-reduction" -> m.put("elements", 1 << 14);
            case "sdk-dwt-haar1d" -> m.put("length", 4096);
            case "sdk-dct" -> { m.put("width", 64); m.put("height", 32); }
            default -> { }
        }
        return m;
    }

    public static Workload create(WorkloadProvider p, Map<String, Object> params, long seed) {
        return p.create(Params.validate(p.parameters(), params), seed);
    }

    public static Workload small(WorkloadProvider p, long seed) { return create(p, small(p.name()), seed); }
}
