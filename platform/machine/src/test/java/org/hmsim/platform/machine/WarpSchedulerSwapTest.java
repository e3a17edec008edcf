package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A warp-scheduler swap rebuilds each SM's state from the live warps' ages and then replays the SM's last issue, so a
 * self-swap of a stateful scheduler changes nothing. Told ages alone, GTO lost its greedy warp at every swap (found by
 * a live-swap stress review: bfs on the small machine 62,211 -> 62,473 ns with a gto self-swap every epoch).
 */
class WarpSchedulerSwapTest {
    private static final long EPOCH = 1_000_000; // 1 us

    @Test
    void aGtoSelfSwapAtEveryEpochEndChangesNothing() { selfSwapChangesNothing("gto", "lrr"); }

    @Test
    void anLrrSelfSwapAtEveryEpochEndChangesNothing() { selfSwapChangesNothing("lrr", "gto"); }

    private static void selfSwapChangesNothing(String policy, String other) {
        SwappableProviders plain = new SwappableProviders().with(Slot.WARP_SCHEDULER, policy, Map.of());
        SwappableProviders self = new SwappableProviders().with(Slot.WARP_SCHEDULER, policy, Map.of()).swap(new ScriptedSwap(When.EVERY_EPOCHS,
                1, Slot.WARP_SCHEDULER, List.of(new Choice(policy, Map.of()), new Choice(policy, Map.of())), "script"));
        SwappableProviders otherOnly = new SwappableProviders().with(Slot.WARP_SCHEDULER, other, Map.of());
        RunResult a = run(plain), b = run(self), c = run(otherOnly);
        assertTrue(self.records.size() > 5, self.records.toString());
        assertNotEquals(a.simTimePs(), c.simTimePs(), "the scheduler matters on this run (else it shows nothing)");
        assertEquals(a.simTimePs(), b.simTimePs(), policy + " self-swapped every epoch");
        assertEquals(a.stats(), b.stats());
    }

    /**
     * A scheduler that observes the L1, swapped in live, is told of L1 look-ups from the swap on: the SMs ask
     * {@code observesL1()} again at the swap (api.policy 1.21.0). Swapped in at 0 it is told of every look-up.
     */
    @Test
    void aSchedulerSwappedInThatObservesTheL1IsToldFromTheSwapOn() {
        long[] early = swappedInObserver(0), late = swappedInObserver(3 * EPOCH);
        assertTrue(late[0] > 0, "swapped in at 3 us, it was told of no L1 look-up");
        assertTrue(late[0] < early[0], "told of " + late[0] + " look-ups after 3 us, " + early[0] + " from the start");
        assertTrue(late[1] > 0 && late[1] <= early[1], "warp exits told: " + late[1] + ", from the start " + early[1]);
    }

    /** L1 look-ups and warp exits an observing scheduler swapped in at {@code atPs} was told of. */
    private static long[] swappedInObserver(long atPs) {
        long[] told = new long[2];
        org.hmsim.api.policy.WarpSchedulerPolicy observing = (gpu, sm, slots) -> new org.hmsim.api.policy.WarpSchedulerPolicy.State() {
            @Override public void onWarpStart(int slot, long age) { }

            @Override public int pick(long ready) { return Long.numberOfTrailingZeros(ready); }

            @Override public void onWarpExit(int slot) { told[1]++; }

            @Override public boolean observesL1() { return true; }

            @Override public void onL1Access(int slot, long line, boolean hit) { told[0]++; }
        };
        SwappableProviders src = new SwappableProviders() {
            @Override
            public SwapTarget resolve(Slot slot, String policy, Map<String, Object> params) {
                return policy.equals("observing") ? new SwapTarget("observing@1.0.0", "test", "", ctx -> observing) : super.resolve(slot, policy, params);
            }
        }.swap(new ScriptedSwap(When.TIME, atPs, Slot.WARP_SCHEDULER, new Choice("observing", Map.of())));
        run(src);
        assertEquals("ok", src.records.get(0).outcome(), src.records.toString());
        return told;
    }

    private static RunResult run(SwappableProviders src) { return src.run("small", TestMachines.workload("bfs", 3, "nodes", 4096), EPOCH); }
}
