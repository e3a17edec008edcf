package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.osgi.framework.Bundle;

/**
 * A third-party bundle (examples/plugin, built against the api alone) joins and leaves a running
 * container: (d) installed and uninstalled as from the shell, (g) dropped into and removed from plugins/.
 */
class PluginTest extends ContainerPerTest {
    /** FileInstall polls plugins/ every second; allow for a slow machine. */
    private static final Duration HOT_DEPLOY = Duration.ofSeconds(15);

    @Test
    void aBundleInstalledAtRunTimeIsListedAndUsableAndGoneOnceUninstalled() throws Exception {
        assertFalse(hasFirstFit(Hmsim.run(container, "policies")), "not there before it is installed");
        Path study = Studies.tiny(dir, "greedy", "{name: first-fit, fast_fraction: 0.5}", "local");

        Bundle plugin = container.context().installBundle(Hmsim.pluginJar().toUri().toString());
        plugin.start();

        Hmsim.Result listed = Hmsim.run(container, "policies");
        assertTrue(hasFirstFit(listed), listed::toString);
        assertTrue(Hmsim.policies(listed).get("placement").get("first-fit").startsWith("org.hmsim.example.plugin "),
                "its bundle is named\n" + listed);
        assertTrue(listed.out().contains("fast_fraction"), "its parameter is documented\n" + listed);

        Path out = dir.resolve("with-plugin");
        Hmsim.Result ran = Hmsim.run(container, "run", study.toString(), "--out", out.toString(), "--jobs", "2");
        assertEquals(0, ran.code(), () -> Studies.errors(ran, out));
        assertEquals(List.of("first-fit(fast_fraction=0.5)", "local"), Studies.column(out, "slot.placement"));
        assertEquals(List.of("ok", "ok"), Studies.column(out, "status"));
        String config = Files.readString(out.resolve("runs").resolve(Studies.column(out, "run").get(0)).resolve("config.json"));
        assertTrue(config.contains("org.hmsim.example.plugin"), "the run records the bundle its policy came from\n" + config);
        assertTrue(config.matches("(?s).*\"fast_fraction\"\\s*:\\s*0\\.5.*"), "and its parameters\n" + config);

        plugin.uninstall();

        Hmsim.Result gone = Hmsim.run(container, "policies");
        assertEquals(0, gone.code());
        assertFalse(hasFirstFit(gone), gone::toString);
        Hmsim.Result refused = Hmsim.run(container, "validate", study.toString());
        assertNotEquals(0, refused.code(), refused::toString);
        StudyTest.assertLocated(refused, study, "first-fit");
        assertTrue(refused.err().contains("first-fit"), refused::toString);
    }

    @Test
    void aJarDroppedIntoPluginsIsDeployedAndRemovingItUndeploysIt() throws Exception {
        Path dropped = plugins.resolve("first-fit.jar");
        Files.copy(Hmsim.pluginJar(), dropped);

        Hmsim.Result deployed = Hmsim.runUntil(container, HOT_DEPLOY, PluginTest::hasFirstFit, "policies");
        assertTrue(hasFirstFit(deployed), "first-fit listed after the jar was dropped into plugins/\n" + deployed);

        Files.delete(dropped);

        Hmsim.Result undeployed = Hmsim.runUntil(container, HOT_DEPLOY, r -> !hasFirstFit(r), "policies");
        assertFalse(hasFirstFit(undeployed), "first-fit gone after the jar was removed\n" + undeployed);
        // the watcher stops the bundle (its policy leaves the list) a moment before it uninstalls it
        long deadline = System.nanoTime() + HOT_DEPLOY.toNanos();
        while (pluginInstalled() && System.nanoTime() < deadline) Thread.sleep(50);
        for (Bundle b : container.context().getBundles()) {
            assertNotEquals("org.hmsim.example.plugin", b.getSymbolicName(), "the bundle is uninstalled");
        }
    }

