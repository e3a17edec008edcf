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
import org.hmsim.platform.workloads.builtin.uvm.IrregularUvmWorkload;
import org.hmsim.platform.workloads.builtin.uvm.RegularUvmWorkload;

/** The built-in workload models, in a fixed order. */
public final class BuiltinWorkloads {
    private static final List<WorkloadProvider> ALL = List.of(
            new StreamWorkload(), new HotspotWorkload(), new SradWorkload(), new SgemmWorkload(),
            new SpmvWorkload(), new MinifeWorkload(), new BfsWorkload(), new KmeansWorkload(),
            new NeedleWorkload(), new BtreeWorkload(), new PointerChaseWorkload(),
            // seed 003 (FRC) set-conflict / MLP-heavy kernels of the thesis
            new org.hmsim.platform.workloads.builtin.frc.FastWalshWorkload(), new org.hmsim.platform.workloads.builtin.frc.MatrixTransposeWorkload(),
            new org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload(org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload.App.PRK),
            new org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload(org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload.App.COLOR),
            // seed 004 (CODA) sharing-class models
            org.hmsim.platform.workloads.builtin.CtaFootprintWorkload.blockExclusive(), org.hmsim.platform.workloads.builtin.CtaFootprintWorkload.coreExclusive(),
            org.hmsim.platform.workloads.builtin.CtaFootprintWorkload.blockMajority(), org.hmsim.platform.workloads.builtin.CtaFootprintWorkload.coreMajority(),
            org.hmsim.platform.workloads.builtin.CtaFootprintWorkload.sharing(),
            // seed 002 (ETC) unified-memory workload models
            new RegularUvmWorkload(RegularUvmWorkload.App.CONV2D), new RegularUvmWorkload(RegularUvmWorkload.App.CONV3D),
            new RegularUvmWorkload(RegularUvmWorkload.App.LUD), new RegularUvmWorkload(RegularUvmWorkload.App.SRAD),
            new RegularUvmWorkload(RegularUvmWorkload.App.CONS), new RegularUvmWorkload(RegularUvmWorkload.App.SCAN),
            new IrregularUvmWorkload(IrregularUvmWorkload.App.ATAX), new IrregularUvmWorkload(IrregularUvmWorkload.App.BICG),
            new IrregularUvmWorkload(IrregularUvmWorkload.App.GESUMMV), new IrregularUvmWorkload(IrregularUvmWorkload.App.MVT),
            // seed 001 (SAHC) APU models with CPU phases: apu-bfs ... apu-srad
            org.hmsim.platform.workloads.apu.ApuApps.get(0), org.hmsim.platform.workloads.apu.ApuApps.get(1), org.hmsim.platform.workloads.apu.ApuApps.get(2), org.hmsim.platform.workloads.apu.ApuApps.get(3), org.hmsim.platform.workloads.apu.ApuApps.get(4), org.hmsim.platform.workloads.apu.ApuApps.get(5),
            org.hmsim.platform.workloads.apu.ApuApps.get(6), org.hmsim.platform.workloads.apu.ApuApps.get(7), org.hmsim.platform.workloads.apu.ApuApps.get(8), org.hmsim.platform.workloads.apu.ApuApps.get(9), org.hmsim.platform.workloads.apu.ApuApps.get(10));

    private BuiltinWorkloads() {}

    public static List<WorkloadProvider> all() { return ALL; }

    /** The built-in named {@code name}; an {@link IllegalArgumentException} listing the known names if none. */
    public static WorkloadProvider byName(String name) {
        for (WorkloadProvider p : ALL) if (p.name().equals(name)) return p;
        throw new IllegalArgumentException("unknown workload '" + name + "' (built-in: "
                + ALL.stream().map(WorkloadProvider::name).collect(Collectors.joining(", ")) + ")");
    }
}
