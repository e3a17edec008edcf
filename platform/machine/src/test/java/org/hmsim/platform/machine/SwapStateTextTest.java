package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.machine.ScriptedSwap.Choice;
import org.hmsim.platform.machine.ScriptedSwap.When;
import org.junit.jupiter.api.Test;

/** What swaps.csv's state column says a swap did, checked against what the run did (a multi-GPU plugin trial found two wrong). */
class SwapStateTextTest {

    private static SwapRecord swapped(String machine, org.hmsim.api.workload.Workload w, ScriptedSwap swap) {
        SwappableProviders src = new SwappableProviders();
        src.swap(swap);
        TestMachines.run(TestMachines.machine(machine), w, src);
        assertEquals(1, src.records.size(), src.records.toString());
        assertTrue(src.records.get(0).outcome().equals("ok"), src.records.toString());
        return src.records.get(0);
    }

    /** At a kernel boundary no kernel runs: it said "told the running kernel" there too. */
    @Test
    void aCtaSchedulerSwapSaysWhetherAKernelWasRunning() {
        SwapRecord between = swapped("small", TestMachines.workload("bfs", 1, "nodes", 4096),
                new ScriptedSwap(When.KERNEL, 1, Slot.CTA_SCHEDULER, new Choice("round-robin", Map.of())));
        assertTrue(between.state().endsWith("; no kernel running (it places the next launch's blocks)"), between.state());
        RunResult plain = TestMachines.run(TestMachines.machine("small"), TestMachines.workload("stream", 1, "elements", 65536), new SwappableProviders());
        SwapRecord mid = swapped("small", TestMachines.workload("stream", 1, "elements", 65536),
                new ScriptedSwap(When.TIME, plain.simTimePs() / 2, Slot.CTA_SCHEDULER, new Choice("round-robin", Map.of())));
        assertTrue(mid.state().endsWith("; told the running kernel (onSwappedInMidKernel)"), mid.state());
    }

    /** An interleave swap's count of pages already placed counts the multi-GPU fine pages spread over every memory (it said 0). */
    @Test
    void anInterleaveSwapCountsTheSpreadPagesAlreadyPlaced() {
        org.hmsim.api.workload.Workload w = TestMachines.workload("stream", 1, "elements", 65536);
        RunResult plain = TestMachines.run(TestMachines.machine("coda"), w, new SwappableProviders());
        assertTrue(plain.stats().get("os.groups.fgp_pages") > 0, "the coda preset's fine interleave spreads pages");
        SwapRecord r = swapped("coda", TestMachines.workload("stream", 1, "elements", 65536),
                new ScriptedSwap(When.TIME, plain.simTimePs() / 2, Slot.INTERLEAVE, new Choice("fine", Map.of())));
        Matcher m = Pattern.compile("the (\\d+) pages mapped so far keep their homes").matcher(r.state());
        assertTrue(m.find(), r.state());
        assertTrue(Long.parseLong(m.group(1)) > 0, "the spread pages are counted: " + r.state());
    }
}
