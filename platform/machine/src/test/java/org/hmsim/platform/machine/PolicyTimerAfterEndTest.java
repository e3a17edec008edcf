package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.policy.ThrottlingPolicy;
import org.junit.jupiter.api.Test;

/**
 * A policy timer that re-arms itself for ever no longer keeps a finished run alive: a researcher's DYNCTA-like plugin
 * sampled the SMs every 100 ns from its own events, and the run never ended (SIGTERM then left study.json "running").
 * The run stops handling events 10 ms after its workload's end and says how many it left.
 */
class PolicyTimerAfterEndTest {
    /** Throttling "ticking": samples every 100 ns from {@code begin} on, never stopping; changes nothing. */
    static final class Ticking implements PolicyProvider {
        @Override public Slot slot() { return Slot.THROTTLING; }
        @Override public String name() { return "ticking"; }
        @Override public String description() { return "a timer that never stops re-arming (test)"; }
        @Override public List<ParamSpec> parameters() { return List.of(); }

        @Override
        public Policy create(PolicyContext ctx, Params params) {
            return new ThrottlingPolicy() {
                final EventTarget tick = new EventTarget() {
                    @Override public void handle(int kind, long payload) { ctx.machine().engine().scheduleIn(100_000, this, 0, 0); }
                };

                @Override public void begin(long nowPs) { ctx.machine().engine().scheduleIn(100_000, tick, 0, 0); }
            };
        }
    }

    @Test
    void aFinishedRunStopsWithinTheDrainBoundAndCountsWhatItLeft() {
        var w = TestMachines.workload("stream", 1, "elements", 65536);
        RunResult plain = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 65536), new ClasspathPolicies());
        RunResult ticking = TestMachines.run(TestMachines.machine("small"), w, new ClasspathPolicies(new Ticking()).with(Slot.THROTTLING, "ticking", Map.of()));
        assertEquals(plain.simTimePs(), ticking.simTimePs(), "the timer changes nothing the machine does");
        assertEquals(1.0, ticking.stats().get("engine.events_left_at_end"), "the one re-armed tick");
        assertFalse(plain.stats().containsKey("engine.events_left_at_end"), "absent where the machine fell quiet");
    }
}
