package org.hmsim.frc;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The FRC investigation numbers of docs/mechanisms/frc.md (not a check: does nothing unless asked):
 * {@code mvn -q -B -o verify -pl bundles/frc -Dtest=FrcExploreTest -Dexplore=index|fa|scale|percu|graph|shape}.
 */
class FrcExploreTest {
    @Test
    void explore() {
        String what = System.getProperty("explore", "");
        Assumptions.assumeFalse(what.isEmpty(), "an exploration run by hand: -Dexplore=index|fa|scale|percu|graph|shape");
        MachineConfig small = FrcChecksTest.SMALL;
        Workload w = FrcChecksTest.stream();
        List<String> labels = new ArrayList<>();
        List<Supplier<RunResult>> runs = new ArrayList<>();
        if (what.contains("index")) {
            labels.add("conventional"); runs.add(() -> Sim.conventional().run(small, w));
            for (int e : new int[] {4, 16, 64, 512})
                for (String idx : new String[] {"line", "bank"})
                    for (boolean ms : new boolean[] {false, true}) {
                        labels.add("frc" + e + " " + idx + (ms ? " +mshr" : ""));
                        runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", e, "index", idx, "mshr", ms).run(small, w));
                    }
        }
        if (what.contains("fa")) {
            MachineConfig fa = Sim.machine("frc-rx540", "gpu.l2.size", "64KB", "gpu.l2.ways", 0);
            labels.add("conventional"); runs.add(() -> Sim.conventional().run(small, w));
            labels.add("FA"); runs.add(() -> Sim.conventional().run(fa, w));
            labels.add("VC unb"); runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "victim-cache").run(small, w));
            labels.add("FA+VC unb"); runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "victim-cache").run(fa, w));
            labels.add("frc 512"); runs.add(() -> Sim.frc(512).run(small, w));
            labels.add("frc unb (4096 FA)"); runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", 4096, "ways", 0).run(small, w));
        }
        if (what.contains("scale")) {
            Workload big = Sim.workload("stream", "elements", 262144, "ctas", 64, "threads", 128, "unroll", 4, "compute", 20);
            for (String preset : new String[] {"frc-rx540", "frc-rx570", "frc-vega64"}) {
                MachineConfig m = Sim.machine(preset, "gpu.l2.size", System.getProperty("l2", "64KB"));
                labels.add(preset + " conv"); runs.add(() -> Sim.conventional().run(m, big));
                labels.add(preset + " frc64 bank"); runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", 64, "index", "bank").run(m, big));
                labels.add(preset + " frc512 line"); runs.add(() -> Sim.frc(512).run(m, big));
                labels.add(preset + " frc512 bank"); runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", 512, "index", "bank").run(m, big));
            }
        }
        if (what.contains("percu")) { // the same work per CU on every preset
            for (String preset : new String[] {"frc-rx540", "frc-rx570", "frc-vega64"}) {
                MachineConfig m = Sim.machine(preset, "gpu.l2.size", System.getProperty("l2", "64KB"));
                int sms = m.gpu().sms();
                Workload big = Sim.workload("stream", "elements", 32768 * sms, "ctas", 8 * sms, "threads", 128, "unroll", 4, "compute", 20);
                labels.add(preset + " conv"); runs.add(() -> Sim.conventional().run(m, big));
                labels.add(preset + " frc512 line"); runs.add(() -> Sim.frc(512).run(m, big));
                labels.add(preset + " frc512 bank"); runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", 512, "index", "bank").run(m, big));
                labels.add(preset + " 4x L2"); runs.add(() -> Sim.conventional().run(Sim.machine(preset, "gpu.l2.size", "256KB"), big));
            }
        }
        if (what.contains("graph")) { // Pannotia at a size whose per-vertex arrays exceed the full-size RX540 L2 (-Dnodes=...)
            MachineConfig m = Sim.machine("frc-rx540");
            int nodes = Integer.getInteger("nodes", 262_144), iters = Integer.getInteger("iterations", 2);
            for (String app : new String[] {"pannotia-prk", "pannotia-color"}) {
                Workload g = Sim.workload(app, "nodes", nodes, "iterations", iters);
                labels.add(app + " conv"); runs.add(() -> Sim.conventional().run(m, g));
                labels.add(app + " frc 4"); runs.add(() -> Sim.frc(4).run(m, g));
                labels.add(app + " frc 64"); runs.add(() -> Sim.frc(64).run(m, g));
                labels.add(app + " frc 512"); runs.add(() -> Sim.frc(512).run(m, g));
                labels.add(app + " 2x L2"); runs.add(() -> Sim.conventional().run(Sim.machine("frc-rx540", "gpu.l2.size", "512KB"), g));
            }
        }
        if (what.contains("shape")) {
            shape();
            return;
        }
        if (what.contains("keys")) {
            RunResult x = Sim.conventional().run(small, w);
            x.stats().forEach((k, v) -> { if (k.matches(".*(xbar|pool|dram|gddr).*(packets|bytes|reads|writes).*") || k.contains("slice0.fetch") || k.contains("slice0.writeback")) System.out.println("key " + k + " = " + v); });
            System.out.println("key memoryRequests " + x.memoryRequests() + " metrics " + x.metrics().keySet());
            return;
        }
        RunResult[] r = new RunResult[runs.size()];
        for (int i = 0; i < r.length; i += 2) {
            RunResult[] p = i + 1 < r.length ? Sim.parallel(runs.get(i), runs.get(i + 1)) : new RunResult[] {runs.get(i).get()};
            System.arraycopy(p, 0, r, i, p.length);
        }
        FrcChecksTest.print("explore", labels.toArray(new String[0]), r);
    }

    /**
     * The thesis's shape under parameters it leaves open (docs/mechanisms/frc.md, "Shape search"): every point of
     * {@code -Dpoints} (conv, frc4, frc16, frc64, frc512, 2x, 4x, fa) on every workload of {@code -Dwl} and every
     * preset of {@code -Dpresets}, with machine overrides {@code -Dover="gpu.l2.mshrs=32;gpu.l1.mshrs=16"}, the FRC's
     * {@code -Dmshr=true|false} and {@code -Dindex=line|bank}; runs one at a time (the machine is shared).
     * Workloads: stream64k (the checks' read-modify-write stream on 64 KB banks; with -Dpercu=true 32 Ki
     * elements and 8 CTAs per CU), stream (the study's, full size; with -Dpercu=true 64 Ki elements and 8 CTAs per
     * CU, the study's on the RX540), fast-walsh, matrix-transpose, kmeans,
     * pannotia-prk, pannotia-color (the study's sizes; prk at the colouring's), sdk-mersenne-twister,
     * sdk-dwt-haar1d, sdk-black-scholes, sdk-reduction, sdk-dct (their defaults; {@code -Dsdk="seeds=65536;mul_factor=8"} overrides).
     */
    static void shape() {
        String[] presets = System.getProperty("presets", "frc-rx540").split(",");
        String[] wls = System.getProperty("wl", "stream64k").split(",");
        String[] points = System.getProperty("points", "conv,frc4,frc16,frc64,frc512,2x").split(",");
        String idx = System.getProperty("index", "line");
        for (String ovr : System.getProperty("over", "").split("\\|", -1))
            for (String msv : System.getProperty("mshr", "false").split(","))
                shape(presets, wls, points, ovr, Boolean.parseBoolean(msv), idx, Boolean.getBoolean("percu"));
    }

    static void shape(String[] presets, String[] wls, String[] points, String ovr, boolean ms, String idx, boolean percu) {
        List<Object> over = new ArrayList<>();
        for (String kv : ovr.split(";")) {
            if (kv.isBlank()) continue;
            String[] a = kv.split("=", 2);
            over.add(a[0].trim());
            over.add(a[1].trim().matches("-?\\d+") ? (Object) Integer.valueOf(a[1].trim()) : a[1].trim());
        }
        System.out.printf("shape: over=[%s] mshr=%s index=%s percu=%s%n", ovr, ms, idx, percu);
        for (String preset : presets)
            for (String wl : wls) {
                boolean small = wl.equals("stream64k");
                int base = small ? 64 : 256;
                MachineConfig m0 = machine(preset, over, base, -1);
                int sms = m0.gpu().sms();
                Workload w = switch (wl) {
                    case "stream64k" -> percu ? Sim.workload("stream", "elements", 32768 * sms, "ctas", 8 * sms, "threads", 128, "unroll", 4, "compute", 20)
                            : FrcChecksTest.stream();
                    case "stream" -> Sim.workload("stream", "elements", percu ? 65536 * sms : 524288, "ctas", percu ? 8 * sms : 64, "threads", 128, "unroll", 4, "compute", 20);
                    case "fast-walsh" -> { // -Dfwt=length (default the study's 131072); with -Dpercu=true scaled by CUs / 8
                        int len = Integer.getInteger("fwt", 131072) * (percu ? sms / 8 : 1);
                        yield Sim.workload("fast-walsh", "length", len, "min_step", len / 32);
                    }
                    case "matrix-transpose" -> Sim.workload("matrix-transpose", "width", 512, "height", 512);
                    case "kmeans" -> Sim.workload("kmeans", "points", 4096, "iterations", 1);
                    case "pannotia-color", "pannotia-prk" -> Sim.workload(wl, "nodes", 8192);
                    // AMD APP SDK kernel models at their defaults (-Dsdk=name=value;... overrides, e.g. -Dsdk=seeds=65536)
                    case "sdk-mersenne-twister", "sdk-dwt-haar1d", "sdk-black-scholes", "sdk-reduction", "sdk-dct" -> {
                        List<Object> kv = new ArrayList<>();
                        for (String a : System.getProperty("sdk", "").split(";")) {
                            if (a.isBlank()) continue;
                            String[] x = a.split("=", 2);
                            kv.add(x[0].trim());
                            kv.add(Integer.valueOf(x[1].trim()));
                        }
                        yield Sim.workload(wl, kv.toArray());
                    }
                    default -> throw new IllegalArgumentException("workload " + wl);
                };
                double conv = 0;
                for (String pt : points) {
                    Sim sim = pt.startsWith("frc") ? new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", Integer.parseInt(pt.substring(3)), "index", idx, "mshr", ms)
                            : Sim.conventional();
                    MachineConfig m = switch (pt) {
                        case "2x" -> machine(preset, over, 2 * base, -1);
                        case "4x" -> machine(preset, over, 4 * base, -1);
                        case "fa" -> machine(preset, over, base, 0);
                        default -> m0;
                    };
                    long t0 = System.nanoTime();
                    RunResult r = sim.run(m, w);
                    double opc = FrcChecksTest.opc(r);
                    if (pt.equals("conv")) conv = opc;
                    int sl = m.gpu().l2Slices();
                    double dram = 0;
                    for (var e : r.metrics().entrySet()) if (e.getKey().startsWith("pool.") && e.getKey().endsWith(".utilisation")) dram = e.getValue();
                    System.out.printf("shape| %-44s | %-5s | %-10s | %-16s | %-7s | OPC %7.2f | %+6.1f %% | MPKO %6.2f | nacks %8.0f | dram %.2f | mlp %5.1f | evict %5.1f ns | setstall %6.0f | frc %.2f | %4.1f s%n",
                            ovr, ms, preset, wl, pt, opc, conv > 0 ? 100 * (opc / conv - 1) : 0, FrcChecksTest.mpko(r), sum(r, sl, "nacks"), dram,
                            sum(r, sl, "mlp") / sl, sum(r, sl, "evict_latency_ps") / 1000 / Math.max(1, sum(r, sl, "misses")),
                            sum(r, sl, "set_locked_stalls"), sum(r, sl, "frc_misses") / Math.max(1, sum(r, sl, "misses")), (System.nanoTime() - t0) / 1e9);
                }
            }
    }

    static MachineConfig machine(String preset, List<Object> over, int l2Kb, int ways) {
        List<Object> o = new ArrayList<>(over);
        o.add("gpu.l2.size");
        o.add(l2Kb + "KB");
        if (ways >= 0) {
            o.add("gpu.l2.ways");
            o.add(ways);
        }
        return Sim.machine(preset, o.toArray());
    }

    static double sum(RunResult r, int slices, String name) {
        double v = 0;
        for (int s = 0; s < slices; s++) v += r.stats().getOrDefault("gpu0.l2.slice" + s + "." + name, 0.0);
        return v;
    }
}
