package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.registry.WorkloadRegistry;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.runner.StudyRunner;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.ClasspathPolicies;
import org.hmsim.platform.machine.Simulation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A policy's bundle leaving after the run's start check (PoliciesAtStart) but while the run is set up (its workload,
 * machine and policies built): the run started on the departed bundle's policy and was swapped to the slot's default at
 * its first epoch end, under the study's label. It now fails before anything is simulated, as a run whose policy left
 * before the check does; a jar updated to the same version meanwhile is taken. The departure happens at a fixed point of
 * the set-up (the plugin's create, called as the run's machine is built), so the test needs no timing.
 */
class PolicyLeavesDuringSetUpTest {
    @TempDir
    Path dir;
    PolicyRegistry registry;

    @BeforeEach
    void setUp() {
        registry = Fakes.liveRegistry();
    }

    @AfterEach
    void noRegistry() { LiveSwaps.useRegistry(null); }

    @Test
    void aRunWhosePolicyLeftWhileItWasSetUpFailsBeforeSimulatingAnything() throws Exception {
        Plugin srrip = new Plugin(new AtomicReference<>());
        srrip.onCreate.set(() -> registry.remove(srrip)); // the jar is taken out as the run's machine is built
        registry.add(srrip, "org.example.srrip 1.0.0", 0);
        Path out = dir.resolve("out");
        assertEquals(StudyExecution.FAILED_RUNS, run(study(), out));
        String error = Files.readString(out.resolve("runs/0001/error.txt"));
        assertTrue(error.contains("replacement policy srrip@1.0.0 (bundle org.example.srrip 1.0.0) was uninstalled before this run started, "
                + "so the run did not start"), error);
        assertFalse(Files.exists(out.resolve("runs/0001/swaps.csv")), "no swap to the default: the run did not start on another policy");
        assertFalse(Files.exists(out.resolve("runs/0001/stats.json")));
        assertTrue(LiveSwaps.running().isEmpty(), "nothing left in the hub: " + LiveSwaps.running());
    }

    @Test
    void aJarUpdatedToTheSameVersionWhileTheRunWasSetUpIsTheOneItRunsOn() throws Exception {
        List<String> created = new ArrayList<>();
        Plugin first = new Plugin(new AtomicReference<>()), updated = new Plugin(new AtomicReference<>(() -> created.add("updated")));
        first.onCreate.set(() -> { // felix:update: the old revision's provider leaves, the new one's comes
            created.add("first");
            registry.remove(first);
            registry.add(updated, "org.example.srrip 1.0.0", 0);
        });
        registry.add(first, "org.example.srrip 1.0.0", 0);
        Path out = dir.resolve("out");
        assertEquals(StudyExecution.OK, run(study(), out), () -> {
            try {
                return Files.readString(out.resolve("runs/0001/error.txt"));
            } catch (java.io.IOException e) {
                return e.toString();
            }
        });
        assertEquals(List.of("first", "updated"), created, "set up again on the updated jar");
        assertFalse(Files.exists(out.resolve("runs/0001/swaps.csv")), "the run started on it: no swap at its first epoch end");
    }

    private Study study() throws Exception {
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        return new StudyParser(registry, WorkloadRegistry.withBuiltins()).parse(Fakes.write(dir, "studies/s.yaml",
                "study: s\nseed: 1\nmachine: ../machines/small.yaml\nworkloads: [{name: bfs, nodes: 4096}]\n"
                        + "policies: {replacement: srrip}\nepoch: 2us\n"));
    }

    private static int run(Study s, Path out) throws Exception {
        return new StudyRunner(Simulation::run, Environment.classpath()).run(s, new RunOptions(out, 1, false), Progress.silent());
    }

    /** A plugin's replacement policy (random, as {@code srrip}) that runs {@code onCreate} once, when its first instance is made. */
    private record Plugin(AtomicReference<Runnable> onCreate) implements PolicyProvider {
        private static final PolicyProvider RANDOM = ClasspathPolicies.find(Slot.REPLACEMENT, "random");

        public Slot slot() { return Slot.REPLACEMENT; }
        public String name() { return "srrip"; }
        public String description() { return "random, as a plugin's srrip"; }
        public List<ParamSpec> parameters() { return RANDOM.parameters(); }

        public Policy create(PolicyContext c, Params p) {
            Runnable hook = onCreate.getAndSet(null);
            if (hook != null) hook.run();
            return RANDOM.create(c, p);
        }
    }
}
