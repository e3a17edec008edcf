package org.hmsim.bwaware;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class ExploreTest {
    @Test
    void explore() {
        Assumptions.assumeTrue(System.getProperty("x.wl") != null);
        List<Object> ov = new ArrayList<>();
        for (String kv : System.getProperty("x.ov", "").split(";")) {
            if (kv.isBlank()) continue;
            String[] p = kv.split("=");
            Object v = p[1].matches("\\d+") ? (Object) Integer.parseInt(p[1]) : p[1];
            ov.add(p[0]); ov.add(v);
        }
        MachineConfig m = Sim.machine("agarwal-ch4", ov.toArray());
        List<Object> wp = new ArrayList<>();
        for (String kv : System.getProperty("x.wp", "").split(";")) {
            if (kv.isBlank()) continue;
            String[] p = kv.split("=");
            wp.add(p[0]); wp.add(System.getProperty("x.wl").startsWith("file:") ? (Object) Long.parseLong(p[1]) : (Object) Integer.parseInt(p[1]));
        }
        for (String pl : System.getProperty("x.pl", "bw-aware,oracle,hints,local").split(",")) {
            long t0 = System.nanoTime();
            String[] sp = pl.split(":");
            List<Object> pp = new ArrayList<>();
            for (int q = 1; q < sp.length; q++) { String[] kv = sp[q].split("="); pp.add(kv[0]); pp.add(kv[1].matches("[0-9]+") ? (Object) Integer.parseInt(kv[1]) : kv[1].matches("[0-9.]+") ? (Object) Double.parseDouble(kv[1]) : kv[1]); }
            Sim sim = Sim.placement(sp[0], pp.toArray());
            String mig = System.getProperty("x.mig");
            if (sp[0].startsWith("M")) {
                sim = Sim.placement("ddr-only").with(org.hmsim.api.policy.Slot.MIGRATION, sp[0].substring(1), pp.toArray());
            }
            RunResult r = sim.run(m, (System.getProperty("x.wl").startsWith("file:") ? Sim.file(System.getProperty("x.wl").substring(5), wp.toArray()) : Sim.workload(System.getProperty("x.wl"), wp.toArray())));
            var mt = r.metrics();
            System.out.printf("%-9s %9.0f ns  gddr %.0f B %.0f pages, ddr %.0f B %.0f pages, share %.3f, l1 %.3f l2 %.3f  [%.1f s]%n", pl, r.simTimeNs(),
                    mt.get("pool.gddr.bytes"), mt.get("pool.gddr.pages"), mt.get("pool.ddr.bytes"), mt.get("pool.ddr.pages"),
                    mt.get("pool.gddr.bytes") / (mt.get("pool.gddr.bytes") + mt.get("pool.ddr.bytes")), mt.get("l1_hit_rate"), mt.get("l2_hit_rate"),
                    (System.nanoTime() - t0) / 1e9);
            System.out.printf("          gddr util %.2f ddr util %.2f%n", mt.get("pool.gddr.utilisation"), mt.get("pool.ddr.utilisation"));
            if (Boolean.getBoolean("x.series")) {
                System.out.println("          series " + r.seriesNames());
                for (double[] row : r.seriesRows()) System.out.println("          " + java.util.Arrays.toString(row));
            }
            r.stats().forEach((k, v) -> { if (k.startsWith("policy.placement") || k.startsWith("policy.migration") || k.equals("gpu0.tlb.shootdowns")) System.out.println("          " + k + " = " + v); });
        }
    }
}
