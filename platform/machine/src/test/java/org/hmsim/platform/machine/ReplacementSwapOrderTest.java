package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.LruState;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A replacement swap rebuilds each cache's state by presenting every way as filled, least recently hit or filled
 * first, so an LRU successor inherits the recency order. Presented in way order, an LRU self-swap at every epoch end
 * evicted the lines just used (bfs on the RX540: L2 invalidations of L1 copies 186 -> 830; matrix-transpose 1.7 %
 * slower); now it changes nothing.
 */
class ReplacementSwapOrderTest {
    private static final long EPOCH = 1_000_000; // 1 us

    private static final ReplacementPolicy LRU = (name, sets, ways) -> new LruState(sets, ways);

    @Test
    void theRebuiltStateEvictsTheLeastRecentlyUsedWayAsBefore() {
        LiveSlots.Replacement live = new LiveSlots.Replacement(LRU);
        ReplacementPolicy.State cache = live.forCache("l2", 2, 4);
        for (int w = 0; w < 4; w++) cache.onFill(1, w);
        cache.onHit(1, 0); // recency, oldest first: 1, 2, 3, 0
        cache.onHit(1, 2); // 1, 3, 0, 2
        assertEquals(1, cache.victim(1, 0b1111));
        live.swapTo(LRU);
        assertEquals(1, cache.victim(1, 0b1111), "after the swap the least recently used way is still the victim");
        assertEquals(3, cache.victim(1, 0b1101));
        assertEquals(0, cache.victim(1, 0b0101));
    }

    @Test
    void anLruSelfSwapAtEveryEpochEndChangesNothing() {
        SwappableProviders plain = new SwappableProviders();
        SwappableProviders self = new SwappableProviders().swap(new ScriptedSwap(When.EVERY_EPOCHS, 1, Slot.REPLACEMENT,
                List.of(new Choice("lru", Map.of()), new Choice("lru", Map.of())), "script"));
        RunResult a = run(plain), b = run(self);
        assertTrue(self.records.size() > 5, self.records.toString());
        assertTrue(a.stats().get("gpu0.l2.hits") > 0 && a.stats().get("gpu0.l1.hits") > 0, "the run reuses lines");
        assertEquals(a.simTimePs(), b.simTimePs());
        assertEquals(a.stats(), b.stats());
    }

    private static RunResult run(SwappableProviders src) { return src.run("small", TestMachines.workload("bfs", 3, "nodes", 4096), EPOCH); }
}
