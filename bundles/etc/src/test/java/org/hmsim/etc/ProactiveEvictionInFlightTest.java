package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * ETC's proactive eviction refills free GPU memory to its threshold (seed 002 §4.2) counting what later faults can
 * count on: free frames plus the evictions under way, less what fault batches already waiting for frames will take
 * ({@code ProactiveEvictionProvider.Pe.headroom}). With the etc preset's 20 GB/s device-to-host copies and one fault
 * handler a PE round is always done before the next batch is allocated and no batch waits while PE decides, so both
 * terms are 0 at every decision. They are not dead: with a slower device-to-host link, or with several fault handlers
 * (a batch is allocated while another's evictions are copying), PE decides with evictions in flight; with several
 * handlers and prefetches that evict, batches wait for frames of evictions in flight when PE decides (2DCONV at 50 %: 3
 * of 31 decisions, up to 16 frames; SRAD 81 of 273, up to 20). Counting those claimed frames as free (free + evictions
 * in flight, the rule before) left PE short of its threshold; counting a compressed victim as a whole frame left it
 * short by 1/3 at ratio 1.5.
 */
class ProactiveEvictionInFlightTest {
    private static final long THRESHOLD = 512 << 10, PAGE = 64 << 10; // EtcChecksTest's scaled threshold; the etc preset's page

    /** What later faults could count on before PE's round and after it, the evictions in flight, and PE's evictions. */
    record Round(double headroomBefore, int inFlightBefore, double awaitedBefore, double headroomAfter, long residentAfter, int evicted) {}

    static double headroom(UnifiedMemory um) { return um.freePages() + um.evictingPages() - um.awaitedPages(); }

    /** ETC's PE provider, with listeners on either side of its own recording every batch allocation. */
    static final class Watched implements PolicyProvider {
        private final ProactiveEvictionProvider pe = new ProactiveEvictionProvider();
        final List<Round> rounds = new ArrayList<>();

        @Override public Slot slot() { return pe.slot(); }

        @Override public String name() { return pe.name(); }

        @Override public String description() { return pe.description(); }

        @Override public List<ParamSpec> parameters() { return pe.parameters(); }

        @Override
        public Policy create(PolicyContext ctx, Params params) {
            UnifiedMemory um = ctx.machine().unifiedMemory();
            double[] before = new double[4]; // headroom, in flight, awaited, proactive evictions started since
            um.addListener(new UnifiedMemory.Listener() { // registered before PE's own: runs first
                @Override public void onBatchAllocated(int faults) {
                    before[0] = headroom(um);
                    before[1] = um.evictionsInFlight();
                    before[2] = um.awaitedPages();
                    before[3] = 0;
                }

                @Override public void onEviction(long vpn, boolean proactive) { if (proactive) before[3]++; }
            });
            Policy p = pe.create(ctx, params);
            um.addListener(new UnifiedMemory.Listener() { // after PE's: what its round left
                @Override public void onBatchAllocated(int faults) {
                    rounds.add(new Round(before[0], (int) before[1], before[2], headroom(um), um.residentPages(), (int) before[3]));
                }
            });
            return p;
        }
    }

    private static Watched run(String label, String workload, boolean compression, Object... machine) {
        Watched w = new Watched();
        Sim sim = new Sim().with(w, "mode", "on", "threshold", "512KB");
        if (compression) sim.with(new CapacityCompressionProvider(), "mode", "on");
        RunResult r = sim.machine(machine).run(workload, 0.5);
        System.out.println(Sim.line(label, r) + "  batches " + w.rounds.size() + ", with evictions in flight "
                + w.rounds.stream().filter(x -> x.inFlightBefore() > 0).count() + ", with batches waiting "
                + w.rounds.stream().filter(x -> x.awaitedBefore() > 0).count());
        assertEquals(Sim.stat(r, "uvm.evictions_proactive"), w.rounds.stream().mapToInt(Round::evicted).sum(), "PE evicted outside batch allocation");
        return w;
    }

    /**
     * Every PE round refills to the threshold and no further: it evicts only below it, stops once at it (within the
     * last victim, at most one frame), and falls short only at {@code max_eviction} or with no resident page left to
     * evict. Not vacuous: in each configuration PE decides with evictions in flight, and with several handlers and
     * prefetches that evict, with batches waiting for them.
     */
    @Test
    void proactiveEvictionRefillsWhatLaterFaultsCanCountOn() {
        double threshold = (double) THRESHOLD / PAGE;
        int maxPages = (2 << 20) / (int) PAGE;
        record Case(String workload, boolean cc, Object[] machine, boolean waits) {}
        List<Case> cases = List.of(
                new Case("etc-2dconv", false, new Object[] {"uvm.d2h_bandwidth", "4GB/s"}, false),
                new Case("etc-2dconv", false, new Object[] {"uvm.fault_handlers", 4}, false),
                new Case("etc-2dconv", false, new Object[] {"uvm.fault_handlers", 4, "uvm.prefetch_evicts", true}, true),
                new Case("etc-lud", false, new Object[] {"uvm.fault_handlers", 4, "uvm.prefetch_evicts", true}, true),
                new Case("etc-lud", true, new Object[] {"uvm.d2h_bandwidth", "4GB/s"}, false)); // PE+CC: compressed victims
        for (Case c : cases) {
            String at = c.workload() + (c.cc() ? " PE+CC " : " PE ") + java.util.Arrays.toString(c.machine());
            Watched w = run(at, c.workload(), c.cc(), c.machine());
            long inFlight = w.rounds.stream().filter(x -> x.inFlightBefore() > 0 && x.evicted() > 0).count();
            assertTrue(inFlight >= 3, at + ": PE evicted with evictions in flight at only " + inFlight + " batches");
            if (c.waits()) assertTrue(w.rounds.stream().anyMatch(x -> x.awaitedBefore() > 0 && x.evicted() > 0), at + ": PE never evicted with a batch waiting");
            for (Round x : w.rounds) {
                if (x.evicted() > 0) assertTrue(x.headroomBefore() < threshold, at + ": PE evicted with its threshold free already: " + x);
                assertTrue(x.evicted() <= maxPages, at + ": PE evicted more than max_eviction in a round: " + x);
                assertTrue(x.evicted() == 0 || x.headroomAfter() < threshold + 1 + 1e-9, at + ": PE evicted beyond its threshold (" + threshold + " pages): " + x);
                boolean shortOk = x.evicted() == maxPages || x.residentAfter() == 0;
                assertTrue(x.headroomBefore() >= threshold || x.headroomAfter() >= threshold - 1e-9 || shortOk,
                        at + ": PE left less than its threshold (" + threshold + " pages) for later faults: " + x);
            }
        }
    }
}
