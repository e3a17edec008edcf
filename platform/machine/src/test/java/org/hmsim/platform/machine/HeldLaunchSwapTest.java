package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/**
 * A migration swap waits for a kernel launch the old policy holds back and holds nothing meanwhile: refused at the end
 * of that wait, it changed no timing, so its record says {@code refused:} with a drain of 0 and the run replays. Found by
 * a review: the record kept the wait as its drain, which swaps.csv readers take for a swap refused after draining, so
 * {@code --replay-swaps} refused a run it would reproduce.
 */
class HeldLaunchSwapTest {
    /** Holds kernel 0 for {@code holdPs}, as copy-first does during its bulk copy. */
    static final class Holder implements MigrationPolicy, EventTarget {
        private final PolicyContext ctx;
        private final long holdPs;
        private Runnable proceed;

        Holder(PolicyContext ctx, long holdPs) {
            this.ctx = ctx;
            this.holdPs = holdPs;
        }

        @Override
        public void onKernelLaunch(int kernel, Runnable proceed) {
            if (kernel != 0) {
                proceed.run();
                return;
            }
            this.proceed = proceed;
            ctx.machine().engine().scheduleIn(holdPs, this, 0, 0);
        }

        @Override
        public void handle(int kind, long payload) {
            Runnable p = proceed;
            proceed = null;
            p.run();
        }
    }

    /** The holder in the migration slot; a swap's new policy throws in importState. */
    static final class Source extends SwappableProviders {
        @Override
        public Policy create(Slot slot, PolicyContext c) { return slot == Slot.MIGRATION ? new Holder(c, 3_000_000) : super.create(slot, c); }

        @Override
        public SwapTarget resolve(Slot s, String policy, Map<String, Object> params) {
            SwapTarget t = super.resolve(s, policy, params);
            return new SwapTarget(t.id(), t.bundle(), t.params(), ctx -> new MigrationPolicy() {
                @Override
                public void importState(Map<String, Object> state) { throw new IllegalStateException("bad state"); }
            });
        }
    }

    @Test
    void aSwapRefusedAfterWaitingForAHeldLaunchLeavesNoTraceAndSaysSo() {
        Source plain = new Source(), swapped = new Source();
        swapped.swap(new ScriptedSwap(When.TIME, 1_000_000, Slot.MIGRATION, new Choice("none", Map.of())));
        RunResult a = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 4096), plain);
        RunResult b = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 4096), swapped);
        SwapRecord r = swapped.records.get(0);
        assertTrue(r.outcome().startsWith("refused: importState failed"), r.outcome());
        assertEquals(0L, r.drainSimPs(), "nothing was held while it waited: no drain");
        assertEquals(a.simTimePs(), b.simTimePs(), "the run is the run without the swap");
        assertEquals(a.stats(), b.stats());
    }
}
