package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Capacity compression with ratios declared per allocation (a workload file's {@code compression_ratio}): seed 002 gives
 * no per-application ratios, so a researcher declares how well each array compresses. 2DCONV (input A, output B, each
 * half of the footprint) at 50 % memory:
 * <ul>
 * <li>every array declared incompressible (1.0): LCP stores the pages as they are, so CC is BL to the picosecond, with
 * no compressed access and no metadata read;</li>
 * <li>every array declared at 2: the same run as the policy's own {@code ratio: 2} for undeclared arrays (one path);</li>
 * <li>A at 2, B incompressible: between the two, in evictions and in compressed accesses;</li>
 * <li>{@code declared_ratios: false} ignores the declarations.</li>
 * </ul>
 */
class DeclaredCompressionRatiosTest {

    private static UnaryOperator<List<AllocationSpec>> declare(double... ratios) {
        return allocs -> {
            List<AllocationSpec> out = new ArrayList<>();
            for (int i = 0; i < allocs.size(); i++) {
                AllocationSpec a = allocs.get(i);
                out.add(new AllocationSpec(a.name(), a.bytes(), a.hint(), a.readOnly(), ratios[Math.min(i, ratios.length - 1)]));
            }
            return out;
        };
    }

    private static RunResult cc(UnaryOperator<List<AllocationSpec>> allocs, Object... params) {
        Object[] kv = new Object[params.length + 2];
        kv[0] = "mode";
        kv[1] = "on";
        System.arraycopy(params, 0, kv, 2, params.length);
        return new Sim().with(new CapacityCompressionProvider(), kv).run("etc-2dconv", 0.5, "20us", allocs);
    }

    private static double s(RunResult r, String k) { return Sim.stat(r, k); }

    private static void report(String label, RunResult r) {
        System.out.println(Sim.line(label, r) + String.format("  compressed accesses %.0f metadata reads %.0f", s(r, "uvm.compressed_accesses"), s(r, "uvm.metadata_reads")));
    }

    @Test
    void declaredRatiosDecideEachPagesStorageAndIncompressibleDataCostsNothing() {
        RunResult bl = new Sim().run("etc-2dconv", 0.5, "20us", UnaryOperator.identity());
        RunResult none = cc(declare(1.0));
        RunResult allTwo = cc(declare(2.0));
        RunResult uniformTwo = cc(UnaryOperator.identity(), "ratio", 2.0);
        RunResult mixed = cc(declare(2.0, 1.0));
        RunResult ignored = cc(declare(1.0), "ratio", 2.0, "declared_ratios", false);
        report("BL", bl);
        report("CC all declared 1.0", none);
        report("CC all declared 2", allTwo);
        report("CC ratio 2 (undeclared)", uniformTwo);
        report("CC A 2, B 1.0", mixed);
        report("CC declared ignored, ratio 2", ignored);

        assertEquals(bl.simTimePs(), none.simTimePs(), "incompressible data: CC is BL");
        assertEquals(s(bl, "uvm.evictions"), s(none, "uvm.evictions"));
        assertEquals(0, s(none, "uvm.compressed_accesses"), "no page stored compressed");
        assertEquals(0, s(none, "uvm.metadata_reads"));

        assertEquals(uniformTwo.simTimePs(), allTwo.simTimePs(), "declared 2 everywhere = the policy's ratio 2");
        assertEquals(s(uniformTwo, "uvm.compressed_accesses"), s(allTwo, "uvm.compressed_accesses"));
        assertEquals(uniformTwo.simTimePs(), ignored.simTimePs(), "declared_ratios: false takes ratio for every page");

        assertTrue(s(allTwo, "uvm.evictions") < s(mixed, "uvm.evictions") && s(mixed, "uvm.evictions") < s(bl, "uvm.evictions"),
                "evictions: all compressed < half compressed < none");
        assertTrue(s(mixed, "uvm.compressed_accesses") > 0 && s(mixed, "uvm.compressed_accesses") < s(allTwo, "uvm.compressed_accesses"),
                "only A's accesses are to compressed pages");
        assertTrue(allTwo.simTimePs() < mixed.simTimePs() && mixed.simTimePs() < bl.simTimePs(), "time follows the capacity gained");
    }
}
