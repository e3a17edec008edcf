package org.hmsim.platform.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A results folder written by hand in the layout of README "Results": 2 workloads x placement {local,
 * interleave} x pools.ddr.bandwidth {40GB/s, 80GB/s}, one failed run, time series (runs 1, 2) with a swap.
 * sim_time_ns = base(workload) x factor(placement) / (bandwidth/40), so every ratio is known exactly.
 */
final class Synthetic {
    private Synthetic() {}

    static final String HEAD = "run,status,workload,machine,slot.placement,slot.replacement,pools.ddr.bandwidth,seed,"
            + "sim_time_ns,ipc,l1_hit_rate,pool.gddr.bytes,pool.gddr.bandwidth_gbps,pool.ddr.bytes,pool.ddr.bandwidth_gbps";

    static double time(String workload, String placement, int bw) {
        return (workload.equals("stream") ? 1000.0 : 4000.0) * (placement.equals("local") ? 1.0 : 2.0) / (bw / 40.0);
    }

    static Path folder(Path dir, String reportYamlAsJson) throws IOException {
        return folder(dir, reportYamlAsJson, 1.0);
    }

    /** @param scale multiplies stream's sim_time_ns (compare tests move one workload) */
    static Path folder(Path dir, String reportJson, double scale) throws IOException {
        List<String> lines = new ArrayList<>(List.of(HEAD));
        int id = 0;
        for (String w : List.of("stream", "\"bfs(nodes=64,x=1)\"")) {
            String wl = w.replace("\"", "");
            for (String p : List.of("local", "interleave"))
                for (int bw : new int[] {40, 80}) {
                    id++;
                    String run = String.format(Locale.ROOT, "%04d", id);
                    Path rd = Files.createDirectories(dir.resolve("runs").resolve(run));
                    if (id == 8) {
                        lines.add(run + ",failed," + w + ",small," + p + ",lru," + bw + "GB/s,1,,,,,,,");
                        Files.writeString(rd.resolve("error.txt"), "run 0008 failed:\njava.lang.IllegalStateException: MSHR <overflow> & co\n\tat Foo.bar(Foo.java:1)\n");
                        continue;
                    }
                    double t = time(wl, p, bw) * (wl.equals("stream") ? scale : 1);
                    double gddr = p.equals("local") ? 1e6 : 5e5, ddr = 1e6 - gddr;
                    lines.add(String.join(",", run, "ok", w, "small", p, "lru", bw + "GB/s", "1", Double.toString(t), Double.toString(1000 / t),
                            "0.5", Double.toString(gddr), Double.toString(gddr / t), Double.toString(ddr), Double.toString(ddr / t)));
                    StringBuilder ts = new StringBuilder("time_ns,series.gddr.bytes,series.ddr.bytes,series.gpu0-cpu.wire_bytes,series.gpu0.l1_hits,series.gpu0.l1_misses,series.gpu0.l2_hits,series.gpu0.l2_misses\n");
                    for (int e = 1; e <= 5; e++)
                        ts.append(e * 100).append(',').append(e * 1000).append(',').append(e * 500).append(',').append(e * 600).append(',')
                                .append(e * 10).append(',').append(e * 30).append(',').append(e * 5).append(',').append(e * 25).append('\n');
                    if (id <= 2) Files.writeString(rd.resolve("timeseries.csv"), ts); // 2 time series keep the tests fast
                    Files.writeString(rd.resolve("stats.json"), "{}");
                    if (id == 1) Files.writeString(rd.resolve("swaps.csv"), "sim_time_ns,wall_time,slot,from,to\n250,2026-01-01T00:00:00Z,placement,local,interleave\n");
                }
        }
        Files.writeString(dir.resolve("runs.csv"), String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("study.json"), "{\"study\":\"synthetic\",\"study_file\":\"s.yaml\",\"study_sha256\":\"abc123\","
                + "\"hmsim_version\":\"9.9.9\",\"java_version\":\"17\",\"seeds\":[1],\"runs\":8,\"shape\":\"1 machine x 2 workloads x 4 sweep points x 1 seed = 8 runs\","
                + "\"bundles\":[{\"symbolic_name\":\"org.hmsim.kernel\",\"version\":\"0.1.0\"},{\"symbolic_name\":\"org.hmsim.api\",\"version\":\"1.1.0\"}],"
                + "\"swaps\":[],\"report\":" + (reportJson == null ? "[]" : reportJson) + ",\"status\":\"finished\"}", StandardCharsets.UTF_8);
        return dir;
    }
}
