package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;

import org.osgi.framework.Bundle;

/**
 * A plugin whose provider component cannot be created (its activate throws, a class is missing) starts, and the
 * component framework prints its trace; validation said only "unknown placement policy 'first-fit'" (found by a
 * bundle-author walkthrough). It now names the bundle that registers the policy and says it could not be created,
 * and {@code policies} lists it as not installed. A plugin installed but not started is named too.
 */
class BrokenPluginTest extends ContainerPerTest {
    @Test
    void aProviderThatCouldNotBeCreatedIsNamedByValidateAndPolicies() throws Exception {
        Bundle broken = container.context().installBundle(missingClass(Hmsim.pluginJar(), dir.resolve("broken.jar")).toUri().toString());
        broken.start();
        assertEquals(Bundle.ACTIVE, broken.getState(), "the bundle itself starts; only its component fails");

        Hmsim.Result listed = Hmsim.run(container, "policies");
        assertEquals(0, listed.code(), listed::toString);
        assertFalse(Hmsim.lists(listed, "placement", "first-fit"), "not listed as installed\n" + listed);
        assertTrue(listed.out().contains("  first-fit 1.0.0 NOT INSTALLED  [org.hmsim.example.plugin "), listed::toString);

        Path study = Studies.tiny(dir, "broken", "first-fit", "local");
        Hmsim.Result refused = Hmsim.run(container, "validate", study.toString());
        assertEquals(2, refused.code(), refused::toString);
        StudyTest.assertLocated(refused, study, "first-fit");
        assertTrue(refused.err().contains("unknown placement policy 'first-fit'")
                && refused.err().contains("org.hmsim.example.plugin ") && refused.err().contains(" registers placement policy 'first-fit' 1.0.0 but its"
                        + " component could not be created"), refused::toString);

        broken.uninstall();
        Hmsim.Result gone = Hmsim.run(container, "validate", study.toString());
        assertFalse(gone.err().contains("registers"), "gone with its bundle\n" + gone);
        assertFalse(Hmsim.run(container, "policies").out().contains("NOT INSTALLED"));
    }

    /** A bundle installed in the shell without {@code start}: validation says so and names its id. */
    @Test
    void aPluginInstalledButNotStartedIsNamedByValidate() throws Exception {
        Bundle idle = container.context().installBundle(Hmsim.pluginJar().toUri().toString());
        Path study = Studies.tiny(dir, "idle", "first-fit", "local");
        Hmsim.Result refused = Hmsim.run(container, "validate", study.toString());
        assertEquals(2, refused.code(), refused::toString);
        assertTrue(refused.err().contains("unknown placement policy 'first-fit'") && refused.err().contains("installed but not started")
                && refused.err().contains("org.hmsim.example.plugin ") && refused.err().contains("(id " + idle.getBundleId() + ")"), refused::toString);
        idle.start();
        Hmsim.Result valid = Hmsim.run(container, "validate", study.toString());
        assertEquals(0, valid.code(), valid::toString);
    }

    /** The example plugin whose component names an implementation class the bundle does not hold. */
    private static Path missingClass(Path jar, Path to) throws Exception {
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            Manifest mf = new Manifest(in.getManifest());
            try (OutputStream os = Files.newOutputStream(to); JarOutputStream out = new JarOutputStream(os, mf)) {
                for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
                    byte[] b = in.readAllBytes();
                    if (e.getName().startsWith("OSGI-INF/") && e.getName().endsWith(".xml")) {
                        String xml = new String(b, StandardCharsets.UTF_8);
                        assertTrue(xml.contains("<implementation class=\""), xml);
                        b = xml.replaceFirst("<implementation class=\"[^\"]+\"", "<implementation class=\"org.hmsim.example.plugin.Gone\"")
                                .getBytes(StandardCharsets.UTF_8);
                    }
                    out.putNextEntry(new JarEntry(e.getName()));
                    out.write(b);
                    out.closeEntry();
                }
            }
        }
        return to;
    }
}
