package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.runner.LivePolicies;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyParser;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A swap target is checked against the run ({@code PolicyProvider.check(Params, RunFacts)}) when the run resolves it, so
 * that one the run cannot take is refused before anything drains. Scripted swaps were checked at validation, but a
 * bundle or ranking swap (its provider's own or remembered parameters) and a shell swap (checked without the workload)
 * reached the run unchecked: their policy was created after the drain, or ran on parameters its provider refuses.
 */
class SwapTargetCheckTest {
    @TempDir
    Path dir;

    @AfterEach
    void noRegistry() { LiveSwaps.useRegistry(null); }

    @Test
    void aTargetWhoseParametersDoNotFitTheRunIsRefusedWhenResolved() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        LiveSwaps.useRegistry(registry);
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        Study s = new StudyParser(registry, Fakes.workloads()).parse(Fakes.write(dir, "studies/s.yaml",
                "study: s\nmachine: ../machines/small.yaml\nworkloads: [{name: stream, size: 4096}]\n"));
        LivePolicies live = new LivePolicies(s, s.runs().get(0), List.of(), List.of("a"));

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> live.resolve(Slot.REPLACEMENT, "by-allocation", Map.of("alloc", "b")));
        assertTrue(e.getMessage().startsWith("by-allocation@1.0.0 does not fit this run: parameter 'alloc': no allocation 'b'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> live.resolve(Slot.PLACEMENT, "pinned", Map.of("pool", "hbm")));
        assertEquals("pinned@1.0.0 does not fit this run: parameter 'pool': no pool 'hbm'", e.getMessage());

        assertEquals("alloc=a", live.resolve(Slot.REPLACEMENT, "by-allocation", Map.of("alloc", "a")).params(), "what fits resolves");
        assertEquals("pool=ddr", live.resolve(Slot.PLACEMENT, "pinned", Map.of("pool", "ddr")).params());
    }
}
