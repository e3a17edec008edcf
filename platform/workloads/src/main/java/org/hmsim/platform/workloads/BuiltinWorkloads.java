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
            // seed 000 Ch. 6 (selective caching): Rodinia backprop
            new org.hmsim.platform.workloads.builtin.BackpropWorkload(),
            // seed 003 (FRC) set-conflict / MLP-heavy kernels of the thesis
            new org.hmsim.platform.workloads.builtin.frc.FastWalshWorkload(), new org.hmsim.platform.workloads.builtin.frc.MatrixTransposeWorkload(),
            new org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload(org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload.App.PRK),
            new org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload(org.hmsim.platform.workloads.builtin.frc.PannotiaWorkload.App.COLOR),
            // seed 003 (FRC) AMD APP SDK kernels of the thesis
            new org.hmsim.platform.workloads.builtin.frc.SdkMersenneTwisterWorkload(), new org.hmsim.platform.workloads.builtin.frc.SdkDwtHaar1DWorkload(),
            new org.hmsim.platform.workloads.builtin.frc.SdkBlackScholesWorkload(), new org.hmsim.platform.workloads.builtin.frc.SdkReductionWorkload(),
            new org.hmsim.platform.workloads.builtin.frc.SdkDctWorkload(),
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

    /**
     * The built-in {@code name} created with {@code seed} and parameters given as name, value pairs,
     * validated against its declared parameters as a study's would be (for tests and tools).
     */
    public static org.hmsim.api.workload.Workload create(String name, long seed, Object... nameValuePairs) {
        return create(byName(name), seed, nameValuePairs);
    }

    /** As {@link #create(String, long, Object...)} for any provider (a workload file's, say). */
    public static org.hmsim.api.workload.Workload create(WorkloadProvider p, long seed, Object... nameValuePairs) {
        return p.create(org.hmsim.api.policy.Params.validate(p.parameters(), pairs(nameValuePairs)), seed);
    }

    /** Name, value pairs as an ordered map. */
    public static java.util.Map<String, Object> pairs(Object... nameValuePairs) {
        java.util.Map<String, Object> m = new java.util.LinkedHashMap<>();
        for (int i = 0; i < nameValuePairs.length; i += 2) m.put((String) nameValuePairs[i], nameValuePairs[i + 1]);
        return m;
    }
}
