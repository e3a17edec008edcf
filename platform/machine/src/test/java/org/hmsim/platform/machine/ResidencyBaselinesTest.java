package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

/**
 * What the baseline residency policies say of themselves (`hmsim policies`) is what they do under demand paging. Found
 * by a third-party plugin author: {@code none} said it "evicts nothing and prefetches nothing beyond the faulting page",
 * yet on the etc preset at 50 % it evicts (the driver's age order) and the tree prefetcher prefetches; and {@code lru}
 * (recency from L2 TLB misses) ran exactly as {@code fifo} there without saying why.
 */
class ResidencyBaselinesTest {
    private static RunResult run(String residency, Object... params) {
        return run("etc-atax", residency, params);
    }

    private static RunResult run(String workload, String residency, Object... params) {
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5);
        return TestMachines.run(m, TestMachines.workload(workload, 1), new ClasspathPolicies().with(Slot.RESIDENCY, residency, params));
    }

    /**
     * {@code lru} with {@code recency: every-access} is true LRU: it sees every line request's page. On GESUMMV at 50 %
     * (the matrix streamed once per kernel beside vectors every warp re-reads) fifo evicts the vectors' pages in their turn and
     * re-faults them; LRU keeps them.
     */
    @Test
    void lruOverEveryAccessKeepsTheReusedPagesFifoEvicts() {
        RunResult fifo = run("etc-gesummv", "fifo"), lru = run("etc-gesummv", "lru", "recency", "every-access");
        double f = fifo.stats().get("uvm.evictions"), l = lru.stats().get("uvm.evictions");
        assertTrue(l < 0.8 * f, "true LRU evicts fewer pages than fifo: " + l + " vs " + f);
        assertTrue(lru.simTimePs() < fifo.simTimePs(), "and runs faster: " + lru.simTimePs() + " vs " + fifo.simTimePs());
    }

    @Test
    void noneEvictsInAgeOrderAndTheMachinesPrefetcherRunsAsItsDescriptionSays() {
        RunResult none = run("none"), fifo = run("fifo"), lru = run("lru");
        assertTrue(none.stats().get("uvm.evictions") > 0, "none evicts under oversubscription");
        assertEquals(fifo.simTimePs(), none.simTimePs(), "none evicts as fifo");
        String d = ClasspathPolicies.find(Slot.RESIDENCY, "none").description();
        assertFalse(d.contains("evicts nothing"), d);
        assertTrue(d.contains("fifo") && d.contains("uvm.prefetcher"), d);
        // lru sees only L2 TLB misses: with the footprint inside the L2 TLB's reach, that is fifo's order
        assertEquals(fifo.simTimePs(), lru.simTimePs(), "lru as fifo on the etc preset");
        assertTrue(ClasspathPolicies.find(Slot.RESIDENCY, "lru").description().contains("evicts as fifo"));
    }
}
