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
 * The README's FRC investigation numbers (not a check: does nothing unless asked):
 * {@code mvn -q -B -o verify -pl bundles/frc -Dtest=FrcExploreTest -Dexplore=index|fa|scale|percu|graph}.
 */
class FrcExploreTest {
    @Test
    void explore() {
        String what = System.getProperty("explore", "");
        Assumptions.assumeFalse(what.isEmpty(), "an exploration run by hand: -Dexplore=index|fa|scale|percu");
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
}
