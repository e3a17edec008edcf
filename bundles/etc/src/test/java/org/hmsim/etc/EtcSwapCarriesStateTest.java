package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.Presets;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.ScriptedSwap;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.junit.jupiter.api.Test;

/**
 * A live swap of one of ETC's slots to a fresh instance of the same policy (a self-swap: what a swap that changes
 * only parameters does to state) carries the run on where it was. The classifier's decision is the application's
 * (seed 002 §4.4), MT's throttled SMs and epoch are where the application is (§4.3), the metadata cache is the memory
 * controller's (§4.4), and MT reads the faults in service from the driver, so a successor that heard none of the
 * faults raised before it does not count their resolutions below zero. Before, each restarted from scratch: a new
 * 50k-cycle sampling window with ETC off, half the SMs throttled again, an empty metadata cache, and MT's own count of
 * faults in service negative (so it never again saw an epoch without faults in service, and never released an SM).
 */
class EtcSwapCarriesStateTest {
    private static final Map<String, Object> PE = Map.of("threshold", "512KB");

    private static RunResult run(String workload, double memory, List<ScriptedSwap> swaps) {
        return run(BuiltinWorkloads.create(workload, 1), memory, swaps);
    }

    private static RunResult run(org.hmsim.api.workload.Workload workload, double memory, List<ScriptedSwap> swaps) {
        return run(workload, memory, swaps, Map.of());
    }

    /** {@code mode}: the three policies' parameters besides the residency threshold (empty: their defaults). */
    private static RunResult run(org.hmsim.api.workload.Workload workload, double memory, List<ScriptedSwap> swaps, Map<String, Object> mode) {
        MachineConfig m = Presets.machine("etc", "gpu.sms", 8, "uvm.oversubscription", memory);
        Map<String, Object> pe = new java.util.HashMap<>(PE);
        pe.putAll(mode);
        ClasspathPolicies p = new ClasspathPolicies(new ProactiveEvictionProvider(), new MemoryAwareThrottlingProvider(), new CapacityCompressionProvider())
                .with(Slot.RESIDENCY, "etc", pe).with(Slot.THROTTLING, "etc", mode).with(Slot.COMPRESSION, "etc", mode);
        return Simulation.run(new RunSpec("t", m, workload, p, 1, 5_000_000, 0), swaps);
    }

    private static List<ScriptedSwap> selfSwap(Slot slot, long epoch) {
        return List.of(new ScriptedSwap(ScriptedSwap.When.EPOCH, epoch, slot, new ScriptedSwap.Choice("etc", slot == Slot.RESIDENCY ? PE : Map.of())));
    }

    private static void same(String what, RunResult base, RunResult swapped) {
        System.out.printf("%-40s %10.1f us (unswapped %10.1f), faults %s (%s), throttles %s (%s)%n", what, swapped.simTimePs() / 1e6, base.simTimePs() / 1e6,
                swapped.metrics().get("uvm.faults"), base.metrics().get("uvm.faults"), swapped.stats().get("policy.throttling.throttles"), base.stats().get("policy.throttling.throttles"));
        // a self-swap not carried out would leave one run twice, equal to the picosecond: it must have taken place
        assertEquals(1.0, swapped.metrics().get("swaps"), what + ": the swap took place");
        assertEquals(base.metrics().get("uvm.faults"), swapped.metrics().get("uvm.faults"), what + ": faults");
        assertEquals(base.metrics().get("uvm.evictions"), swapped.metrics().get("uvm.evictions"), what + ": evictions");
        assertEquals(base.simTimePs(), swapped.simTimePs(), what + ": time");
        // the platform's own series go on through the swap as without it, and so do the policies' own: the swapped-in
        // policy takes over its slot's statistics (counters go on from its predecessor's values, gauges read it)
        List<String> compared = new java.util.ArrayList<>(List.of("uvm.throttled_sms", "uvm.resident_pages", "uvm.faults"));
        for (String n : base.seriesNames()) if (n.startsWith("policy.")) compared.add(n);
        for (Map.Entry<String, Double> e : base.stats().entrySet())
            if (e.getKey().startsWith("policy.")) assertEquals(e.getValue(), swapped.stats().get(e.getKey()), what + ": statistic " + e.getKey());
        for (String series : compared) {
            int a = base.seriesNames().indexOf(series), b = swapped.seriesNames().indexOf(series);
            assertTrue(a >= 0 && b >= 0, what + ": series " + series);
            assertEquals(base.seriesRows().size(), swapped.seriesRows().size(), what + ": epochs");
            for (int k = 0; k < base.seriesRows().size(); k++)
                assertEquals(base.seriesRows().get(k)[a + 1], swapped.seriesRows().get(k)[b + 1], what + ": " + series + " at epoch " + k);
        }
    }