    /**
     * Felix sets a bundle ACTIVE before the component runtime hears it started (the STARTED event, on FileInstall's
     * thread): a headless command that waited only for ACTIVE ran without the plugin's policies (twice under load,
     * {@code validate} called a dropped-in plugin's policy unknown). A bundle event hook holds the plugin's STARTED event
     * back, widening that window from milliseconds to 1.5 s.
     */
    @Test
    void theWaitForPluginsLastsUntilTheComponentRuntimeHasRegisteredThem() throws Exception {
        long[] heldNs = {0};
        org.osgi.framework.hooks.bundle.EventHook slowRuntime = (event, contexts) -> {
            if (event.getType() != org.osgi.framework.BundleEvent.STARTED || !"org.hmsim.example.plugin".equals(event.getBundle().getSymbolicName())) return;
            long t0 = System.nanoTime();
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            heldNs[0] = System.nanoTime() - t0;
        };
        var hook = container.context().registerService(org.osgi.framework.hooks.bundle.EventHook.class, slowRuntime, null);
        try {
            Files.copy(Hmsim.pluginJar(), plugins.resolve("first-fit.jar"));
            List<String> notUp = container.awaitPlugins(Duration.ofSeconds(30));
            Hmsim.Result listed = Hmsim.run(container, "policies");
            assertEquals(List.of(), notUp, "the plugin came up");
            assertTrue(hasFirstFit(listed), "first-fit listed by the first command after the wait\n" + listed);
            assertTrue(heldNs[0] >= 1_000_000_000L, "the hook held the STARTED event (else this test shows nothing): " + heldNs[0] + " ns");
        } finally {
            hook.unregister();
        }
    }

    /**
     * The plugin leaves while its study runs, before the run that uses it started (found by a first-day review: that
     * run died of a NoClassDefFoundError with a stack trace). It fails naming the policy; the run in flight finishes.
     */
    @Test
    void aRunWhosePluginLeftBeforeItStartedFailsNamingThePolicy() throws Exception {
        Bundle plugin = container.context().installBundle(Hmsim.pluginJar().toUri().toString());
        plugin.start();
        Path study = Hmsim.write(dir.resolve("leaves.yaml"), "study: leaves", "seed: 7", "machine: " + Hmsim.smallMachine(),
                // 16M elements: run 0001 lasts seconds (as BundleSwapTest's), so the plugin leaves before 0002 starts
                "workloads:", "  - { name: stream, elements: 16777216 }",
                "policies:", "  placement: { sweep: [local, { name: first-fit, fast_fraction: 0.5 }] }", "epoch: 1us");
        Path out = dir.resolve("leaves");
        java.util.concurrent.CompletableFuture<Hmsim.Result> run = Hmsim.runInBackground(container, study, out);
        Hmsim.Result live = Hmsim.runUntil(container, Duration.ofSeconds(20), r -> r.out().contains("swaps: 0"), "status");
        assertTrue(live.out().contains("swaps: 0"), "run 0001 (local) in flight\n" + live);
        plugin.uninstall();
        Hmsim.Result r = run.get(120, java.util.concurrent.TimeUnit.SECONDS);
        assertEquals(3, r.code(), () -> Studies.errors(r, out));
        assertEquals(List.of("ok", "failed"), Studies.column(out, "status"));
        String error = Files.readString(out.resolve("runs/0002/error.txt"));
        assertTrue(error.contains("placement policy first-fit@") && error.contains("was uninstalled before this run started, so the run did not start"), error);
        assertFalse(error.contains("NoClassDefFoundError") || error.contains("\tat "), error);
        assertTrue(r.out().contains("0002") && r.out().contains("was uninstalled before this run started"), "the progress line says why\n" + r);
    }

    private boolean pluginInstalled() {
        for (Bundle b : container.context().getBundles()) if ("org.hmsim.example.plugin".equals(b.getSymbolicName())) return true;
        return false;
    }

    private static boolean hasFirstFit(Hmsim.Result r) {
        return Hmsim.lists(r, "placement", "first-fit");
    }
}
