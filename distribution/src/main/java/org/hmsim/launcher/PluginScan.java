package org.hmsim.launcher;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;

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
                out.add(jar.getFileName() + ": " + BundleJars.stateName(b.getState()) + (explain ? reason(b) : ""));
            }
        }
        return out;
    }

    private static boolean started(Bundle b) {
        return Container.isFragment(b) ? b.getState() == Bundle.RESOLVED : b.getState() == Bundle.ACTIVE;
    }

    /** Asks the framework why a bundle does not start (the missing import, usually). */
    private static String reason(Bundle b) {
        if (Container.isFragment(b)) return "";
        try {
            b.start(Bundle.START_TRANSIENT);
            return "";
        } catch (BundleException | IllegalStateException e) {
            return " — " + e.getMessage();
        }
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
