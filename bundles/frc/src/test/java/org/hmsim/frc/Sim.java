package org.hmsim.frc;

import java.util.function.Supplier;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.platform.workloads.file.WorkloadFile;

/**
 * Test harness: machine presets with overrides, built-in workloads and workload files, and the policy
 * providers of every bundle on the class path (this one's and the baseline's, found as DS finds them).
 */
final class Sim extends ClasspathPolicies {
    Sim() { super(new FrcMissPathProvider(), new VictimCacheProvider()); }

    static Sim conventional() { return new Sim(); }

    static Sim frc(int entries) { return new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", entries); }

    @Override
    public Sim with(Slot slot, String name, Object... p) {
        super.with(slot, name, p);
        return this;
    }

    /** {@code preset} with {@code overrides} ("pools.1.bandwidth", "40GB/s", ...). */
    static MachineConfig machine(String preset, Object... overrides) { return Presets.machine(preset, overrides); }

    static Workload workload(String name, Object... params) { return BuiltinWorkloads.create(name, 1, params); }

    /** A workload file of examples/workloads ({@code name}.yaml). */
    static Workload file(String name, Object... params) {
        return BuiltinWorkloads.create(WorkloadFile.load(Presets.examples().resolve("workloads/" + name + ".yaml")), 1, params);
    }

    static double ns(RunResult r) { return r.simTimeNs(); }

    @SafeVarargs
    static RunResult[] parallel(Supplier<RunResult>... runs) { return Simulation.concurrently(runs); }
}
