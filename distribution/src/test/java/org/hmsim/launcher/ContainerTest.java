package org.hmsim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/** The framework alone (no bundles): the real container is tested in itests/. */
class ContainerTest {
    @TempDir Path home;
    @TempDir Path tmp;

    @Test
    void anEmptyContainerStartsAndLeavesNoCacheBehind() throws Exception {
        Path storage;
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            storage = c.storage();
            assertTrue(Files.isDirectory(storage.resolve("cache")), "the framework's cache is inside");
            // Felix empties its cache at init: the owner's pid must have survived it.
            assertFalse(Storage.isOrphan(storage));
            assertTrue(Files.isRegularFile(storage.resolve("owner.pid")));
            assertEquals(Bundle.ACTIVE, c.framework().getState());
            assertTrue(Files.isDirectory(home.resolve("plugins")), "the hot-deploy folder is created");
            assertTrue(c.awaitPlugins(Duration.ofMillis(100)).isEmpty());
            assertTrue(c.inactiveBundles().isEmpty(), c.inactiveBundles().toString());
        }
        assertFalse(Files.exists(storage), "the bundle cache is deleted at close");
    }

    @Test
    void aJarNobodyInstallsIsReportedAfterTheTimeout() throws Exception {
        // No FileInstall in this container: the jar in plugins/ is never installed.
        Files.createDirectories(home.resolve("plugins"));
        var mf = new java.util.jar.Manifest();
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue("Bundle-SymbolicName", "org.example.stray");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(home.resolve("plugins/stray.jar")), mf)) {
            out.flush();
        }
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            var pending = c.awaitPlugins(Duration.ofMillis(100));
            assertEquals(1, pending.size());
            assertTrue(pending.get(0).startsWith("stray.jar: not installed"), pending.get(0));
        }
    }

    /**
     * A jar that is no bundle can never come up: said at once, not after the wait (which cost every command ~10 s). One
     * that cannot be read yet (still being copied in) is waited for.
     */
    @Test
    void aPlainJarEndsTheWaitAtOnce() throws Exception {
        Files.createDirectories(home.resolve("plugins"));
        var mf = new java.util.jar.Manifest();
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(home.resolve("plugins/plain.jar")), mf)) {
            out.flush();
        }
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            long t0 = System.nanoTime();
            var pending = c.awaitPlugins(Duration.ofSeconds(30));
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "no wait for a jar that cannot come up");
            assertEquals(List.of("plain.jar: not an OSGi bundle (its manifest has no Bundle-SymbolicName)"), pending);
        }
        Files.write(home.resolve("plugins/half.jar"), new byte[] {'P', 'K', 3});
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            var pending = c.awaitPlugins(Duration.ofMillis(300));
            assertTrue(pending.contains("half.jar: not installed (not a readable jar: still being written?)"), pending.toString());
        }
        // an unreadable jar that stopped changing is corrupt: said at once (it held every command ~10 s)
        Files.setLastModifiedTime(home.resolve("plugins/half.jar"), java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            long t0 = System.nanoTime();
            var pending = c.awaitPlugins(Duration.ofSeconds(30));
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "no wait for a corrupt jar");
            assertTrue(pending.contains("half.jar: not a readable jar (a corrupt or partial file?)"), pending.toString());
        }
    }

    /**
     * A second copy of an installed bundle (the same symbolic name and version under another file name, e.g.
     * {@code cp plugin.jar plugins/plugin-copy.jar}) is never installed beside it: FileInstall updates the installed
     * bundle from it instead (which of the two files' contents then runs is FileInstall's scan order). It
     * held every headless command for the whole wait (10 s) and was reported as a bare "not installed"; it is now said
     * at once, naming the jar it copies.
     */
    @Test
    void aSecondCopyOfAnInstalledBundleIsNamedAtOnce() throws Exception {
        Path plugins = Files.createDirectories(home.resolve("plugins"));
        emptyBundle(plugins.resolve("twin.jar"), "org.example.twin", "1.0.0.202611280015");
        Files.copy(plugins.resolve("twin.jar"), plugins.resolve("twin-copy.jar"));
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            // no FileInstall here: install the first as it would (its location is the file's URI)
            c.framework().getBundleContext().installBundle(plugins.resolve("twin.jar").toUri().toString()).start();
            long t0 = System.nanoTime();
            var pending = c.awaitPlugins(Duration.ofSeconds(30));
            assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "no wait for a copy that can never be installed");
            assertEquals(List.of("twin-copy.jar: not installed: org.example.twin 1.0.0.202611280015 is already installed from twin.jar"
                    + " (two copies of one bundle: remove one)"), pending);
        }
    }

    /**
     * A plugins folder reached through a symbolic link: FileInstall installs its jars under their real path, and the
     * scan took each for a second copy of itself (found by a review of the duplicate-jar check).
     */
    @Test
    void aPluginsFolderReachedThroughALinkHoldsNoCopies() throws Exception {
        Path real = Files.createDirectories(tmp.resolve("real-plugins"));
        Path plugins = Files.createSymbolicLink(home.resolve("plugins"), real);
        emptyBundle(plugins.resolve("linked.jar"), "org.example.linked", "1.0.0");
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            c.framework().getBundleContext().installBundle(real.resolve("linked.jar").toRealPath().toUri().toString()).start();
            assertEquals(List.of(), c.awaitPlugins(Duration.ofSeconds(30)), "the jar is the installed bundle");
        }
    }

    /**
     * In the shell, FileInstall takes a second copy of an installed plugin for an update of it (it updates the bundle
     * from the copy), and removing either file then uninstalls the plugin, the other left in the folder for good. Both
     * moments passed without a word (FileInstall's own warning is below the container's log level).
     */
    @Test
    void theShellSaysWhenASecondCopyTakesOverAPluginAndWhenItsRemovalLeavesTheFirstUninstalled() throws Exception {
        Path plugins = Files.createDirectories(home.resolve("plugins"));
        emptyBundle(plugins.resolve("twin.jar"), "org.example.twin", "1.0.0");
        var said = new java.io.ByteArrayOutputStream();
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            var ctx = c.framework().getBundleContext();
            PluginWatch.start(ctx, plugins, new java.io.PrintStream(said, true, java.nio.charset.StandardCharsets.UTF_8));
            // no FileInstall here: do what it does, install from the file's URI, then update from the copy
            Bundle b = ctx.installBundle(plugins.resolve("twin.jar").toUri().toString());
            b.start();
            Files.copy(plugins.resolve("twin.jar"), plugins.resolve("twin-copy.jar"));
            try (var in = Files.newInputStream(plugins.resolve("twin-copy.jar"))) {
                b.update(in);
            }
            String copy = awaitText(said, "second copy");
            assertTrue(copy.contains("twin-copy.jar: a second copy of org.example.twin 1.0.0, installed from twin.jar"), copy);
            assertTrue(copy.contains("Remove twin-copy.jar, then move twin.jar out of the folder and back"), copy);
            assertEquals(1, copy.split("second copy", -1).length - 1, "said for the copy's update only\n" + copy);

            Files.delete(plugins.resolve("twin-copy.jar"));
            b.uninstall(); // FileInstall's answer to the copy's removal
            String left = awaitText(said, "was uninstalled");
            assertTrue(left.contains("twin.jar: its bundle org.example.twin 1.0.0 was uninstalled but the jar is still in the folder"), left);

            Bundle again = ctx.installBundle(plugins.resolve("twin.jar").toUri().toString());
            // a rebuilt jar in place, with no copy in the folder: nothing to say. Done here, where no copy exists or comes
            // later: the watch lists the folder on a thread of its own, which a copy made right after the update could
            // still find (the warning then came twice, as a loaded machine's scheduling had it)
            try (var in = Files.newInputStream(plugins.resolve("twin.jar"))) {
                again.update(in);
            }
            Thread.sleep(300); // the watch's look at the folder, before the jar goes
            Files.delete(plugins.resolve("twin.jar"));
            again.uninstall(); // the jar removed: the uninstall is what was asked, nothing to say
            Thread.sleep(500);
            String all = said.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(1, all.split("second copy", -1).length - 1, "an update in place says nothing\n" + all);
            assertEquals(1, all.split("was uninstalled", -1).length - 1, all);
        }
    }

    private static String awaitText(java.io.ByteArrayOutputStream out, String part) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!out.toString(java.nio.charset.StandardCharsets.UTF_8).contains(part) && System.nanoTime() < deadline) Thread.sleep(20);
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** A bundle jar with a manifest and nothing else. */
    private static void emptyBundle(Path jar, String symbolicName, String version) throws Exception {
        var mf = new java.util.jar.Manifest();
        mf.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue("Bundle-ManifestVersion", "2");
        mf.getMainAttributes().putValue("Bundle-SymbolicName", symbolicName);
        mf.getMainAttributes().putValue("Bundle-Version", version);
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), mf)) {
            out.flush();
        }
    }

    @Test
    void aBrokenJarInBundleIsReportedAndTheContainerStillStarts() throws Exception {
        Files.createDirectories(home.resolve("bundle"));
        Files.write(home.resolve("bundle/broken.jar"), new byte[] {'P', 'K', 0});
        try (Container c = Container.builder(home).tmpRoot(tmp).start()) {
            assertEquals(1, c.warnings().size(), c.warnings().toString());
            assertTrue(c.warnings().get(0).startsWith("bundle/broken.jar"), c.warnings().get(0));
            assertEquals(Bundle.ACTIVE, c.framework().getState());
        }
    }

    @Test
    void fileInstallLocationsMapBackToTheirFiles() {
        assertEquals(Path.of("/a/plugins/x.jar"), PluginScan.locationPath("file:/a/plugins/x.jar"));
        assertEquals(Path.of("/a/b c.jar"), PluginScan.locationPath("reference:file:/a/b%20c.jar"));
        assertEquals(null, PluginScan.locationPath("mvn:org.hmsim/x/1.0"));
    }
}
