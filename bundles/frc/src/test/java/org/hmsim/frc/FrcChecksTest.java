package org.hmsim.frc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * Seed 003 reproduction checks on small configurations: the RX540 preset (256 B bank interleave, so each
 * bank uses the sets whose bank bits match, as in the thesis's Multi2Sim) with its L2 banks shrunk to
 * 64 KB, so that a read-modify-write stream (dirty victims) misses on every line and the conventional path
 * serialises eviction before fetch; and the FastWalshTransform model on the full-size RX540.
 */
class FrcChecksTest {
    static final MachineConfig SMALL = Sim.machine("frc-rx540", "gpu.l2.size", "64KB");

    static Workload stream() {
        return Sim.workload("stream", "elements", 65536, "ctas", 16, "threads", 128, "unroll", 4, "compute", 20);
    }

    static double stat(RunResult r, String name) {
        double v = 0;
        for (int s = 0; s < 2; s++) v += r.stats().getOrDefault("gpu0.l2.slice" + s + "." + name, 0.0);
        return v;
    }

    /** Per read miss or victim-cache hit: both take a victim way (a victim-cache hit is not counted as a miss). */
    static double evictNsPerMiss(RunResult r) { return stat(r, "evict_latency_ps") / 1000 / Math.max(1, stat(r, "misses") + stat(r, "vc_hits")); }

    static double opc(RunResult r) { return r.metrics().get("opc"); }

    /** The busiest memory pool's utilisation (the presets name theirs gddr or hbm). */
    static double dramUtilisation(RunResult r) {
        return r.metrics().entrySet().stream().filter(e -> e.getKey().startsWith("pool.") && e.getKey().endsWith(".utilisation"))
                .mapToDouble(java.util.Map.Entry::getValue).max().orElse(0);
    }

    static double mpko(RunResult r) { return r.metrics().get("l2_mpko"); }

    static void print(String check, String[] label, RunResult[] r) {
        for (int i = 0; i < r.length; i++)
            System.out.printf("%s: %-12s %8.0f ns  OPC %6.2f (%+5.1f %%)  MPKO %6.2f  evict %5.1f ns/miss  fetch %5.1f ns  mlp %5.1f  frc share %.2f  nacks %.0f  dram %.2f%n",
                    check, label[i], r[i].simTimeNs(), opc(r[i]), 100 * (opc(r[i]) / opc(r[0]) - 1), mpko(r[i]), evictNsPerMiss(r[i]),
                    stat(r[i], "fetch_latency_ps") / 1000 / Math.max(1, stat(r[i], "fetches")), stat(r[i], "mlp") / 2,
                    stat(r[i], "frc_misses") / Math.max(1, stat(r[i], "misses")), stat(r[i], "nacks"),
                    dramUtilisation(r[i]));
    }

    /**
     * Checks 11/14/15 (direction, rough size) on a read-modify-write stream with dirty victims whose bank
     * working set exceeds the L2: the conventional path fills the 96 MSHRs with serialised evict-then-fetch
     * transactions and NACKs; a 512-entry FRC takes most misses, moves the eviction off the critical path,
     * raises memory-level parallelism and OPC (measured +33 % with the presets' 2 L1 ports), more than doubling the
     * L2 does (measured −0.8 %: the stream has no reuse). Not asserted: the thesis's gain at 4 entries (+30 %;
     * measured −0.1 %).
     */
    @Test
    void frcRemovesEvictionLatencyOnTheCriticalPath() {
        Workload w = stream();
        RunResult[] r = Sim.parallel(() -> Sim.conventional().run(SMALL, w), () -> Sim.frc(4).run(SMALL, w),
                () -> Sim.frc(512).run(SMALL, w), () -> Sim.conventional().run(Sim.machine("frc-rx540", "gpu.l2.size", "128KB"), w));
        print("frc stream", new String[] {"conventional", "frc 4", "frc 512", "2x L2"}, r);
        double conv = opc(r[0]);
        assertTrue(opc(r[2]) > conv * 1.10, "frc 512 did not raise OPC by 10 %: " + opc(r[2]) + " vs " + conv);
        assertTrue(opc(r[2]) > opc(r[1]) * 1.05, "512 entries not better than 4: " + opc(r[2]) + " vs " + opc(r[1]));
        assertTrue(opc(r[2]) > opc(r[3]) * 1.05, "frc 512 did not beat 2x L2: " + opc(r[2]) + " vs " + opc(r[3]));
        assertTrue(mpko(r[2]) <= mpko(r[0]) * 1.01, "MPKO rose with the FRC: " + mpko(r[2]) + " vs " + mpko(r[0]));
        // counted as Multi2Sim's report counts misses (every look-up attempt), MPKO falls: the NACKed re-sends are gone
        double lookups = r[2].metrics().get("l2_mpko_lookups"), lookups0 = r[0].metrics().get("l2_mpko_lookups");
        assertTrue(lookups < 0.85 * lookups0, "missed look-ups did not fall with the FRC: " + lookups + " vs " + lookups0);
        assertTrue(evictNsPerMiss(r[2]) < 0.5 * evictNsPerMiss(r[0]), "eviction latency did not fall: " + evictNsPerMiss(r[2]) + " vs " + evictNsPerMiss(r[0]));
        assertTrue(stat(r[2], "mlp") > 1.5 * stat(r[0], "mlp"), "MLP did not rise: " + stat(r[2], "mlp") + " vs " + stat(r[0], "mlp"));
        assertTrue(stat(r[2], "frc_misses") > 0.5 * stat(r[2], "misses"), "a 512-entry FRC served too few misses");
        assertTrue(stat(r[0], "nacks") > 100, "the conventional path hardly NACKed: the check is vacuous");
        assertTrue(stat(r[2], "nacks") < 0.05 * stat(r[0], "nacks"), "a 512-entry FRC still NACKs: " + stat(r[2], "nacks"));
        // runs.csv carries the same miss-path statistics (issue 9's report), summed over the slices as these checks do
        for (RunResult x : new RunResult[] {r[0], r[2]}) {
            assertEquals(evictNsPerMiss(x), x.metrics().get("l2_evict_ns_per_miss"), 1e-9, "l2_evict_ns_per_miss");
            assertEquals(stat(x, "frc_misses") / stat(x, "misses"), x.metrics().get("frc_share"), 1e-12, "frc_share");
            assertEquals(stat(x, "fetch_latency_ps") / 1000 / stat(x, "fetches"), x.metrics().get("l2_fetch_ns"), 1e-9, "l2_fetch_ns");
        }
        assertTrue(r[2].metrics().get("l2_mlp") > 1.5 * r[0].metrics().get("l2_mlp"), "l2_mlp did not rise");
    }

    /**
     * The thesis's FastWalshTransform (butterflies with power-of-two strides, in place): the conventional L2
     * fills its 96 MSHRs with serialised evict-then-fetch transactions and NACKs; the FRC lifts memory-level
     * parallelism well above the MSHR count and moves most of the eviction off the critical path. With Table 4.2's
     * channel-wide DRAM timing (bus turnarounds, tFAW) the deeper DRAM queue lets FR-FCFS keep the bus in one direction
     * longer, so the bus carries more and OPC rises (measured +7.8 %; thesis check 15: memory
     * latency rises with L2-to-memory traffic, yet OPC rises). Without that timing the bus was already 0.95 busy and
     * only "no loss" held. The
     * power-of-two strides meet in few FRC sets (indexed as Multi2Sim's banks index, line / banks mod sets), so about
     * a fifth of the misses find their FRC set full and take the conventional path: the eviction part falls by about
     * half, not to nothing (the thesis sees such FRC-set conflicts on MatrixTranspose, Fig. 5.7).
     */
    @Test
    void frcRaisesMemoryLevelParallelismOnButterflies() {
        MachineConfig m = Sim.machine("frc-rx540");
        Workload w = Sim.workload("fast-walsh", "length", 131072, "min_step", 16384);
        RunResult[] r = Sim.parallel(() -> Sim.conventional().run(m, w), () -> Sim.frc(4).run(m, w), () -> Sim.frc(512).run(m, w));
        print("frc fwt", new String[] {"conventional", "frc 4", "frc 512"}, r);
        assertTrue(stat(r[2], "mlp") > 1.5 * stat(r[0], "mlp"), "MLP did not rise: " + stat(r[2], "mlp") + " vs " + stat(r[0], "mlp"));
        assertTrue(evictNsPerMiss(r[2]) < 0.65 * evictNsPerMiss(r[0]), "eviction part did not fall: " + evictNsPerMiss(r[2]) + " vs " + evictNsPerMiss(r[0]));
        assertTrue(stat(r[2], "frc_misses") > 0.7 * stat(r[2], "misses"), "a 512-entry FRC served too few misses");
        // and the upper bounds the set conflicts above give (measured 82 % of misses in entries, eviction part 0.55x):
        // an 8-way FRC indexed by line does not take every miss, so the eviction part does not vanish. A fully
        // associative FRC of 512 entries took every miss here (eviction part 0): ways ignored would pass the lower bounds
        assertTrue(stat(r[2], "frc_misses") < 0.95 * stat(r[2], "misses"), "an 8-way FRC met no set conflict on butterflies: "
                + stat(r[2], "frc_misses") + " of " + stat(r[2], "misses") + " misses in entries");
        assertTrue(evictNsPerMiss(r[2]) > 0.25 * evictNsPerMiss(r[0]), "the eviction part vanished: " + evictNsPerMiss(r[2]) + " vs " + evictNsPerMiss(r[0]));
        assertTrue(opc(r[2]) >= opc(r[0]) * 1.05, "frc 512 did not raise OPC by 5 %: " + opc(r[2]) + " vs " + opc(r[0]));
        double bus = r[0].metrics().get("pool.gddr.utilisation"), bus512 = r[2].metrics().get("pool.gddr.utilisation");
        assertTrue(bus512 > bus, "the DRAM bus carried no more: " + bus512 + " vs " + bus);
        // the run metrics: OPC counts every lane of a warp instruction; MPKO = L2 read misses per 1000 ops
        assertEquals(r[0].metrics().get("ipc") * org.hmsim.api.workload.WarpInstruction.THREADS, opc(r[0]), 1e-9);
        assertEquals(stat(r[0], "misses") / (opc(r[0]) * r[0].simTimePs() / (1e12 / 1.2e9)) * 1000, mpko(r[0]), 0.01 * mpko(r[0]));
    }

    /**
     * Check 13 (Fig. 6.3/6.6, "MLP, not capacity"): on the read-modify-write stream (no reuse, so capacity
     * cannot help) a fully associative L2 (gpu.l2.ways: 0) and an unbounded victim cache - alone or with the
     * FA L2 - change OPC by a few per cent (measured FA -5.6 %, VC -5.3 %, FA+VC +3.0 %; thesis: FA < 10 %),
     * while a 512-entry FRC gains +33 %: the VC takes the write-back off the eviction (its eviction part
     * falls) but every miss still waits for its victim and holds one of the 96 MSHRs, so memory-level
     * parallelism stays where it was; the FRC's entries add fetches in flight.
     */
    @Test
    void frcBeatsFullyAssociativeL2AndVictimCacheThroughParallelism() {
        Workload w = stream();
        MachineConfig fa = Sim.machine("frc-rx540", "gpu.l2.size", "64KB", "gpu.l2.ways", 0);
        Sim vc = new Sim().with(org.hmsim.api.policy.Slot.L2_MISS_PATH, "victim-cache");
        Sim vc2 = new Sim().with(org.hmsim.api.policy.Slot.L2_MISS_PATH, "victim-cache");
        RunResult[] r = Sim.parallel(() -> Sim.conventional().run(SMALL, w), () -> Sim.conventional().run(fa, w),
                () -> vc.run(SMALL, w), () -> vc2.run(fa, w), () -> Sim.frc(512).run(SMALL, w));
        print("frc vs fa/vc", new String[] {"conventional", "FA L2", "VC unbounded", "FA + VC", "frc 512"}, r);
        double conv = opc(r[0]), frc = opc(r[4]);
        assertEquals(conv, opc(r[1]), 0.10 * conv, "FA L2 moved OPC by more than 10 %");
        for (int i = 1; i <= 3; i++) assertTrue(frc > 1.10 * opc(r[i]), "frc 512 not 10 % above comparison point " + i + ": " + frc + " vs " + opc(r[i]));
        assertTrue(evictNsPerMiss(r[2]) < 0.5 * evictNsPerMiss(r[0]), "the VC did not take the write-back off the eviction");
        assertTrue(stat(r[4], "mlp") > 1.5 * stat(r[3], "mlp"), "FRC MLP not above FA+VC's: " + stat(r[4], "mlp") + " vs " + stat(r[3], "mlp"));
        assertEquals(0, stat(r[2], "vc_hits"), "a stream without reuse hit in the victim cache");
        assertTrue(stat(r[2], "vc_inserts") > 1000, "the victim cache was not used");
    }

    /**
     * The thesis's curve (Fig. 6.x: a gain at every size, rising with entries, saturating) under its other
     * reading of what it leaves open (docs/mechanisms/frc.md, "Shape search"): few L2 MSHRs per bank (16, Multi2Sim's default
     * when a cache section sets none) and an FRC entry that also holds its MSHR until the block arrives
     * ({@code mshr: true}). The conventional path then holds each MSHR through evict-then-fetch; the FRC
     * frees it at arrival, so even 4 entries gain, and beyond the entries that cover the MSHRs more add little.
     * Measured with the presets' 2 L1 ports: +7.5 / +14.4 / +14.5 / +23.4 % at 4 / 16 / 64 / 512 entries (thesis at 4 entries:
     * +30 %). Before the presets took Table 4.2's channel-wide DRAM timing (tRRD, tFAW, tWTR, tRTRS, refresh; third session of
     * 2026-11-27) it was +4.8 / +27.7 / +31.7 / +33.3 %: the stream's row misses are now paced by tFAW, which the conventional
     * path's fewer fetches in flight feel less, so the step from 4 to 16 entries is smaller. On this small stream a change of
     * a refresh's start by a few ns moved the 16- and 64-entry points by 3-5 points (+11.0 / +19.9 % on the first version of that
     * timing), so the check asserts the shape with that margin: a gain at every size, clearly more with 16 or more entries
     * than with 4, and less added from 16 to 512 entries than from none to 16.
     */
    @Test
    void withFewL2MshrsTheFrcGainsAtEverySizeAndSaturates() {
        Workload w = stream();
        MachineConfig m = Sim.machine("frc-rx540", "gpu.l2.size", "64KB", "gpu.l2.mshrs", 16);
        int[] entries = {4, 16, 64, 512};
        List<java.util.function.Supplier<RunResult>> runs = new ArrayList<>();
        runs.add(() -> Sim.conventional().run(m, w));
        for (int e : entries)
            runs.add(() -> new Sim().with(Slot.L2_MISS_PATH, "frc", "entries", e, "mshr", true).run(m, w));
        RunResult[] r = Sim.parallel(runs.toArray(java.util.function.Supplier[]::new));
        print("frc 16 mshrs", new String[] {"conventional", "frc 4", "frc 16", "frc 64", "frc 512"}, r);
        double[] gain = new double[entries.length];
        for (int i = 0; i < entries.length; i++) gain[i] = opc(r[i + 1]) / opc(r[0]) - 1;
        String curve = java.util.Arrays.toString(gain);
        assertTrue(gain[0] > 0.02, "4 entries gained nothing: " + curve);
        for (int i = 1; i < entries.length; i++) assertTrue(gain[i] > gain[0] + 0.05, "the gain does not rise with entries: " + curve);
        assertTrue(gain[3] - gain[1] < gain[1], "no saturation: 16 -> 512 entries gained as much as 0 -> 16: " + curve);
        assertTrue(evictNsPerMiss(r[4]) < 0.5 * evictNsPerMiss(r[0]), "the eviction part did not fall");
    }

    /** A victim-cache hit is served from the VC: a working set of 1.5 x the L2, read 3 times, fits L2 + an unbounded VC. */
    @Test
    void victimCacheServesReuseBeyondTheL2() {
        Workload w = Sim.workload("stream", "elements", 16384, "ctas", 16, "threads", 128, "unroll", 4, "compute", 20, "iterations", 3);
        RunResult[] r = Sim.parallel(() -> Sim.conventional().run(SMALL, w),
                () -> new Sim().with(org.hmsim.api.policy.Slot.L2_MISS_PATH, "victim-cache").run(SMALL, w));
        print("vc reuse", new String[] {"conventional", "VC unbounded"}, r);
        assertTrue(stat(r[1], "vc_hits") > 0.3 * stat(r[0], "misses"), "the VC served few misses: " + stat(r[1], "vc_hits"));
        assertTrue(mpko(r[1]) < 0.8 * mpko(r[0]), "MPKO did not fall with the VC: " + mpko(r[1]) + " vs " + mpko(r[0]));
        // a victim-cache hit takes a victim way as a miss does, so l2_evict_ns_per_miss counts it in both sums
        // (until 2026-11-27 its eviction time was in the numerator only)
        double perTaken = stat(r[1], "evict_latency_ps") / 1000 / (stat(r[1], "misses") + stat(r[1], "vc_hits"));
        assertEquals(perTaken, r[1].metrics().get("l2_evict_ns_per_miss"), 1e-9, "l2_evict_ns_per_miss with victim-cache hits");
    }

    /**
     * Issue 9's done-when: swapping conventional -> frc -> victim-cache -> conventional mid-run drains the FRC
     * entries (every entry ended in a swap) and loses nothing: every request the L1s sent was answered
     * (crossbar request and response packets balance, NACKs included), the L1s saw the same line requests as
     * without swaps, every byte the L2s fetched was read from DRAM and every write-back written there.
     */
    @Test
    void liveSwapDrainsTheFrc() {
        Workload w = stream();
        RunResult base = Sim.conventional().run(SMALL, w);
        long t = base.simTimePs();
        Sim live = Sim.conventional();
        RunResult r = swapThroughEveryMissPath(SMALL, w, live, t);
        double frcMisses = stat(r, "frc_misses"), swaps = stat(r, "frc_swaps"), stores = stat(r, "frc_store_allocs");
        System.out.printf("swap check: frc misses %.0f, store allocs %.0f, swaps %.0f, vc hits %.0f, time %.0f ns (conventional %.0f ns)%n",
                frcMisses, stores, swaps, stat(r, "vc_hits"), r.simTimeNs(), base.simTimeNs());
        assertTrue(frcMisses > 0, "the FRC was never used between the swaps");
        assertTrue(stat(r, "vc_inserts") > 0, "the victim cache was never used between the swaps");
        assertEquals(frcMisses + stores, swaps, "an FRC entry was lost (not swapped into the L2)");
        var st = r.stats();
        assertEquals(st.get("gpu0.xbar.req_packets"), st.get("gpu0.xbar.resp_packets"), "a request to the L2 was not answered");
        assertEquals(base.memoryRequests(), r.memoryRequests(), "the L1s saw other line requests");
        assertEquals(stat(r, "fetch_bytes"), st.get("pool.gddr.bytes_read"), "L2 fetches and DRAM reads differ");
        assertEquals(stat(r, "writeback_bytes"), st.get("pool.gddr.bytes_written"), "L2 write-backs and DRAM writes differ");
        assertEquals(stat(r, "writebacks"), st.get("pool.gddr.writes"), "a write-back did not reach DRAM");
    }

    /**
     * The same swaps on the thesis group's L1 ({@code gpu.l1.write_policy: write-back}, {@code gpu.l2.invalidation:
     * crossbar}): FRC entries drain, and every request is answered except the L1s' write-backs, which get no answer.
     * Dirty data reaching the L2 (write-backs, invalidations' data) is what the L2 writes to DRAM.
     */
    @Test
    void liveSwapDrainsTheFrcUnderTheForksL1() {
        MachineConfig m = Sim.machine("frc-rx540", "gpu.l2.size", "64KB", "gpu.l1.write_policy", "write-back", "gpu.l2.invalidation", "crossbar");
        Workload w = stream();
        long t = Sim.conventional().run(m, w).simTimePs();
        Sim live = Sim.conventional();
        RunResult r = swapThroughEveryMissPath(m, w, live, t);
        var st = r.stats();
        double l1WriteBacks = 0;
        for (String k : st.keySet()) if (k.matches("gpu0\\.sm\\d+\\.l1\\.write_backs")) l1WriteBacks += st.get(k);
        assertTrue(l1WriteBacks > 100, "the L1s wrote back little: " + l1WriteBacks);
        assertTrue(st.get("gpu0.xbar.invalidation_messages") > 0, "no invalidation went over the crossbar");
        assertTrue(stat(r, "frc_misses") > 0, "the FRC was never used between the swaps");
        assertEquals(stat(r, "frc_misses") + stat(r, "frc_store_allocs"), stat(r, "frc_swaps"), "an FRC entry was lost");
        assertEquals(st.get("gpu0.xbar.req_packets"), st.get("gpu0.xbar.resp_packets") + l1WriteBacks, "a request to the L2 was not answered");
        assertEquals(stat(r, "fetch_bytes"), st.get("pool.gddr.bytes_read"), "L2 fetches and DRAM reads differ");
        assertEquals(stat(r, "writeback_bytes"), st.get("pool.gddr.bytes_written"), "L2 write-backs and DRAM writes differ");
    }

    /** Runs {@code w} swapping conventional -> frc 64 -> victim-cache -> conventional at a quarter, half and three quarters of {@code t}; each swap ok. */
    private static RunResult swapThroughEveryMissPath(MachineConfig m, Workload w, Sim live, long t) {
        RunResult r = Simulation.run(new RunSpec("swap", m, w, live, 1, 10_000_000L, 0), List.of(
                new ScriptedSwap(ScriptedSwap.When.TIME, t / 4, Slot.L2_MISS_PATH, new ScriptedSwap.Choice("frc", Map.of("entries", 64))),
                new ScriptedSwap(ScriptedSwap.When.TIME, t / 2, Slot.L2_MISS_PATH, new ScriptedSwap.Choice("victim-cache", Map.of())),
                new ScriptedSwap(ScriptedSwap.When.TIME, 3 * t / 4, Slot.L2_MISS_PATH, new ScriptedSwap.Choice("conventional", Map.of()))));
        assertEquals(3, live.records().size(), live.records().toString());
        for (var rec : live.records()) assertEquals("ok", rec.outcome(), rec.toString());
        return r;
    }

    /**
     * The same swaps with every eviction acknowledged by memory ({@code gpu.l2.evict_notice}, 90-cycle controller):
     * notices in flight when a swap drains are waited for, none is lost, and none reaches the DRAM.
     */
    @Test
    void liveSwapWaitsForEvictionNotices() {
        MachineConfig m = Sim.machine("frc-rx540", "gpu.l2.size", "64KB", "gpu.l2.evict_notice", true, "pools.0.controller_latency_cycles", 90);
        Workload w = stream();
        long t = Sim.conventional().run(m, w).simTimePs();
        Sim live = Sim.conventional();
        RunResult r = Simulation.run(new RunSpec("swap", m, w, live, 1, 10_000_000L, 0), List.of(
                new ScriptedSwap(ScriptedSwap.When.TIME, t / 3, Slot.L2_MISS_PATH, new ScriptedSwap.Choice("frc", Map.of("entries", 64))),
                new ScriptedSwap(ScriptedSwap.When.TIME, 2 * t / 3, Slot.L2_MISS_PATH, new ScriptedSwap.Choice("conventional", Map.of()))));
        assertEquals(2, live.records().size(), live.records().toString());
        for (var rec : live.records()) assertEquals("ok", rec.outcome(), rec.toString());
        var st = r.stats();
        assertTrue(stat(r, "evict_notices") > 1000, "clean evictions sent few notices: " + stat(r, "evict_notices"));
        assertEquals(stat(r, "evict_notices"), st.get("pool.gddr.evict_notices"), "an eviction notice did not reach the controller");
        assertEquals(stat(r, "writebacks"), st.get("pool.gddr.writes"), "a notice was taken for a DRAM write");
        assertEquals(st.get("gpu0.xbar.req_packets"), st.get("gpu0.xbar.resp_packets"), "a request to the L2 was not answered");
    }

    /**
     * What the FRC gains where every eviction is on the critical path at a memory round trip: Multi2Sim 4.2's NMOESI
     * evicts to main memory and waits for the module's reply after its access latency (Table 4.2: 90 cycles, also
     * charged on every read). The thesis group's fork replies to an eviction at once and times reads by DRAMSim2
     * alone, which the presets follow (docs/mechanisms/frc.md). Under the 4.2 semantics ({@code gpu.l2.evict_notice: true},
     * {@code controller_latency_cycles: 90}), over the frc-sweep study's ten models on the full-size RX540, the
     * geometric-mean OPC gain rises with entries (measured +1.5 / +8.2 / +13.3 % at 4 / 64 / 512) and at 512 entries
     * exceeds doubling, quadrupling or fully associating the L2 (+10.0 / +11.6 / +10.1 %): the thesis's ordering (Fig. 6.6),
     * at under half its sizes, and over 4x the L2 by a narrow margin. Under the presets' semantics the same models give
     * +4 % at 512 entries. Before the presets took Table 4.2's channel-wide DRAM timing (third session of 2026-11-27) the
     * gains were +2.5 / +8.3 / +14.5 % against +7.2 / +8.4 / +7.5 %, and FRC 512 was asserted 3 points above each comparison
     * point: bank-pacing and bus turnarounds make capacity, which saves DRAM accesses, worth more.
     */
    @Test
    void withEvictionsAtAMemoryRoundTripTheAverageGainRisesWithEntriesAndBeatsBiggerL2s() {
        double[] gain = averageGainsOverTheSweepModels(new Object[] {"gpu.l2.evict_notice", true, "pools.0.controller_latency_cycles", 90});
        String curve = curve(gain);
        System.out.println("frc average, Multi2Sim 4.2 evictions: " + curve);
        assertTrue(gain[1] > 0 && gain[2] > gain[1] + 0.03 && gain[3] > gain[2] + 0.03, "the average gain does not rise with entries: " + curve);
        assertTrue(gain[3] > 0.10, "frc 512 gained under 10 % on average: " + curve);
        for (int p = 4; p < gain.length; p++) assertTrue(gain[3] > gain[p], "frc 512 does not beat comparison point " + p + ": " + curve);
    }

    /**
     * The thesis's comparison under another reading of its L2 MSHR file: 16 per bank (Fig. 4.4's smallest, under which
     * most of its kernels keep under 30 % of their unbounded OPC; Chapters 5-6 give no size, and the presets keep
     * §4.7's 96), with the FRC's entries beyond the file (the policy's default, {@code mshr: false}). Over the ten
     * frc-sweep models on the RX540 the geometric-mean OPC gain then rises with entries (measured +7.1 / +26.7 / +38.6 %
     * at 4 / 64 / 512; thesis +30 ... +67 %) and at 512 entries beats doubling, quadrupling or fully associating the
     * L2 at the same 16 MSHRs (+16.2 / +19.1 / +20.1 %; thesis +20 / +27 / < 10 %): the thesis's ordering.
     * <p>
     * What the FRC adds here is miss slots, and nothing more: a conventional L2 with 16 + N MSHRs gains as much as N
     * FRC entries or more (measured +7.5 / +35.4 / +42.4 % at 20 / 80 / 528), and at 80 MSHRs the bigger L2s are ahead
     * of the FRC again. So the ordering holds because the comparison points, with their parallelism in the MSHR file,
     * get no more of it; the thesis frames the limit as directory entries, one per cache line (§7.3), which a bigger
     * L2 would add too. Both are asserted, so that neither the ordering nor the equivalence can change silently.
     */
    @Test
    void withSixteenL2MshrsTheFrcsEntriesAreExtraMissSlotsAndBeatBiggerL2sAtThatFile() {
        double[] gain = averageGainsOverTheSweepModels(new Object[] {"gpu.l2.mshrs", 16},
                Sim.machine("frc-rx540", "gpu.l2.mshrs", 80), Sim.machine("frc-rx540", "gpu.l2.mshrs", 528));
        String curve = curve(gain) + String.format(", conventional with 80/528 MSHRs %+.3f/%+.3f", gain[7], gain[8]);
        System.out.println("frc average, 16 L2 MSHRs per bank: " + curve);
        assertTrue(gain[1] > 0.03 && gain[2] > gain[1] + 0.10 && gain[3] > gain[2] + 0.05, "the average gain does not rise with entries: " + curve);
        assertTrue(gain[3] > 0.25, "frc 512 gained under 25 % on average: " + curve);
        for (int p = 4; p < 7; p++)
            assertTrue(gain[3] > gain[p] + 0.10, "frc 512 is not 10 points above comparison point " + p + ": " + curve);
        assertTrue(gain[2] < gain[7] + 0.02 && gain[3] < gain[8] + 0.02, "FRC entries are worth more than as many MSHRs: " + curve);
    }

    private static String curve(double[] gain) {
        return String.format("frc 4/64/512 %+.3f/%+.3f/%+.3f, 2x/4x/FA L2 %+.3f/%+.3f/%+.3f", gain[1], gain[2], gain[3], gain[4], gain[5], gain[6]);
    }

    /**
     * The geometric-mean OPC gain over the conventional RX540 (with {@code over}) of frc 4 / 64 / 512 (indices 1-3),
     * of the conventional L2 at 2x, 4x and fully associative (4-6) and of the conventional path on each of
     * {@code more} (7 on), over the frc-sweep study's ten models.
     */
    private static double[] averageGainsOverTheSweepModels(Object[] over, MachineConfig... more) {
        MachineConfig m = Sim.machine("frc-rx540", over);
        MachineConfig[] fixed = {withOverrides(over, "gpu.l2.size", "512KB"), withOverrides(over, "gpu.l2.size", "1MB"), withOverrides(over, "gpu.l2.ways", 0)};
        MachineConfig[] bigger = java.util.stream.Stream.concat(java.util.Arrays.stream(fixed), java.util.Arrays.stream(more)).toArray(MachineConfig[]::new);
        Workload[] ws = {Sim.workload("fast-walsh", "length", 131072, "min_step", 4096), Sim.workload("matrix-transpose", "width", 512, "height", 512),
                Sim.workload("kmeans", "points", 4096, "iterations", 1), Sim.workload("pannotia-color", "nodes", 8192),
                Sim.workload("stream", "elements", 524288, "ctas", 64, "threads", 128, "unroll", 4, "compute", 20),
                Sim.workload("sdk-mersenne-twister"), Sim.workload("sdk-dwt-haar1d"), Sim.workload("sdk-black-scholes"),
                Sim.workload("sdk-reduction"), Sim.workload("sdk-dct")};
        int[] entries = {4, 64, 512};
        List<java.util.function.Supplier<RunResult>> runs = new ArrayList<>();
        for (Workload w : ws) {
            runs.add(() -> Sim.conventional().run(m, w));
            for (int e : entries) runs.add(() -> Sim.frc(e).run(m, w));
            for (MachineConfig b : bigger) runs.add(() -> Sim.conventional().run(b, w));
        }
        RunResult[] r = Sim.parallel(runs.toArray(java.util.function.Supplier[]::new));
        int points = 1 + entries.length + bigger.length;
        double[] logGain = new double[points];
        for (int w = 0; w < ws.length; w++)
            for (int p = 1; p < points; p++) logGain[p] += Math.log(opc(r[w * points + p]) / opc(r[w * points])) / ws.length;
        return java.util.Arrays.stream(logGain).map(g -> Math.exp(g) - 1).toArray();
    }

    private static MachineConfig withOverrides(Object[] over, Object... more) {
        Object[] all = java.util.Arrays.copyOf(over, over.length + more.length);
        System.arraycopy(more, 0, all, over.length, more.length);
        return Sim.machine("frc-rx540", all);
    }
}
