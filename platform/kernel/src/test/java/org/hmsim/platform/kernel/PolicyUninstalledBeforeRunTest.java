package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyRegistry;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.runner.LiveSwaps;
import org.hmsim.platform.kernel.runner.Progress;
import org.hmsim.platform.kernel.runner.RunOptions;
import org.hmsim.platform.kernel.runner.StudyExecution;
import org.hmsim.platform.kernel.runner.StudyRunner;
import org.hmsim.platform.kernel.study.Study;
import org.hmsim.platform.kernel.study.StudyParser;
import org.hmsim.platform.machine.RunResult;
import org.hmsim.platform.machine.RunSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin taken out of plugins/ (or uninstalled in the shell) while its study runs, before one of its runs started
 * (found by a review of a researcher's first day). The run used to start with the departed bundle's provider: it died
 * of a NoClassDefFoundError with a stack trace, or, where the classes still loaded, ran on the slot's default from
 * time 0 while runs.csv named the plugin's policy.
 */
class PolicyUninstalledBeforeRunTest {
    @TempDir
    Path dir;

    @AfterEach
    void noRegistry() { LiveSwaps.useRegistry(null); }

    @Test
    void aRunWhosePolicyLeftBeforeItStartedFailsNamingItAndAReinstalledJarIsUsed() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider plugin = plugin(registry, "srrip", "org.example.srrip 1.0.0", 0);
        Study study = study(registry, "srrip");
        List<PolicyProvider> simulated = new ArrayList<>();
        Function<RunSpec, RunResult> sim = spec -> {
            simulated.add(registry.entries(Slot.REPLACEMENT).stream()
                    .filter(e -> e.name().equals(spec.policies().describe(Slot.REPLACEMENT).split("@")[0])).findFirst().orElseThrow().provider());
            return Fakes.SIMULATOR.apply(spec);
        };

        registry.remove(plugin); // the jar leaves after the study was resolved, before its run starts
        Path out = dir.resolve("out");
        assertEquals(StudyExecution.FAILED_RUNS, run(study, out, false, sim));
        assertTrue(simulated.isEmpty(), "the run did not start");
        String error = Files.readString(out.resolve("runs/0001/error.txt"));
        assertTrue(error.contains("replacement policy srrip@1.0.0 (bundle org.example.srrip 1.0.0) was uninstalled before this run started, "
                + "so the run did not start; install it again and `hmsim run --resume` runs it"), error);
        assertFalse(error.contains("\tat "), "no stack trace: the message says it all\n" + error);

        Fakes.Provider again = new Fakes.Provider(Slot.REPLACEMENT, "srrip", "1.0.0", List.of(), false);
        registry.add(again, "org.example.srrip 1.0.0", 0); // the jar dropped in again (a new provider instance)
        assertEquals(StudyExecution.OK, run(study, out, true, sim));
        assertEquals(1, simulated.size());
        assertSame(again, simulated.get(0));
        assertFalse(Files.exists(out.resolve("runs/0001/error.txt")));
        assertTrue(Files.readString(out.resolve("runs.csv")).lines().skip(1).findFirst().orElseThrow().startsWith("0001,ok,"));
    }

    @Test
    void anotherVersionInstalledInsteadIsNamedAndNotRunSilently() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider plugin = plugin(registry, "srrip", "org.example.srrip 1.0.0", 0);
        Study study = study(registry, "srrip");
        registry.remove(plugin);
        registry.add(new Fakes.Provider(Slot.REPLACEMENT, "srrip", "2.0.0", List.of(), false), "org.example.srrip 2.0.0", 0);
        Path out = dir.resolve("out");
        assertEquals(StudyExecution.FAILED_RUNS, run(study, out, false, Fakes.SIMULATOR));
        String error = Files.readString(out.resolve("runs/0001/error.txt"));
        assertTrue(error.contains("was uninstalled before this run started (installed now: srrip@2.0.0 from org.example.srrip 2.0.0), so the run did not start"), error);
    }

    /** A plugin that overrode a built-in policy by ranking leaves: the built-in copy is another bundle's, not the study's choice. */
    @Test
    void anotherBundlesCopyOfThePolicyIsNotTakenForIt() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider override = plugin(registry, "lru", "org.example.override 1.0.0", 10);
        Study study = study(registry, "lru");
        assertEquals("org.example.override 1.0.0", study.runs().get(0).policies().get(Slot.REPLACEMENT).entry().bundle());
        registry.remove(override);
        Path out = dir.resolve("out");
        assertEquals(StudyExecution.FAILED_RUNS, run(study, out, false, Fakes.SIMULATOR));
        String error = Files.readString(out.resolve("runs/0001/error.txt"));
        assertTrue(error.contains("replacement policy lru@1.0.0 (bundle org.example.override 1.0.0) was uninstalled before this run started "
                + "(installed now: lru@1.0.0 from classpath)"), error);
    }

    /** The container stopping takes its bundles away: a run starting then is left for --resume, not failed. */
    @Test
    void aRunStartingAsTheContainerStopsIsLeftForResume() throws Exception {
        PolicyRegistry registry = Fakes.policies();
        Fakes.Provider plugin = plugin(registry, "srrip", "org.example.srrip 1.0.0", 0);
        Study study = study(registry, "srrip");
        registry.remove(plugin);
        LiveSwaps.abortAll();
        try {
            Path out = dir.resolve("out");
            assertEquals(StudyExecution.STOPPED, run(study, out, false, Fakes.SIMULATOR));
            assertFalse(Files.exists(out.resolve("runs/0001/error.txt")), "not failed");
        } finally {
            LiveSwaps.resumeRunning();
        }
    }

    /** A replacement policy {@code name} 1.0.0 installed from {@code bundle} at {@code ranking}. */
    private static Fakes.Provider plugin(PolicyRegistry registry, String name, String bundle, int ranking) {
        Fakes.Provider p = new Fakes.Provider(Slot.REPLACEMENT, name, "1.0.0", List.of(), false);
        registry.add(p, bundle, ranking);
        return p;
    }

    /** A one-run study of {@code replacement} resolved against {@code registry}, the container's registry from now on. */
    private Study study(PolicyRegistry registry, String replacement) throws Exception {
        LiveSwaps.useRegistry(registry);
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        return new StudyParser(registry, Fakes.workloads()).parse(Fakes.write(dir, "studies/s.yaml",
                "study: s\nmachine: ../machines/small.yaml\nworkloads: [stream]\npolicies: {replacement: " + replacement + "}\n"));
    }

    private static int run(Study s, Path out, boolean resume, Function<RunSpec, RunResult> sim) throws Exception {
        return new StudyRunner(sim, Environment.classpath()).run(s, new RunOptions(out, 1, resume), Progress.silent());
    }
}
