package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PlacementPolicy;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.kernel.runner.LivePolicies;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.hmsim.platform.machine.Simulation;
import org.hmsim.platform.machine.SwapRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The container's swap hub (LiveSwaps) holds runs by id, and every study numbers its runs from 0001: what a run leaves
 * there, or asks for twice, changes another run's numbers (found by a determinism review).
 */
class SwapHubHygieneTest {
    @TempDir
    Path dir;
    PolicyRegistry registry;

    @BeforeEach
    void setUp() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        registry = Fakes.liveRegistry();
    }

    @AfterEach
    void noRegistry() { LiveSwaps.useRegistry(null); }

    /** A run whose policy fails to close stayed registered (close threw before ended): the next study's 0001 inherited its follow. */
    @Test
    void aRunWhosePolicyFailsToCloseFailsAndLeavesNothingInTheHub() throws Exception {
        registry.add(new BadClose(ClasspathPolicies.find(Slot.PLACEMENT, "local")), "org.example.badclose 1.0.0");
        Study a = study("a", "placement: local-badclose\n  replacement: {follow: highest-ranked}");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> run(a, a.runs().get(0)));
        assertEquals("close failed", e.getMessage(), "the policy's own failure fails the run");
        assertTrue(LiveSwaps.running().isEmpty(), "nothing of run 0001 left: " + LiveSwaps.running());
    }

    /**
     * Another version of the followed policy at the same rank is not better-ranked (the study pinned lru@1.0.0), and a
     * better-ranked provider present at the start is one swap at time 0, not a second one at the first epoch's end.
     */
    @Test
    void followingSwapsOnlyToABetterRankedProviderAndOnceAtTheStart() throws Exception {
        PolicyProvider lru = ClasspathPolicies.find(Slot.REPLACEMENT, "lru");
        registry.add(new Renamed(lru, "lru", "2.0.0"), "org.example.lru 2.0.0", 0);
        Study pinned = study("p", "replacement: {follow: highest-ranked, name: lru@1.0.0}");
        List<SwapRecord> none = run(pinned, pinned.runs().get(0));
        assertEquals(List.of(), none.stream().map(r -> r.from() + "->" + r.to()).toList(), "same rank: the named version runs");

        registry.add(new Renamed(ClasspathPolicies.find(Slot.REPLACEMENT, "random"), "random-site", "1.0.0"), "org.example.site 1.0.0", 10);
        List<SwapRecord> once = run(pinned, pinned.runs().get(0));
        assertEquals(List.of("lru@1.0.0->random-site@1.0.0@0"), once.stream().map(r -> r.from() + "->" + r.to() + "@" + r.simTimePs()).toList());
    }

    private Study study(String name, String policies) throws Exception {
        return new StudyParser(registry, WorkloadRegistry.withBuiltins()).parse(Fakes.write(dir, "studies/" + name + ".yaml",
                "study: " + name + "\nseed: 1\nmachine: ../machines/small.yaml\nworkloads: [{name: bfs, nodes: 4096}]\npolicies:\n  "
                        + policies + "\nepoch: 2us\n"));
    }

    private static List<SwapRecord> run(Study s, PlannedRun r) {
        LivePolicies live = new LivePolicies(s, r);
        RunResult result = Simulation.run(new RunSpec(r.id(), r.machine().config(), r.workload().create(r.seed()), live, r.seed(), s.epochPs(), s.maxTimePs()));
        assertTrue(result.metrics().get("sim_time_ns") > 0);
        return live.records();
    }

    /** {@code local} whose close() throws. */
    private record BadClose(PolicyProvider local) implements PolicyProvider {
        public Slot slot() { return Slot.PLACEMENT; }
        public String name() { return "local-badclose"; }
        public String description() { return "local; close() throws"; }
        public List<ParamSpec> parameters() { return List.of(); }

        public Policy create(PolicyContext c, Params p) {
            PlacementPolicy inner = (PlacementPolicy) local.create(c, Params.validate(local.parameters(), Map.of()));
            return (PlacementPolicy) java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {PlacementPolicy.class},
                    (proxy, m, args) -> {
                        if (m.getName().equals("close")) throw new IllegalStateException("close failed");
                        try {
                            return m.invoke(inner, args);
                        } catch (java.lang.reflect.InvocationTargetException e) {
                            throw e.getCause();
                        }
                    });
        }
    }

    /** A provider's policy under another name or version (a second bundle shipping it). */
    private record Renamed(PolicyProvider inner, String name, String version) implements PolicyProvider {
        public Slot slot() { return inner.slot(); }
        public String description() { return inner.description(); }
        public List<ParamSpec> parameters() { return inner.parameters(); }
        public Policy create(PolicyContext c, Params p) { return inner.create(c, p); }
    }
}
