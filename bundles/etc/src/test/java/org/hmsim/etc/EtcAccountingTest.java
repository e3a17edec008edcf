package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * Conservation laws of demand paging (seed 002 §2.1) and of ETC's techniques, over runs that exercise every path: one
 * and four fault handlers, prefetches into free frames and prefetches that evict, PE evicting ahead, MT throttling,
 * compressed pages. Checked at every driver event (a probe listening beside the policies) and at the end:
 * <ul>
 * <li>GPU memory: free memory never below 0 or above the capacity; the memory evictions under way will free, the
 * memory batches wait for and the faults in service never negative;</li>
 * <li>pages: every fault raised is resolved once; pages copied in = faults + prefetches; pages copied out =
 * evictions (every eviction copies its page: no clean drop is modelled); resident at the end = copied in − copied out;</li>
 * <li>link bytes per direction = pages x the page size;</li>
 * <li>compression: accesses to compressed pages = metadata hits + misses, and each miss is one metadata read;</li>
 * <li>throttling: the SMs sampled as throttled ({@code uvm.throttled_sms}, issue disabled) are the ones the policy
 * holds throttled ({@code policy.throttling.throttled_sms}), at every epoch.</li>
 * </ul>
 */
class EtcAccountingTest {
    private static final long PAGE = 64 << 10;

    /** A policy provider with a probe on the unified memory registered before the policy's own listeners. */
    static final class Probed implements PolicyProvider {
        private final PolicyProvider inner;
        final List<String> violations = new ArrayList<>();
        long raised, resolved, evictionEvents, proactiveEvents, events;
        double capacity;

        Probed(PolicyProvider inner) { this.inner = inner; }

        @Override public Slot slot() { return inner.slot(); }

        @Override public String name() { return inner.name(); }

        @Override public String description() { return inner.description(); }

        @Override public List<ParamSpec> parameters() { return inner.parameters(); }

        private void check(UnifiedMemory um, String at) {
            events++;
            capacity = um.capacityFrames();
            double free = um.freePages();
            if (free < -1e-9 || free > capacity + 1e-9) violation(at + ": free " + free + " of " + capacity + " frames");
            if (um.evictingPages() < -1e-9) violation(at + ": evicting " + um.evictingPages());
            if (um.awaitedPages() < -1e-9) violation(at + ": awaited " + um.awaitedPages());
            if (um.faultsInService() != raised - resolved) violation(at + ": faults in service " + um.faultsInService() + ", raised - resolved " + (raised - resolved));
        }

        private void violation(String s) { if (violations.size() < 10) violations.add(s); }

        @Override
        public Policy create(PolicyContext ctx, Params params) {
            UnifiedMemory um = ctx.machine().unifiedMemory();
            um.addListener(new UnifiedMemory.Listener() {
                @Override public void onFault(int sm, long vpn) { raised++; check(um, "fault"); }

                @Override public void onFaultResolved(int sm, long vpn) { resolved++; check(um, "resolved"); }

                @Override public void onBatchAllocated(int faults) { check(um, "batch"); }

                @Override public void onEviction(long vpn, boolean proactive) {
                    evictionEvents++;
                    if (proactive) proactiveEvents++;
                    check(um, "eviction");
                }
            });
            return inner.create(ctx, params);
        }
    }

    private static double stat(RunResult r, String name) { return Sim.stat(r, name); }

