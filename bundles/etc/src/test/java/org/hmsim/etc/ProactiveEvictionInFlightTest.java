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
 * ETC's proactive eviction refills free GPU memory to its threshold counting the evictions already under way (seed 002
 * §4.2; {@code ProactiveEvictionProvider}: free = free frames + evictions in flight). With the etc preset's 20 GB/s
 * device-to-host copies and one fault handler a PE round (a few 64 KB pages, ~3.3 us each) is always done before the
 * next batch is allocated (20 us handler latency plus the batch's own host-to-device copies), so the in-flight term was
 * 0 at every decision and a mutation review could drop it with every test byte-identical. It is not dead: with a slower
 * device-to-host link, or with several fault handlers (a batch is allocated while another's evictions are copying), PE
 * decides with evictions in flight. There, counting them is what keeps PE from evicting the same deficit again at
 * every batch. Measured on 2DCONV at 50 %: with 4 GB/s d2h 32 of 40 batches saw evictions in flight (up to 7 pages),
 * with 4 handlers 19 of 41.
 */
class ProactiveEvictionInFlightTest {
    private static final long THRESHOLD = 512 << 10, PAGE = 64 << 10; // EtcChecksTest's scaled threshold; the etc preset's page

    /** free pages and evictions in flight as PE's decision saw them and as it left them, and the pages it evicted ahead. */
    record Round(double freeBefore, int inFlightBefore, double freeAfter, int inFlightAfter, int evicted) {
        double aheadBefore() { return freeBefore + inFlightBefore; }

        double aheadAfter() { return freeAfter + inFlightAfter; }
    }

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
            double[] before = new double[3]; // free, in flight, proactive evictions started since
            um.addListener(new UnifiedMemory.Listener() { // registered before PE's own: runs first
                @Override public void onBatchAllocated(int faults) {
                    before[0] = um.freePages();
                    before[1] = um.evictionsInFlight();
                    before[2] = 0;
                }

                @Override public void onEviction(long vpn, boolean proactive) { if (proactive) before[2]++; }
            });
            Policy p = pe.create(ctx, params);
            um.addListener(new UnifiedMemory.Listener() { // after PE's: what its round left
                @Override public void onBatchAllocated(int faults) {
                    rounds.add(new Round(before[0], (int) before[1], um.freePages(), um.evictionsInFlight(), (int) before[2]));
                }
            });
            return p;
        }
    }

    private static Watched run(String label, Object... machine) {
        Watched w = new Watched();
        RunResult r = new Sim().with(w, "mode", "on", "threshold", "512KB").machine(machine).run("etc-2dconv", 0.5);
        System.out.println(Sim.line(label, r) + "  batches " + w.rounds.size() + ", with evictions in flight "
                + w.rounds.stream().filter(x -> x.inFlightBefore() > 0).count());
        assertEquals(Sim.stat(r, "uvm.evictions_proactive"), w.rounds.stream().mapToInt(Round::evicted).sum(), "PE evicted outside batch allocation");
        return w;
    }

    /**
     * PE never evicts ahead beyond its threshold: a round starts only below it (free + in flight) and leaves free + in
     * flight under threshold + 1 page (it rounds the deficit up to whole pages), and evicts at most {@code max_eviction}.
     * Without the in-flight term PE re-evicts at each batch what is already on its way out: free + in flight after a
     * round reaches the threshold plus the evictions in flight.
     */
    @Test
    void proactiveEvictionCountsEvictionsInFlight() {
        double threshold = (double) THRESHOLD / PAGE, maxPages = (2 << 20) / PAGE;
        for (Object[] machine : new Object[][] {{"uvm.d2h_bandwidth", "4GB/s"}, {"uvm.fault_handlers", 4}}) {
            String at = machine[0] + " " + machine[1];
            Watched w = run("2dconv 50% PE " + at, machine);
            // not vacuous: PE decided, and evicted, with evictions in flight
            long decided = w.rounds.stream().filter(x -> x.inFlightBefore() > 0 && x.evicted() > 0).count();
            assertTrue(decided >= 3, at + ": PE evicted with evictions in flight at only " + decided + " batches");
            for (Round x : w.rounds) {
                if (x.evicted() == 0) continue;
                assertTrue(x.aheadBefore() < threshold, at + ": PE evicted with free + in flight at its threshold already: " + x);
                assertTrue(x.aheadAfter() <= threshold + 1, at + ": PE evicted beyond its threshold (" + threshold + " pages): " + x);
                assertTrue(x.evicted() <= maxPages, at + ": PE evicted more than max_eviction in a round: " + x);
            }
        }
    }
}
