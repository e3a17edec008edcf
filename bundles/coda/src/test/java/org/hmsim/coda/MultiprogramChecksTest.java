package org.hmsim.coda;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.workloads.mix.MixWorkload;
import org.junit.jupiter.api.Test;

/**
 * Seed 004 §6.5, Fig. 13: multiprogrammed mixes, one program per GPU. FGP-Only spreads every program's pages over every
 * GPU's memory; CGP-Only, given page-grained mapping, puts a program's pages whole in the memory of the GPU that runs it.
 * The paper: CGP-Only beats FGP-Only on all four mixes (no numbers); footnote 6: CODA would do as well as CGP-Only.
 */
class MultiprogramChecksTest {
    private static Workload mix(Workload... programs) { return new MixWorkload("mix", List.of(programs)); }

    private static Workload classes() {
        return mix(CodaSim.workload("block-exclusive", "ctas", 128), CodaSim.workload("core-exclusive", "ctas", 128),
                CodaSim.workload("core-majority", "ctas", 128), CodaSim.workload("sharing", "ctas", 128));
    }

    private static Workload benchmarks() {
        return mix(CodaSim.workload("bfs", "nodes", 16384), CodaSim.workload("kmeans", "points", 2048),
                CodaSim.workload("block-majority", "ctas", 256), CodaSim.workload("sharing", "ctas", 64));
    }

    private static String line(String what, RunResult fgp, RunResult x) {
        return String.format("%s: mean program time %.0f vs %.0f ns (%.2fx), last program %.0f vs %.0f ns (%.2fx), remote bytes %.0f vs %.0f", what,
                CodaSim.metric(fgp, "mean_program_time_ns"), CodaSim.metric(x, "mean_program_time_ns"),
                CodaSim.metric(fgp, "mean_program_time_ns") / CodaSim.metric(x, "mean_program_time_ns"), fgp.simTimeNs(), x.simTimeNs(),
                fgp.simTimeNs() / x.simTimeNs(), CodaSim.metric(fgp, "remote_bytes"), CodaSim.metric(x, "remote_bytes"));
    }

    @Test
    void cgpOnlyBeatsFgpOnlyOnEveryMixByKeepingEachProgramsPagesHome() {
        MachineConfig m = CodaSim.machine("coda");
        for (boolean bench : new boolean[] {false, true}) {
            RunResult[] r = CodaSim.parallel(() -> CodaSim.run(m, bench ? benchmarks() : classes(), CodaSim.FGP),
                    () -> CodaSim.run(m, bench ? benchmarks() : classes(), CodaSim.CGP));
            String msg = line(bench ? "bfs/kmeans/block-majority/sharing" : "four class models", r[0], r[1]);
            System.out.println(msg);
            assertTrue(CodaSim.metric(r[1], "mean_program_time_ns") < CodaSim.metric(r[0], "mean_program_time_ns") / 1.3, msg);
            assertTrue(r[1].simTimeNs() < r[0].simTimeNs(), msg);
            assertEquals(0.0, CodaSim.metric(r[1], "remote_bytes"), msg);
            assertTrue(CodaSim.metric(r[0], "remote_fraction") > 0.7, msg);
            // every program's pages in its own GPU's memory, none spread
            assertEquals(0.0, r[1].stats().get("os.groups.fgp_pages"), msg);
            for (int g = 0; g < 4; g++) assertTrue(r[1].stats().get("os.groups.cgp_pages_mem" + g) > 0, msg + ": memory " + g);
            // every program was slowed by the others' traffic under FGP-Only
            for (int p = 0; p < 4; p++)
                assertTrue(CodaSim.metric(r[1], "program" + p + "_time_ns") <= CodaSim.metric(r[0], "program" + p + "_time_ns"), msg + ": program " + p);
        }
    }