    /** GESUMMV at 50 % is irregular (MT+CC): self-swaps of throttling (while MT throttles) and compression change nothing. */
    @Test
    void selfSwapsOfThrottlingAndCompressionCarryOn() {
        RunResult[] r = Simulation.concurrently(() -> run("etc-gesummv", 0.5, List.of()),
                () -> run("etc-gesummv", 0.5, selfSwap(Slot.THROTTLING, 40)), () -> run("etc-gesummv", 0.5, selfSwap(Slot.COMPRESSION, 40)));
        assertEquals(3, Sim.stat(r[0], "policy.throttling.classifier.class"), "irregular");
        assertTrue(r[1].simTimePs() > 400_000_000L, "the swap (200 us) is mid-run");
        same("gesummv 50% throttling self-swap", r[0], r[1]);
        same("gesummv 50% compression self-swap", r[0], r[2]);
    }

    /** LUD at 50 % is regular with sharing (PE+CC): a self-swap of residency changes nothing. */
    @Test
    void selfSwapOfResidencyCarriesOn() {
        RunResult[] r = Simulation.concurrently(() -> run("etc-lud", 0.5, List.of()), () -> run("etc-lud", 0.5, selfSwap(Slot.RESIDENCY, 40)));
        assertEquals(2, Sim.stat(r[0], "policy.residency.classifier.class"), "regular, sharing");
        assertTrue(r[0].simTimePs() > 400_000_000L, "the swap (200 us) is mid-run");
        same("lud 50% residency self-swap", r[0], r[1]);
    }

    /** MVT (256 x 256) at 50 %: a throttling self-swap at epoch 21 (105 us), while MT holds four SMs, changes nothing. */
    @Test
    void aThrottlingSelfSwapWhileSmsAreThrottledCarriesOn() {
        java.util.function.Supplier<org.hmsim.api.workload.Workload> mvt = () -> BuiltinWorkloads.create("etc-mvt", 1, "rows", 256, "cols", 256);
        Map<String, Object> on = Map.of("mode", "on");
        List<ScriptedSwap> swap = List.of(new ScriptedSwap(ScriptedSwap.When.EPOCH, 21, Slot.THROTTLING, new ScriptedSwap.Choice("etc", on)));
        RunResult[] r = Simulation.concurrently(() -> run(mvt.get(), 0.5, List.of(), on), () -> run(mvt.get(), 0.5, swap, on));
        same("mvt 50% throttling self-swap", r[0], r[1]);
    }

