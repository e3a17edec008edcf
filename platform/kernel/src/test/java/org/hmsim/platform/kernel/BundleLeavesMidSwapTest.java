package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.runner.LivePolicies;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.SwapControl;
import org.hmsim.platform.machine.SwapTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bundle uninstalled while a swap to one of its policies drains (found by a review: swap, then uninstall
 * 30-100 ms later). The swap resolved the target while the bundle was there; by the time it is carried out
 * the bundle's classes may not load (the run died of NoClassDefFoundError) or may still load (the run went
 * on with a departed bundle's code, and no swap away from it was asked for: the provider left while the slot
 * still showed the previous policy).
 */
class BundleLeavesMidSwapTest {
    @TempDir
    Path dir;

    @AfterEach
    void noRegistry() { LiveSwaps.useRegistry(null); }

    @Test
    void aTargetWhoseProviderLeftIsRefusedAndOneThatLeftAsItBecameActiveIsSwappedAway() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider srrip = new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false);
        LivePolicies live = live(registry, srrip);

        SwapTarget t = live.resolve(Slot.REPLACEMENT, "srrip", Map.of());
        registry.remove(srrip); // the bundle goes while the swap drains
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> t.factory().apply(null));
        assertTrue(e.getMessage().contains("srrip@1.0.0 went away with its bundle org.example.srrip 1.0.0"), e.getMessage());

        SwapControl control = control("0001");
        assertFalse(pending(control));
        live.swapped(control, Slot.REPLACEMENT, live.resolve(Slot.REPLACEMENT, "lru", Map.of()));
        assertFalse(pending(control), "a target still installed needs nothing");
        live.swapped(control, Slot.REPLACEMENT, t);
        assertTrue(pending(control), "a target gone by the time it became active is swapped away at the next safe point");
        assertEquals("lru@1.0.0", live.resolve(Slot.REPLACEMENT, "@same-or-default:srrip", Map.of()).id(), "to the slot's default");
    }

    @Test
    void departuresAreJudgedByProviderInstanceAndARefusalLooksAgain() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider first = new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false);
        LivePolicies live = live(registry, first);
        SwapTarget t = live.resolve(Slot.REPLACEMENT, "srrip", Map.of());
        // felix:update of the same jar: the old provider leaves, a new one of the same id and bundle name comes
        registry.remove(first);
        registry.add(new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false), "org.example.srrip 1.0.0", 0);
        SwapControl control = control("0002");
        live.swapped(control, Slot.REPLACEMENT, t);
        assertTrue(pending(control), "the old revision's code became active: swapped away although the id is installed again");

        // a swap refused because its target left: the slot's own policy (srrip, first revision) is gone too
        SwapControl other = control("0003");
        live.refused(other, Slot.REPLACEMENT, new IllegalArgumentException("unknown policy"));
        assertFalse(pending(other), "a refusal for another reason asks for nothing");
        live.refused(other, Slot.REPLACEMENT, new NoClassDefFoundError("org/example/Gone"));
        assertTrue(pending(other));

        // the departure noticed twice asks twice: the second request finds the slot already on its target
        SwapTarget toNewRevision = live.resolve(Slot.REPLACEMENT, "@same-or-default:srrip", Map.of());
        assertFalse(live.alreadyActive(Slot.REPLACEMENT, toNewRevision), "srrip's first revision is still the active one");
        live.swapped(other, Slot.REPLACEMENT, toNewRevision);
        assertTrue(live.alreadyActive(Slot.REPLACEMENT, live.resolve(Slot.REPLACEMENT, "@same-or-default:srrip", Map.of())),
                "a second bundle swap to the same live provider is skipped");
    }

    /**
     * The bundle of a slot's policy and of the slot's default both left (the baseline bundle stopped): the swap away
     * is refused with a reason a researcher can read, and the slot is marked as running departed code until a swap
     * lands (an OSGi review found swaps.csv naming the kernel's own "@same-or-default:" token and nothing marked).
     */
    @Test
    void aSlotWithNoPolicyLeftToSwapToIsMarkedAndItsRefusalSaysWhy() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider srrip = new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false);
        LivePolicies live = live(registry, srrip);
        SwapControl control = control("0004");
        live.swapped(control, Slot.REPLACEMENT, live.resolve(Slot.REPLACEMENT, "srrip", Map.of()));
        for (var e : registry.entries(Slot.REPLACEMENT)) registry.remove(e.provider()); // srrip's bundle and the default's go
        live.refused(control, Slot.REPLACEMENT, new NoClassDefFoundError("org/example/Srrip")); // as a swap away that could not load it
        assertTrue(LiveSwaps.departed("0004", Slot.REPLACEMENT), "sim:status marks the slot");
        IllegalArgumentException why = assertThrows(IllegalArgumentException.class,
                () -> live.resolve(Slot.REPLACEMENT, "@same-or-default:srrip", Map.of()));
        assertTrue(why.getMessage().startsWith("no replacement policy 'srrip' nor the slot's default is installed any more: "
                + "the run goes on with the code of the bundle that left"), why.getMessage());
        assertEquals("srrip", new org.hmsim.platform.machine.SwapRequest(Slot.REPLACEMENT, "@same-or-default:srrip", Map.of(), "bundle").policyShown(),
                "swaps.csv names the policy, not the kernel's directive");
        Fakes.Provider back = new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false);
        registry.add(back, "org.example.srrip 1.0.0", 0);
        live.swapped(control, Slot.REPLACEMENT, live.resolve(Slot.REPLACEMENT, "@same-or-default:srrip", Map.of()));
        assertFalse(LiveSwaps.departed("0004", Slot.REPLACEMENT), "on an installed provider again");
    }

    /**
     * A swap refused after its drain leaves the slot on its parameters: a later return to the policy (its bundle updated)
     * brings those back, not the refused swap's (found by a determinism review: they were remembered when asked for).
     */
    @Test
    void aRefusedSwapsParametersAreNotTheOnesAReturnBringsBack() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        LiveSwaps.useRegistry(registry);
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        Study s = new StudyParser(registry, Fakes.workloads()).parse(Fakes.write(dir, "studies/t.yaml",
                "study: t\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies: {replacement: {name: tagged, tag: kept}}\n"));
        LivePolicies live = new LivePolicies(s, s.runs().get(0));
        SwapControl control = control("0005");
        SwapTarget asked = live.resolve(Slot.REPLACEMENT, "tagged", Map.of("tag", "refused"));
        assertEquals("tag=refused", asked.params());
        live.refused(control, Slot.REPLACEMENT, new IllegalStateException("importState failed"));
        assertEquals("tag=kept", live.resolve(Slot.REPLACEMENT, "@same-or-default:tagged", Map.of()).params());
        live.swapped(control, Slot.REPLACEMENT, live.resolve(Slot.REPLACEMENT, "tagged", Map.of("tag", "landed")));
        assertEquals("tag=landed", live.resolve(Slot.REPLACEMENT, "@same-or-default:tagged", Map.of()).params(), "a swap carried out is remembered");
    }

    /** A one-run study's live policies, with {@code plugin} installed from a bundle of its own. */
    private LivePolicies live(PolicyRegistry registry, Fakes.Provider plugin) throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        registry.add(plugin, "org.example.srrip 1.0.0", 0);
        LiveSwaps.useRegistry(registry);
        Study s = new StudyParser(registry, Fakes.workloads()).parse(Fakes.write(dir, "studies/s.yaml",
                "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream]\n"));
        return new LivePolicies(s, s.runs().get(0));
    }

    private static SwapControl control(String runId) throws Exception {
        Constructor<SwapControl> c = SwapControl.class.getDeclaredConstructor(String.class);
        c.setAccessible(true);
        return c.newInstance(runId);
    }

    private static boolean pending(SwapControl c) throws Exception {
        Method m = SwapControl.class.getDeclaredMethod("hasPending");
        m.setAccessible(true);
        return (boolean) m.invoke(c);
    }
}
