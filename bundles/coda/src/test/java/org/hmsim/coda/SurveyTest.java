package org.hmsim.coda;

import java.util.function.Supplier;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Not a check: prints the comparison table of the README's CODA section, skipped unless asked for:
 * {@code mvn -o -pl bundles/coda surefire:test -Dtest=SurveyTest -Dsurvey=true [-Dbw=256GB/s] [-Dclasses=sharing]}.
 */
class SurveyTest {
    @Test
    void survey() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("survey"), "prints a table only with -Dsurvey=true");
        String[] ws = System.getProperty("classes", "block-exclusive,core-exclusive,block-majority,core-majority,sharing").split(",");
        CodaSim.Config[] cs = {CodaSim.FGP, CodaSim.CGP, CodaSim.FTA, CodaSim.MIGRATE, CodaSim.FGP_AFFINITY, CodaSim.CODA};
        String bw = System.getProperty("bw", "16GB/s");
        for (String w : ws) {
            @SuppressWarnings("unchecked")
            Supplier<RunResult>[] runs = new Supplier[cs.length];
            for (int i = 0; i < cs.length; i++) {
                CodaSim.Config c = cs[i];
                runs[i] = () -> CodaSim.run(CodaSim.machine("coda", "links.0.bandwidth", bw, "links.1.bandwidth", bw, "links.2.bandwidth", bw,
                        "links.3.bandwidth", bw, "links.4.bandwidth", bw, "links.5.bandwidth", bw), CodaSim.workload(w, "ctas", 256), c);
            }
            RunResult[] r = CodaSim.parallel(runs);
            for (int i = 0; i < cs.length; i++)
                System.out.printf("%-16s %-12s %-12s %-16s %9.0f ns speedup %.2f remote=%.3f remote_bytes=%.0f linkmax=%.2f imb=%.2f idle=%.3f%n", w, cs[i].interleave(), cs[i].cta(), cs[i].migration(),
                        r[i].simTimeNs(), r[0].simTimeNs() / r[i].simTimeNs(), CodaSim.metric(r[i], "remote_fraction"), CodaSim.metric(r[i], "remote_bytes"),
                        CodaSim.metric(r[i], "link_utilisation_max"), CodaSim.metric(r[i], "cta_imbalance"), CodaSim.metric(r[i], "gpu_idle_tail_fraction"));
        }
    }
}
