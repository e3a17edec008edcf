package org.hmsim.platform.workloads.mix;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.Multiprogram;
import org.hmsim.api.workload.Workload;

/**
 * A multiprogrammed mix (seed 004 §6.5, Fig. 13): independent programs, program p on GPU p. The platform runs the
 * programs side by side; seen as one workload (validation, counting) it is the programs one after another. Every
 * program is built with the run's seed (two copies of one generated workload are the same data).
 */
public final class MixWorkload implements Multiprogram {
    private final String name;
    private final List<Workload> programs;

    public MixWorkload(String name, List<Workload> programs) {
        if (programs.isEmpty()) throw new IllegalArgumentException("mix " + name + " has no programs");
        this.name = name;
        this.programs = List.copyOf(programs);
    }

    @Override
    public String name() { return name; }

    @Override
    public List<Workload> programs() { return programs; }

    /** Every program's allocations in program order, each named {@link Multiprogram#allocationName} (as the platform makes them). */
    @Override
    public List<AllocationSpec> allocations() {
        List<AllocationSpec> all = new ArrayList<>();
        for (int p = 0; p < programs.size(); p++)
            for (AllocationSpec a : programs.get(p).allocations()) all.add(a.renamed(Multiprogram.allocationName(p, a.name())));
        return all;
    }


    /** Every program's kernels, program after program, each built from its own slice of {@code bases}. */
    @Override
    public List<Kernel> kernels(long[] bases) {
        List<Kernel> all = new ArrayList<>();
        int at = 0;
        for (Workload w : programs) {
            int n = w.allocations().size();
            all.addAll(w.kernels(Arrays.copyOfRange(bases, at, at + n)));
            at += n;
        }
        return all;
    }
}
