package org.hmsim.etc;

import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Not a check: prints a table of configurations for the README, only with {@code -Dsurvey=true}
 * ({@code mvn -o -pl bundles/etc surefire:test -Dtest=EtcSurveyTest -Dsurvey=true}; optional
 * {@code -Dsurvey.wl=etc-atax,etc-lud -Dsurvey.os=0.75,0.5 -Dsurvey.cfg=bl,pe,mt,cc,pecc,mtcc,etc}; {@code cc@1.1}: CC alone at ratio 1.1).
 */
class EtcSurveyTest {
    private static Sim cfg(String c) {
        Sim s = new Sim();
        if (c.startsWith("cc@")) { // CC alone at another compression ratio, and decompression latency: cc@1.1, cc@1.5@100ns
            String[] a = c.split("@");
            return a.length > 2 ? s.with(new CapacityCompressionProvider(), "mode", "on", "ratio", Double.parseDouble(a[1]), "decompression_latency", a[2])
                    : s.with(new CapacityCompressionProvider(), "mode", "on", "ratio", Double.parseDouble(a[1]));
        }
        if (c.startsWith("cc:")) { // CC alone with any parameters: cc:metadata_entries=8:ratio=1.0
            String[] a = c.split(":");
            Object[] kv = new Object[2 * (a.length - 1) + 2];
            kv[0] = "mode";
            kv[1] = "on";
            for (int i = 1; i < a.length; i++) {
                String[] e = a[i].split("=", 2);
                kv[2 * i] = e[0];
                kv[2 * i + 1] = e[1].matches("-?[0-9]+") ? (Object) Integer.valueOf(e[1]) : e[1].matches("-?[0-9.]+") ? (Object) Double.valueOf(e[1]) : e[1];
            }
            return s.with(new CapacityCompressionProvider(), kv);
        }
        switch (c) {
            case "bl" -> { }
            case "pe" -> s.with(new ProactiveEvictionProvider(), "mode", "on", "threshold", "512KB");
            case "mt" -> s.with(new MemoryAwareThrottlingProvider(), "mode", "on");
            case "cc" -> s.with(new CapacityCompressionProvider(), "mode", "on");
            case "pecc" -> s.with(new ProactiveEvictionProvider(), "mode", "on", "threshold", "512KB").with(new CapacityCompressionProvider(), "mode", "on");
            case "mtcc" -> s.with(new MemoryAwareThrottlingProvider(), "mode", "on").with(new CapacityCompressionProvider(), "mode", "on");
            case "etc" -> s.with(new ProactiveEvictionProvider(), "threshold", "512KB").with(new MemoryAwareThrottlingProvider()).with(new CapacityCompressionProvider());
            case "etck" -> s.with(new ProactiveEvictionProvider(), "threshold", "512KB", "classify", "per_kernel").with(new MemoryAwareThrottlingProvider(), "classify", "per_kernel")
                    .with(new CapacityCompressionProvider(), "classify", "per_kernel");
            default -> throw new IllegalArgumentException(c);
        }
        return s;
    }

    /** {@code -Dsurvey.params=iterations,16} (integer workload parameters, name,value pairs). */
    private static Object[] workloadParams() { return overridePairs("survey.params"); }

    /** {@code -Dsurvey.machine=uvm.fault_handlers,8,uvm.preload,true} (integer or boolean machine overrides, path,value pairs). */
    private static Object[] machineOverrides() { return overridePairs("survey.machine"); }

    private static Object[] overridePairs(String property) {
        String p = System.getProperty(property, "");
        if (p.isEmpty()) return new Object[0];
        String[] kv = p.split(",");
        Object[] o = new Object[kv.length];
        for (int i = 0; i < kv.length; i++)
            o[i] = i % 2 == 0 ? kv[i] : kv[i].equals("true") || kv[i].equals("false") ? (Object) Boolean.valueOf(kv[i]) : (Object) Integer.valueOf(kv[i]);
        return o;
    }

    @Test
    void survey() {
        Assumptions.assumeTrue(Boolean.getBoolean("survey"));
        String[] wls = System.getProperty("survey.wl", "etc-2dconv,etc-lud,etc-atax").split(",");
        String[] oss = System.getProperty("survey.os", "1.0,0.75,0.5").split(",");
        String[] cfgs = System.getProperty("survey.cfg", "bl,pe,mt,cc,pecc,mtcc,etc").split(",");
        String lat = System.getProperty("survey.latency", "20us");
        for (String wl : wls) {
            for (String os : oss) {
                for (String c : cfgs) {
                    if (Double.parseDouble(os) >= 1.0 && !c.equals("bl") && !Boolean.getBoolean("survey.all")) continue;
                    RunResult r = cfg(c).machine(machineOverrides()).run(wl, Double.parseDouble(os), lat, workloadParams());
                    String extra = "";
                    Double th = r.stats().get("policy.throttling.throttles");
                    if (th != null) extra = String.format(" thr %3.0f rel %3.0f", th, r.stats().get("policy.throttling.releases"));
                    extra += String.format(" l2drop %.0f dirty %.0f meta %.0f/%.0f pe_skip %.0f", r.stats().get("uvm.l2_lines_dropped"), r.stats().get("uvm.l2_dirty_lines_dropped"),
                            r.stats().getOrDefault("uvm.metadata_reads", 0.0), r.stats().getOrDefault("uvm.compressed_accesses", 0.0), r.stats().getOrDefault("policy.residency.pe_skipped_fits", 0.0));
                    System.out.println(Sim.line(wl + " " + os + " " + c, r) + extra);
                    if (Boolean.getBoolean("survey.series")) {
                        System.out.println("   " + r.seriesNames());
                        int k = 0;
                        for (double[] row : r.seriesRows()) if (k++ % Integer.getInteger("survey.every", 10) == 0) System.out.println("   " + java.util.Arrays.toString(row));
                    }
                }
            }
        }
    }
}
