package org.hmsim.sahc;

import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;

/** Not a test: prints every model under every policy (run with -Dtest=Explore manually). */
final class Explore {
    public static void main(String[] args) {
        MachineConfig m = Apu.machine();
        String[] apps = args.length > 0 ? args : new String[] {"bfs", "bitonic", "coloring", "histogram", "hotspot", "kmeans", "lud", "matrixmul", "nw", "reduction", "srad"};
        for (String a : apps) {
            StringBuilder b = new StringBuilder(String.format("%-10s", a));
            double base = 0;
            for (String pol : new String[] {"directory", "ideal", "sahc-t", "sahc-a"}) {
                long t0 = System.nanoTime();
                RunResult r = Apu.run(m, Apu.app(a, "elements", 16384), pol);
                double ns = r.simTimeNs();
                if (pol.equals("directory")) base = Apu.stat(r, "directory.lookups");
                b.append(String.format(" | %s %.1fus look=%.0f q=%.0fns faults=%.0f tog=%.0f wall=%dms", pol, ns / 1000, Apu.stat(r, "directory.lookups"),
                        Apu.stat(r, "directory.queue_delay_ps") / 1000, Apu.stat(r, "coherence.ownership_faults"), Apu.stat(r, "directory.page_toggles"),
                        (System.nanoTime() - t0) / 1_000_000));
            }
            System.out.println(b);
        }
    }
}