    private static void conserves(String at, RunResult r, Probed p, boolean throttles) {
        System.out.println(Sim.line(at, r) + "  probe events " + p.events);
        assertTrue(p.violations.isEmpty(), at + ": " + p.violations);
        double faults = stat(r, "uvm.faults"), prefetches = stat(r, "uvm.prefetches"), evictions = stat(r, "uvm.evictions");
        assertTrue(evictions > 0, at + ": oversubscribed runs evict");
        assertEquals(faults, p.raised, at + ": faults reported to listeners");
        assertEquals(faults, p.resolved, at + ": every fault resolved once");
        assertEquals(evictions, p.evictionEvents, at + ": evictions reported to listeners");
        assertEquals(stat(r, "uvm.evictions_proactive"), p.proactiveEvents, at + ": proactive evictions");
        assertEquals((faults + prefetches) * PAGE, stat(r, "uvm.h2d.bytes"), at + ": bytes host-to-device = pages fetched x page");
        assertEquals(evictions * PAGE, stat(r, "uvm.d2h.bytes"), at + ": bytes device-to-host = pages evicted x page");
        assertEquals(faults + prefetches - evictions, stat(r, "uvm.resident_pages"), at + ": resident = copied in - copied out");
        assertTrue(stat(r, "uvm.resident_pages") <= p.capacity * 1.5 + 1e-9, at + ": resident pages within the (compressed) capacity");
        Double mapped = r.metrics().get("pool.gddr.pages");
        assertEquals(stat(r, "uvm.resident_pages"), mapped == null ? Double.NaN : mapped, at + ": pages the OS maps in GPU memory = resident pages (no frame kept)");
        if (r.stats().containsKey("policy.compression.metadata_hits")) {
            double hits = stat(r, "policy.compression.metadata_hits"), misses = stat(r, "policy.compression.metadata_misses");
            assertEquals(stat(r, "uvm.compressed_accesses"), hits + misses, at + ": compressed accesses = metadata hits + misses");
            assertEquals(stat(r, "uvm.metadata_reads"), misses, at + ": a metadata read per miss");
        }
        int smCol = r.seriesNames().indexOf("uvm.throttled_sms"), mtCol = r.seriesNames().indexOf("policy.throttling.throttled_sms");
        if (mtCol >= 0) {
            assertTrue(smCol >= 0, at + ": throttled SMs series");
            double max = 0;
            for (double[] row : r.seriesRows()) {
                assertEquals(row[mtCol + 1], row[smCol + 1], at + ": SMs with issue disabled = SMs the policy holds throttled at " + row[0]);
                max = Math.max(max, row[mtCol + 1]);
            }
            assertEquals(throttles, max > 0, at + ": SMs throttled at some epoch");
        }
    }

    private record Case(String label, String workload, Supplier<PolicyProvider> residency, Object[] residencyParams, Sim extra, Object[] machine) {}

    @Test
    void pagesFramesBytesAndThrottledSmsAreConserved() {
        Supplier<PolicyProvider> fifo = () -> ClasspathPolicies.find(Slot.RESIDENCY, "fifo"), pe = ProactiveEvictionProvider::new;
        Object[] peOn = {"mode", "on", "threshold", "512KB"}, peAuto = {"threshold", "512KB"}, none = {};
        Object[] fourEvicting = {"uvm.fault_handlers", 4, "uvm.prefetch_evicts", true};
        List<Case> cases = List.of(
                new Case("2dconv 50% BL", "etc-2dconv", fifo, none, new Sim(), new Object[0]),
                new Case("2dconv 50% PE 4h evicting", "etc-2dconv", pe, peOn, new Sim(), fourEvicting),
                new Case("lud 50% ETC", "etc-lud", pe, peAuto, new Sim().with(new MemoryAwareThrottlingProvider()).with(new CapacityCompressionProvider()), new Object[0]),
                new Case("srad 50% PE+CC 4h evicting", "etc-srad", pe, peOn, new Sim().with(new CapacityCompressionProvider(), "mode", "on"), fourEvicting),
                new Case("gesummv 50% ETC", "etc-gesummv", pe, peAuto, new Sim().with(new MemoryAwareThrottlingProvider()).with(new CapacityCompressionProvider()), new Object[0]),
                new Case("atax 50% MT 4h evicting", "etc-atax", fifo, none, new Sim().with(new MemoryAwareThrottlingProvider(), "mode", "on"), fourEvicting),
                new Case("bicg 50% NT+CC", "etc-bicg", fifo, none, new Sim().with(new NaiveThrottlingProvider()).with(new CapacityCompressionProvider(), "mode", "on"), new Object[0]));
        List<Probed> probes = new ArrayList<>();
        List<Supplier<RunResult>> runs = new ArrayList<>();
        for (Case c : cases) {
            Probed p = new Probed(c.residency().get());
            probes.add(p);
            runs.add(() -> c.extra().with(p, c.residencyParams()).machine(c.machine()).run(c.workload(), 0.5));
        }
        @SuppressWarnings("unchecked")
        RunResult[] r = Simulation.concurrently(runs.toArray(new Supplier[0]));
        for (int i = 0; i < cases.size(); i++) conserves(cases.get(i).label(), r[i], probes.get(i), cases.get(i).label().matches(".*(MT|NT|gesummv).*"));
    }
}