    /**
     * A swap of the compression slot to a lower ratio (here to none) while a batch of faults waited for frames priced them
     * dearer than the evictions under way would free, and nothing asked for more: the run deadlocked (a researcher's trial,
     * GESUMMV at 50 %, from etc or a plugin, to none or to a lower ratio). The driver now evicts what the dearer batch lacks.
     */
    @Test
    void aSwapToALowerCompressionRatioCompletesTheRun() {
        MachineConfig m = Presets.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "jitter", "2ns");
        ClasspathPolicies p = new ClasspathPolicies(new CapacityCompressionProvider()).with(Slot.COMPRESSION, "etc", Map.of("mode", "on"));
        RunResult r = Simulation.run(new RunSpec("t", m, BuiltinWorkloads.create("etc-gesummv", 1), p, 1, 20_000_000, 0),
                List.of(new ScriptedSwap(ScriptedSwap.When.TIME, 500_000_000L, Slot.COMPRESSION, new ScriptedSwap.Choice("none", Map.of()))));
        assertEquals(1.0, r.metrics().get("swaps"), "the swap took place");
        assertTrue(r.simTimePs() > 500_000_000L, "it ran on after the swap: " + r.simTimePs());
    }

    /** A successor that gates, in begin, the SMs its predecessor had throttled, and counts how many issue at its first epoch. */
    static final class Regater implements org.hmsim.api.policy.ThrottlingPolicy {
        static volatile int gated = -1, issuingAtFirstEpoch = -1;
        private final org.hmsim.api.machine.MachineView machine;
        private long[] taken = new long[0];
        private boolean seen;

        Regater(org.hmsim.api.machine.MachineView machine) { this.machine = machine; }

        @Override
        public void importState(Map<String, Object> state) {
            if (state.get("etc.mt.throttled_sms") instanceof long[] st) taken = st;
        }

        @Override
        public void begin(long nowPs) {
            for (long sm : taken) machine.sms().get((int) sm).setIssueEnabled(false);
            gated = taken.length;
        }

        @Override
        public void onEpoch(long nowPs) {
            if (seen || gated < 0) return;
            seen = true;
            int issuing = 0;
            for (long sm : taken) if (machine.sms().get((int) sm).issueEnabled()) issuing++;
            issuingAtFirstEpoch = issuing;
            for (long sm : taken) machine.sms().get((int) sm).setIssueEnabled(true); // then lets them finish their blocks
        }
    }

    static final class RegaterProvider implements org.hmsim.api.policy.PolicyProvider {
        @Override public Slot slot() { return Slot.THROTTLING; }
        @Override public String name() { return "regater"; }
        @Override public String description() { return "gates the SMs its predecessor throttled"; }
        @Override public List<org.hmsim.api.policy.ParamSpec> parameters() { return List.of(); }
        @Override public org.hmsim.api.policy.Policy create(org.hmsim.api.policy.PolicyContext c, org.hmsim.api.policy.Params p) { return new Regater(c.machine()); }
    }

    /**
     * A throttling successor's begin ran before its predecessor's close, and nt's and etc's close re-enable the SMs they
     * gated: the gates a successor set from the state it imported were undone at once (a researcher's trial, 4 of 4). The
     * old policy now closes first.
     */
    @Test
    void aThrottlingSuccessorKeepsTheGatesItSetInBegin() {
        Regater.gated = -1;
        Regater.issuingAtFirstEpoch = -1;
        MachineConfig m = Presets.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5);
        ClasspathPolicies p = new ClasspathPolicies(new NaiveThrottlingProvider(), new RegaterProvider()).with(Slot.THROTTLING, "nt", Map.of("mode", "on"));
        RunResult r = Simulation.run(new RunSpec("t", m, BuiltinWorkloads.create("etc-gesummv", 1), p, 1, 20_000_000, 0),
                List.of(new ScriptedSwap(ScriptedSwap.When.TIME, 300_000_000L, Slot.THROTTLING, new ScriptedSwap.Choice("regater", Map.of()))));
        assertEquals(1.0, r.metrics().get("swaps"));
        assertTrue(Regater.gated > 0, "nt had throttled SMs to hand over: " + Regater.gated);
        assertEquals(0, Regater.issuingAtFirstEpoch, "none of the " + Regater.gated + " SMs gated in begin issues again");
    }

    /** The series {@code name} at each epoch ending at or after {@code fromNs}. */
    private static List<Double> seriesFrom(RunResult r, String name, double fromNs) {
        int c = r.seriesNames().indexOf(name) + 1;
        assertTrue(c > 0, "series " + name);
        List<Double> v = new java.util.ArrayList<>();
        for (double[] row : r.seriesRows()) if (row[0] >= fromNs) v.add(row[c]);
        return v;
    }

    /**
     * NT swapped in for a started MT throttles its own {@code initial_throttle} of the SMs at the swap and holds them, and the
     * swap's record says it did. It used to keep MT's throttled set (a tester's ATAX at 50 %: 2 SMs, then none to the end),
     * NT's half never applied, while swaps.csv said only "all SMs re-enabled" and the series at the swap's instant read 2
     * throttled by the policy, 0 by the hardware (the SMs were gated again at an event after the sample).
     */
    @Test
    void ntSwappedInForMtThrottlesItsOwnHalfAndTheRecordSaysSo() {
        MachineConfig m = Presets.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5);
        ClasspathPolicies p = new ClasspathPolicies(new MemoryAwareThrottlingProvider(), new NaiveThrottlingProvider())
                .with(Slot.THROTTLING, "etc", Map.of("mode", "on"));
        RunResult r = Simulation.run(new RunSpec("t", m, BuiltinWorkloads.create("etc-atax", 1), p, 1, 20_000_000, 0),
                List.of(new ScriptedSwap(ScriptedSwap.When.TIME, 2_000_000_000L, Slot.THROTTLING, new ScriptedSwap.Choice("nt", Map.of()))));
        assertEquals(1.0, r.metrics().get("swaps"), "the swap took place");
        org.hmsim.platform.machine.SwapRecord rec = p.records().get(0);
        double swapNs = rec.simTimePs() / 1000.0;
        assertTrue(r.simTimePs() > rec.simTimePs() + 200_000_000L, "the swap is mid-run: " + swapNs + " ns of " + r.simTimeNs());
        List<Double> before = seriesFrom(r, "policy.throttling.throttled_sms", swapNs - 20_000);
        List<Double> policy = seriesFrom(r, "policy.throttling.throttled_sms", swapNs), hardware = seriesFrom(r, "uvm.throttled_sms", swapNs);
        System.out.println("MT -> NT at " + swapNs + " ns: before " + before.get(0) + "; policy " + policy.subList(0, 5) + "...; hardware " + hardware.subList(0, 5) + "...; " + rec.state());
        assertTrue(before.get(0) != 4, "MT had not 4 SMs throttled just before the swap (else the test shows nothing): " + before.get(0));
        assertEquals(4.0, policy.get(0), "NT throttles half of the 8 SMs at the swap");
        assertEquals(policy, hardware, "the policy's count is the hardware's, the swap's instant included");
        // held: as NT from the start, which holds its 4 until work conservation frees them in ATAX's last wave (3.0 ms of 4.9)
        assertTrue(policy.subList(0, 40).stream().allMatch(v -> v == 4.0), "NT holds its half for the next 800 us: " + policy);
        assertTrue(rec.state().contains("gated 4 of 8 SMs (4-7)"), rec.state());
    }
}
