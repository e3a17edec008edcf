package org.hmsim.launcher;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.osgi.framework.Bundle;

/** Which jars of a container folder become bundles. */
final class BundleJars {
    /** The JLine console needs a real terminal; the plain Gogo shell works on pipes. */
    private static final Set<String> JLINE_ONLY = Set.of("org.apache.felix.gogo.jline", "org.jline");
    private static final Set<String> PLAIN_ONLY = Set.of("org.apache.felix.gogo.shell");

    private BundleJars() {}

    /** The jars directly in {@code dir}, sorted by name so that every start installs in the same order. */
    static List<Path> list(Path dir) throws IOException {
        return Container.jarsIn(dir);
    }

    /**
     * For a headless command on a terminal: JLine's bundle alone (no console), whose character-width table the kernel's
     * progress bar needs; without it {@code hmsim run} never showed its bar (found by a design review).
     */
    static List<Path> terminalLibrary(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        for (Path jar : list(dir)) if (symbolicName(jar).equals("org.jline")) out.add(jar);
        return out;
    }

    /** The shell bundles for one kind of console: none, JLine's, or the plain one. */
    static List<Path> shellBundles(Path dir, Container.ShellKind kind) throws IOException {
        List<Path> out = new ArrayList<>();
        if (kind == Container.ShellKind.NONE) return out;
        Set<String> skip = kind == Container.ShellKind.JLINE ? PLAIN_ONLY : JLINE_ONLY;
        for (Path jar : list(dir)) {
            if (!skip.contains(symbolicName(jar))) out.add(jar);
        }
        return out;
    }

    /** Bundle-SymbolicName without its directives, or "" for a plain jar. */
    static String symbolicName(Path jar) throws IOException {
        String bsn = header(jar, "Bundle-SymbolicName");
        if (bsn == null) return "";
        int semi = bsn.indexOf(';');
        return (semi < 0 ? bsn : bsn.substring(0, semi)).trim();
    }

    /** Bundle-Version as the framework reads it ("0.0.0" when absent), or null if the jar has none it can parse. */
    static org.osgi.framework.Version version(Path jar) throws IOException {
        String v = header(jar, "Bundle-Version");
        try {
            return org.osgi.framework.Version.parseVersion(v == null ? null : v.trim());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A main attribute of the jar's manifest, or null (no manifest, or no such header). */
    private static String header(Path jar, String name) throws IOException {
        try (JarFile f = new JarFile(jar.toFile())) {
            Manifest m = f.getManifest();
            return m == null ? null : m.getMainAttributes().getValue(name);
        }
    }

    static String stateName(int state) {
        return switch (state) {
            case Bundle.UNINSTALLED -> "UNINSTALLED";
            case Bundle.INSTALLED -> "INSTALLED (not resolved)";
            case Bundle.RESOLVED -> "RESOLVED";
            case Bundle.STARTING -> "STARTING";
            case Bundle.STOPPING -> "STOPPING";
            case Bundle.ACTIVE -> "ACTIVE";
            default -> "state " + state;
        };
    }
}
