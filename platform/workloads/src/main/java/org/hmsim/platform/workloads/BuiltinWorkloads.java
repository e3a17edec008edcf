package org.hmsim.platform.workloads;

import java.util.List;
import java.util.stream.Collectors;
import org.hmsim.api.workload.WorkloadProvider;
import org.hmsim.platform.workloads.builtin.BfsWorkload;
import org.hmsim.platform.workloads.builtin.BtreeWorkload;
import org.hmsim.platform.workloads.builtin.HotspotWorkload;
import org.hmsim.platform.workloads.builtin.KmeansWorkload;
import org.hmsim.platform.workloads.builtin.MinifeWorkload;
import org.hmsim.platform.workloads.builtin.NeedleWorkload;
import org.hmsim.platform.workloads.builtin.PointerChaseWorkload;
import org.hmsim.platform.workloads.builtin.SgemmWorkload;
import org.hmsim.platform.workloads.builtin.SpmvWorkload;
import org.hmsim.platform.workloads.builtin.SradWorkload;
import org.hmsim.platform.workloads.builtin.StreamWorkload;

/** The built-in workload models, in a fixed order. */
public final class BuiltinWorkloads {
    private static final List<WorkloadProvider> ALL = List.of(
            new StreamWorkload(), new HotspotWorkload(), new SradWorkload(), new SgemmWorkload(),
            new SpmvWorkload(), new MinifeWorkload(), new BfsWorkload(), new KmeansWorkload(),
            new NeedleWorkload(), new BtreeWorkload(), new PointerChaseWorkload());

    private BuiltinWorkloads() {}

    public static List<WorkloadProvider> all() { return ALL; }

    /** The built-in named {@code name}; an {@link IllegalArgumentException} listing the known names if none. */
    public static WorkloadProvider byName(String name) {
        for (WorkloadProvider p : ALL) if (p.name().equals(name)) return p;
        throw new IllegalArgumentException("unknown workload '" + name + "' (built-in: "
                + ALL.stream().map(WorkloadProvider::name).collect(Collectors.joining(", ")) + ")");
    }
}
