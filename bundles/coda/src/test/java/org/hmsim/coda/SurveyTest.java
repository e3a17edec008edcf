package org.hmsim.coda;

import java.util.function.Supplier;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Not a check: prints the comparison table of the README's CODA section, skipped unless asked for:
 * {@code mvn -o -pl bundles/coda surefire:test -Dtest=SurveyTest -Dsurvey=true [-Dbw=256GB/s] [-Dclasses=sharing] [-Dwparams=shared_fraction=0.5,compute=16]}.
 */
class SurveyTest {
    /** The {@code coda} preset with every link at {@code bw}, or {@code -Dmachine=coda-big}; {@code -Dmachine.set=gpu.tlb.walkers=64,...} overrides. */
    private static org.hmsim.platform.machine.MachineConfig machine(String bw) {
        String preset = System.getProperty("machine", "coda");
        java.util.List<Object> o = new java.util.ArrayList<>();
        if (preset.equals("coda"))
            for (int l = 0; l < 6; l++) {
                o.add("links." + l + ".bandwidth");
                o.add(bw);
            }
        for (String kv : System.getProperty("machine.set", "").split(",")) {
            if (kv.isBlank()) continue;
            String[] a = kv.split("=", 2);
            o.add(a[0]);
            o.add(number(a[1]));
        }
        return CodaSim.machine(preset, o.toArray());
    }

    private static Object number(String s) {
        try { return Integer.valueOf(s); } catch (NumberFormatException e) {
            try { return Double.valueOf(s); } catch (NumberFormatException e2) { return s; }
        }
    }

    /** A run metric, NaN where the machine has none (one GPU: no links, no CTA balance). */
    private static double m(RunResult r, String metric) {
        try {
            return CodaSim.metric(r, metric);
        } catch (IllegalArgumentException e) {
            return Double.NaN;
        }
    }

    @Test
    void survey() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("survey"), "prints a table only with -Dsurvey=true");
        String[] ws = System.getProperty("classes", "block-exclusive,core-exclusive,block-majority,core-majority,sharing").split(",");
        CodaSim.Config[] cs = {CodaSim.FGP, CodaSim.CGP, CodaSim.FTA, CodaSim.MIGRATE, CodaSim.FGP_AFFINITY, CodaSim.CODA};
        String bw = System.getProperty("bw", "16GB/s");
        java.util.List<Object> wp = new java.util.ArrayList<>(java.util.List.of("ctas", 256));
        for (String kv : System.getProperty("wparams", "").split(",")) {
            if (kv.isBlank()) continue;
            String[] a = kv.split("=", 2);
            wp.add(a[0]);
            wp.add(number(a[1]));
        }
        for (String w : ws) {
            @SuppressWarnings("unchecked")
            Supplier<RunResult>[] runs = new Supplier[cs.length];
            for (int i = 0; i < cs.length; i++) {
                CodaSim.Config c = cs[i];
                runs[i] = () -> CodaSim.run(machine(bw), CodaSim.workload(w, wp.toArray()), c);
            }
            RunResult[] r = CodaSim.parallel(runs);
            for (int i = 0; i < cs.length; i++)
                System.out.printf("%-16s %-12s %-12s %-16s %9.0f ns speedup %.2f remote=%.3f remote_bytes=%.0f linkmax=%.2f imb=%.2f idle=%.3f%n", w, cs[i].interleave(), cs[i].cta(), cs[i].migration(),
                        r[i].simTimeNs(), r[0].simTimeNs() / r[i].simTimeNs(), m(r[i], "remote_fraction"), m(r[i], "remote_bytes"),
                        m(r[i], "link_utilisation_max"), m(r[i], "cta_imbalance"), m(r[i], "gpu_idle_tail_fraction"));
        }
    }
}
