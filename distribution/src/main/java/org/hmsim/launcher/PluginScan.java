package org.hmsim.launcher;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.wiring.BundleCapability;
import org.osgi.framework.wiring.BundleRevision;
import org.osgi.framework.wiring.BundleWiring;

/**
 * Waits for FileInstall's first pass over the hot-deploy folder. A headless command must see the
 * plugins a user dropped there: without this wait, {@code hmsim policies} could run before FileInstall
 * has installed them and silently list the built-in policies only.
 */
final class PluginScan {
    private static final long POLL_MS = 25;

    private final BundleContext ctx;
    private final Path dir;

    PluginScan(BundleContext ctx, Path dir) {
        this.ctx = ctx;
        this.dir = dir;
    }

    /** Returns one line per jar that is not installed and started when the time is up (empty = all are). */
    List<String> await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> missing;
        do {
            missing = pending(false);
            if (missing.isEmpty()) return missing;
            Thread.sleep(POLL_MS);
        } while (System.nanoTime() < deadline);
        return pending(true);
    }

    private List<String> pending(boolean explain) {
        List<String> out = new ArrayList<>();
        List<Path> jars;
        try {
            jars = Container.jarsIn(dir);
        } catch (IOException e) {
            out.add(dir + ": " + e.getMessage());
            return out;
        }
        for (Path jar : jars) {
            Bundle b = bundleAt(jar);
            if (b == null) {
                out.add(jar.getFileName() + ": not installed" + (explain ? " (is it an OSGi bundle?)" : ""));
            } else if (!started(b)) {
                out.add(jar.getFileName() + ": " + BundleJars.stateName(b.getState()) + (explain ? reason(b, ctx) : ""));
            }
        }
        return out;
    }

    static boolean started(Bundle b) {
        return Container.isFragment(b) ? b.getState() == Bundle.RESOLVED : b.getState() == Bundle.ACTIVE;
    }

    /** Asks the framework why a bundle does not start (the missing import, usually). */
    static String reason(Bundle b, BundleContext ctx) {
        if (Container.isFragment(b)) return "";
        try {
            b.start(Bundle.START_TRANSIENT);
            return "";
        } catch (BundleException | IllegalStateException e) {
            return " — " + missingImport(e.getMessage(), ctx);
        }
    }

    private static final Pattern MISSING_PACKAGE = Pattern.compile(
            "missing requirement .*?\\(osgi\\.wiring\\.package=([^)]+)\\)(?:\\(version>=([^)]+)\\))?(?:\\(!\\(version>=([^)]+)\\)\\))?");

    /**
     * Felix's resolver message, said as a plugin author needs it when a package is missing: which package and
     * versions the bundle needs, and which versions this container has (a plugin built against a newer api);
     * any other message as it is.
     */
    static String missingImport(String message, BundleContext ctx) {
        Matcher m = message == null ? null : MISSING_PACKAGE.matcher(message);
        if (m == null || !m.find()) return message;
        String pkg = m.group(1);
        String range = m.group(2) == null ? "" : " version " + m.group(2) + (m.group(3) == null ? " or later" : " up to (not including) " + m.group(3));
        List<String> have = new ArrayList<>();
        for (Bundle o : ctx.getBundles()) {
            BundleWiring w = o.adapt(BundleWiring.class);
            if (w == null) continue;
            for (BundleCapability c : w.getCapabilities(BundleRevision.PACKAGE_NAMESPACE))
                if (pkg.equals(c.getAttributes().get(BundleRevision.PACKAGE_NAMESPACE))) have.add(String.valueOf(c.getAttributes().get("version")));
        }
        return "it needs package " + pkg + range + "; this container has " + (have.isEmpty() ? "none" : String.join(", ", have))
                + (have.isEmpty() ? "" : " (built against a newer hmsim api?)");
    }

    /** The bundle FileInstall installed from this file; it uses the file's URI as location. */
    private Bundle bundleAt(Path jar) {
        for (Bundle b : ctx.getBundles()) {
            Path p = locationPath(b.getLocation());
            if (p != null && p.equals(jar)) return b;
        }
        return null;
    }

    static Path locationPath(String location) {
        if (location == null) return null;
        String loc = location.startsWith("reference:") ? location.substring("reference:".length()) : location;
        if (!loc.startsWith("file:")) return null;
        try {
            return Path.of(URI.create(loc)).toAbsolutePath().normalize();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
