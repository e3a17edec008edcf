package org.hmsim.selectivecaching;

import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** Prints the ladder for a few workloads (run by hand: -Dtest=Explore -Dexplore=true). */
class Explore {
    @Test
    void ladder() {
        Assumptions.assumeTrue(Boolean.getBoolean("explore"), "an exploration run by hand: -Dtest=Explore -Dexplore=true");
        MachineConfig m = Ch6.machine();
        String[] ws = System.getProperty("ws", "kmeans,btree,srad").split(",");
        for (String wn : ws) {
            String[] parts = wn.split(":");
            Object[] kvs = new Object[2 * (parts.length - 1)];
            for (int i = 1; i < parts.length; i++) {
                String[] kv = parts[i].split("=");
                kvs[2 * (i - 1)] = kv[0];
                kvs[2 * (i - 1) + 1] = kv[1].matches("-?\\d+") ? (Object) Integer.parseInt(kv[1]) : kv[1];
            }
            Workload w = Ch6.workload(parts[0], kvs);
            double base = 0;
            for (String step : System.getProperty("steps", String.join(",", Ch6.LADDER)).split(",")) {
                long t0 = System.nanoTime();
                RunResult r = Ch6.run(m, Ch6.workload(parts[0], kvs), step);
                double ns = r.simTimeNs();
                if (step.equals("hw-cc")) base = ns;
                double l1req = Ch6.sum(r, "gpu0.", "l1.uncached_requests"), l1m = Ch6.sum(r, "gpu0.", "l1.uncached_merges");
                double l2m = Ch6.sum(r, "gpu0.", "uncached_merges") - l1m;
                double fetched = Ch6.sum(r, "gpu0.", "l1.uncached_fetched_sectors"), used = Ch6.sum(r, "gpu0.", "l1.uncached_used_sectors");
                System.out.printf("%-12s %-14s %10.0f ns  perf %.3f  coalL1 %.3f coalL1+L2 %.3f util %.3f  link %s  cc %s faults %s  wall %d ms%n",
                        parts[0], step, ns, base / ns, l1req == 0 ? 0 : l1m / l1req, l1req == 0 ? 0 : (l1m + l2m) / l1req,
                        fetched == 0 ? 0 : used / fetched, linkInfo(r), Ch6.sum(r, "cpu_mc.", "client_cache_hit_rate"),
                        Ch6.sum(r, "policy.", "gpu_faults"), (System.nanoTime() - t0) / 1_000_000);
            }
        }
    }

    /** Dumps statistics matching -Dstats (regex), per-unit names collapsed (digits removed) and summed. */
    @Test
    void dump() {
        Assumptions.assumeTrue(System.getProperty("stats") != null, "an exploration run by hand: -Dtest=Explore#dump -Dstats=REGEX");
        MachineConfig m = Ch6.machine();
        String[] parts = System.getProperty("ws", "kmeans").split(":");
        Object[] kvs = new Object[2 * (parts.length - 1)];
        for (int i = 1; i < parts.length; i++) {
            String[] kv = parts[i].split("=");
            kvs[2 * (i - 1)] = kv[0];
            kvs[2 * (i - 1) + 1] = kv[1].matches("-?\\d+") ? (Object) Integer.parseInt(kv[1]) : kv[1];
        }
        for (String step : System.getProperty("steps", "l1+l2").split(",")) {
            RunResult r = Ch6.run(m, Ch6.workload(parts[0], kvs), step);
            java.util.Map<String, Double> agg = new java.util.TreeMap<>();
            java.util.Map<String, Integer> n = new java.util.TreeMap<>();
            for (java.util.Map.Entry<String, Double> e : r.stats().entrySet()) {
                if (!e.getKey().matches(System.getProperty("stats"))) continue;
                String k = e.getKey().replaceAll("\\d+", "#");
                agg.merge(k, e.getValue(), Double::sum);
                n.merge(k, 1, Integer::sum);
            }
            System.out.printf("== %s %s %.0f ns%n", parts[0], step, r.simTimeNs());
            agg.forEach((k, v) -> System.out.printf("   %-60s sum %.4g  mean %.4g%n", k, v, v / n.get(k)));
        }
    }

    static String linkInfo(RunResult r) {
        double wire = Ch6.sum(r, "link.", "wire_bytes_up") + Ch6.sum(r, "link.", "wire_bytes_down");
        double up = Ch6.sum(r, "link.", "wire_bytes_up"), pay = Ch6.sum(r, "link.", "payload_bytes_up");
        return String.format("%.2fMB resp-eff %.2f ddr %.2fMB", wire / 1e6, up == 0 ? 0 : pay / up, Ch6.stat(r, "pool.ddr.bytes") / 1e6);
    }
}