    /** Footnote 6: with a program per GPU, CODA and the first-touch oracle place every page as CGP-Only does. */
    @Test
    void codaAndFirstTouchPlaceAMixsPagesAsCgpOnlyDoes() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = CodaSim.parallel(() -> CodaSim.run(m, classes(), CodaSim.CGP), () -> CodaSim.run(m, classes(), CodaSim.Config.of("coda", "round-robin")));
        RunResult fta = CodaSim.run(m, classes(), CodaSim.FTA);
        assertEquals(r[0].simTimeNs(), r[1].simTimeNs(), line("coda", r[0], r[1]));
        assertEquals(r[0].simTimeNs(), fta.simTimeNs(), line("first-touch", r[0], fta));
        assertEquals(0.0, CodaSim.metric(r[1], "remote_bytes"));
    }

    /** Affinity binds blocks to every GPU; a mix's program has one: refused at its first launch, not left to hang. */
    @Test
    void aMixRefusesACtaSchedulerThatBindsBlocksToOtherGpus() {
        MachineConfig m = CodaSim.machine("coda");
        var e = assertThrows(IllegalArgumentException.class, () -> CodaSim.run(m, classes(), CodaSim.CODA));
        assertTrue(e.getMessage().contains("round-robin") && e.getMessage().contains("runs on GPU"), e.getMessage());
    }

    /**
     * Under CGP-Only a program shares nothing with its co-runners (its GPU, L2, memory; no link carries its traffic), so it
     * runs to the picosecond as it does alone. A review found the round-robin scheduler's one search pointer, shared by
     * the GPUs, shifting a program's block placement with its co-runners' (28,137.5 ns alone, 28,194.5 beside a stream).
     */
    @Test
    void underCgpOnlyAProgramRunsAsIfAlone() {
        MachineConfig m = CodaSim.machine("coda");
        RunResult[] r = CodaSim.parallel(() -> CodaSim.run(m, mix(CodaSim.workload("core-majority", "ctas", 150)), CodaSim.CGP),
                () -> CodaSim.run(m, mix(CodaSim.workload("core-majority", "ctas", 150), CodaSim.workload("stream", "elements", 65536, "ctas", 48),
                        CodaSim.workload("bfs", "nodes", 8192), CodaSim.workload("kmeans", "points", 1024)), CodaSim.CGP));
        assertEquals(CodaSim.metric(r[0], "program0_time_ns"), CodaSim.metric(r[1], "program0_time_ns"));
    }

    /** A program whose pages outgrow its GPU's memory: the rest go whole to the memory with the most room, not "out of memory". */
    @Test
    void aProgramLargerThanItsGpusMemorySpillsIntoAnother() {
        MachineConfig m = CodaSim.machine("coda", "pools.0.capacity", "1MB", "pools.1.capacity", "1MB", "pools.2.capacity", "1MB",
                "pools.3.capacity", "1MB");
        RunResult r = CodaSim.run(m, mix(CodaSim.workload("stream", "elements", 98304, "ctas", 32), CodaSim.workload("stream", "elements", 8192, "ctas", 8)),
                CodaSim.CGP);
        double spills = r.stats().get("os.groups.cgp_spills");
        assertTrue(spills > 0, "spills " + spills);
        assertTrue(CodaSim.metric(r, "remote_bytes") > 0, "the spilled pages are remote");
    }

    /** On one GPU a mix's program has the whole machine: coarse keeps its page round-robin over the stacks (a review saw it turn into first-touch). */
    @Test
    void onOneGpuAMixsProgramKeepsEachPolicysOwnRule() {
        MachineConfig m = CodaSim.machine("coda-big");
        RunResult[] r = CodaSim.parallel(() -> CodaSim.run(m, mix(CodaSim.workload("block-exclusive", "ctas", 64)), CodaSim.CGP),
                () -> CodaSim.run(m, CodaSim.workload("block-exclusive", "ctas", 64), CodaSim.CGP));
        assertEquals(r[1].simTimeNs(), r[0].simTimeNs());
    }
}
