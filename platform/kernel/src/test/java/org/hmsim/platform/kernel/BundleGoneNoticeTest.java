package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.machine.SwapControl;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A plugin uninstalled under a running study swapped its runs away in silence: the shell printed nothing, only
 * sim:status and swaps.csv showed it (found by a bundle-author walkthrough). The container now says which runs swap.
 */
class BundleGoneNoticeTest {
    private final List<SwapControl> started = new ArrayList<>();

    @AfterEach
    void cleanUp() throws Exception {
        Method ended = LiveSwaps.class.getDeclaredMethod("ended", SwapControl.class);
        ended.setAccessible(true);
        for (SwapControl c : started) ended.invoke(null, c);
        LiveSwaps.useRegistry(null);
    }

    @Test
    void theRunsOnADepartedProviderAreNamedAndOthersAreNot() throws Exception {
        running("0002", Slot.RESIDENCY, "clock@1.0.0", "edu.example.clock 1.0.0.1");
        running("0001", Slot.RESIDENCY, "clock@1.0.0", "edu.example.clock 1.0.0.1");
        running("0003", Slot.RESIDENCY, "fifo@1.0.0", "org.hmsim.baseline 0.1.0");
        running("0004", Slot.RESIDENCY, "clock@1.0.0", "edu.other.clock 1.0.0"); // another bundle's copy stays
        Fakes.Provider clock = new Fakes.Provider(Slot.RESIDENCY, "clock", "1.0.0", List.of(), false);

        List<String> runs = LiveSwaps.providerGone(clock, "edu.example.clock 1.0.0.1");
        assertEquals(List.of("0001", "0002"), runs);
        assertEquals("hmsim: edu.example.clock 1.0.0.1 left: runs 0001, 0002 on its residency policy clock@1.0.0 swap at the next epoch end"
                + " to the newest remaining version of clock, else to the slot's default none (sim:status and each run's swaps.csv show"
                + " the outcome)", LiveSwaps.goneNotice(Slot.RESIDENCY, "clock@1.0.0", "edu.example.clock 1.0.0.1", runs));
        assertEquals("hmsim: b 1 left: run 0004 on its residency policy clock@1.0.0 swaps at the next epoch end to the newest remaining"
                + " version of clock, else to the slot's default none (sim:status and each run's swaps.csv show the outcome)",
                LiveSwaps.goneNotice(Slot.RESIDENCY, "clock@1.0.0", "b 1", List.of("0004")));
        assertNull(LiveSwaps.goneNotice(Slot.RESIDENCY, "clock@1.0.0", "b 1", List.of()), "no run was on it: nothing to say");
        assertEquals(List.of(), LiveSwaps.providerGone(new Fakes.Provider(Slot.PLACEMENT, "first-fit", "1.0.0", List.of(), false), "x 1"));
    }

    private void running(String id, Slot slot, String policy, String bundle) throws Exception {
        Constructor<SwapControl> make = SwapControl.class.getDeclaredConstructor(String.class);
        make.setAccessible(true);
        SwapControl c = make.newInstance(id);
        Method active = SwapControl.class.getDeclaredMethod("setActive", Slot.class, String.class, String.class);
        active.setAccessible(true);
        active.invoke(c, slot, policy, bundle);
        Method start = LiveSwaps.class.getDeclaredMethod("started", SwapControl.class);
        start.setAccessible(true);
        start.invoke(null, c);
        started.add(c);
    }
}
