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
 * has installed them and silently list the built-in policies only. A plugin is there once it is started and the
 * component runtime has registered its components ({@link ComponentsSettled}).
 */
final class PluginScan {
    private static final long POLL_MS = 25;

    /**
     * How long a started plugin's components may stay unregistered before the wait gives up on them: SCR takes them up
     * on the thread that started the bundle, in milliseconds, unless one needs a service nobody offers.
     */
    static final Duration SETTLE_GRACE = Duration.ofSeconds(3);

    private final BundleContext ctx;
    private final Path dir;
    /** When each started bundle was first seen with components SCR had not registered (its bundle id; System.nanoTime). */
    private final java.util.Map<Long, Long> unsettledSince = new java.util.HashMap<>();

    PluginScan(BundleContext ctx, Path dir) {
        this.ctx = ctx;
        this.dir = dir;
    }

    /**
     * Returns one line per jar that is not installed and started when the time is up (empty = all are). Jars that
     * cannot come up end the wait at once instead of at the timeout (a plain jar, a bundle that does not resolve once
     * every jar is installed): each cost every headless command ~10 s before (found by a researcher's walk-through).
     */
    List<String> await(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        do {
            Scan s = scan(false);
            if (s.waiting == 0) return s.lines();
            Thread.sleep(POLL_MS);
        } while (System.nanoTime() < deadline);
        return scan(true).lines();
    }

    /** The jars not up yet: how many may still come up, and a line for each that is not up. */
    private record Scan(int waiting, List<String> lines) {}

    /** {@code timedOut}: the wait is over, so every bundle not up is asked why. */
    private Scan scan(boolean timedOut) {
        List<String> out = new ArrayList<>();
        List<Path> jars;
        try {
            jars = Container.jarsIn(dir);
        } catch (IOException e) {
            out.add(dir + ": " + e.getMessage());
            return new Scan(0, out);
        }
        int waiting = 0, notInstalled = 0;
        List<Bundle> down = new ArrayList<>();
        for (Path jar : jars) {
            Bundle b = bundleAt(jar);
            if (b == null) {
                String name = bundleName(jar);
                // Felix installs one bundle per symbolic name and version: a second copy never comes up
                Bundle twin = name == null || name.isEmpty() ? null : twinOf(jar, name);
                if (name == null && recentlyWritten(jar)) { // unreadable and just written: possibly still being copied in
                    notInstalled++;
                    waiting++;
                    out.add(jar.getFileName() + ": not installed (not a readable jar: still being written?)");
                } else if (name == null) {
                    out.add(jar.getFileName() + ": not a readable jar (a corrupt or partial file?)");
                } else if (twin != null) {
                    Path other = locationPath(twin.getLocation());
                    out.add(jar.getFileName() + ": not installed: " + name + " " + twin.getVersion() + " is already installed from "
                            + (other == null ? twin.getLocation() : other.getFileName().toString()) + " (two copies of one bundle: remove one)");
                } else if (!name.isEmpty()) {
                    notInstalled++;
                    waiting++;
                    out.add(jar.getFileName() + ": not installed");
                } else out.add(jar.getFileName() + ": not an OSGi bundle (its manifest has no Bundle-SymbolicName)");
            } else if (!started(b)) down.add(b);
            else if (!ComponentsSettled.settled(ctx, b)) {
                long since = unsettledSince.computeIfAbsent(b.getBundleId(), id -> System.nanoTime());
                boolean graceLeft = System.nanoTime() - since < SETTLE_GRACE.toNanos();
                if (graceLeft && !timedOut) {
                    waiting++;
                    out.add(jar.getFileName() + ": active, its components not yet registered");
                } else if (graceLeft) out.add(jar.getFileName() + ": active, but the component runtime had not registered all its components"
                        + " when the wait ended");
                else out.add(jar.getFileName() + ": active, but the component runtime has not registered all its components after "
                        + SETTLE_GRACE.toSeconds() + " s (a component that references a service nobody offers, or a component"
                        + " description it could not read: see the log)");
            } else if (offersNothing(b)) out.add(jar.getFileName() + ": active but declares no DS component (no Service-Component header),"
                    + " so it offers no policy or workload: is @Component missing on its provider?");
        }
        // with every bundle jar installed, one that cannot resolve never will; one that resolves is FileInstall's to start
        org.osgi.framework.wiring.FrameworkWiring w = ctx.getBundle(0).adapt(org.osgi.framework.wiring.FrameworkWiring.class);
        List<Bundle> stuck = new ArrayList<>();
        for (Bundle b : down) {
            if (notInstalled == 0 && b.getState() == Bundle.INSTALLED && !Container.isFragment(b) && !w.resolveBundles(List.of(b))) stuck.add(b);
            else waiting++;
        }
        // why a bundle does not start is asked (a start attempt) only once nothing is left to wait for, not on every poll
        boolean last = waiting == 0 || timedOut;
        for (Bundle b : down) {
            Path jar = locationPath(b.getLocation());
            out.add((jar == null ? b.getLocation() : jar.getFileName().toString()) + ": " + BundleJars.stateName(b.getState())
                    + (last && (timedOut || stuck.contains(b)) ? reason(b, ctx) : ""));
        }
        return new Scan(waiting, out);
    }

    /** A plugin that uses the hmsim api but has no DS components registers nothing the kernel could find. */
    static boolean offersNothing(Bundle b) {
        // an activator may register providers itself, and a library bundle (it exports) offers none on purpose
        if (Container.isFragment(b) || b.getHeaders().get("Service-Component") != null || b.getHeaders().get("Bundle-Activator") != null
                || b.getHeaders().get("Export-Package") != null) return false;
        String imports = b.getHeaders().get("Import-Package");
        return imports != null && imports.contains("org.hmsim.api");
    }

    /** Whether {@code jar} changed within the last 2 s (a copy in progress), so that its being unreadable may pass. */
    private static boolean recentlyWritten(Path jar) {
        try {
            return System.currentTimeMillis() - java.nio.file.Files.getLastModifiedTime(jar).toMillis() < 2_000;
        } catch (IOException e) {
            return false;
        }
    }

    /** The jar's Bundle-SymbolicName, "" for a plain jar, null if it cannot be read (yet). */
    private static String bundleName(Path jar) {
        try {
            return BundleJars.symbolicName(jar);
        } catch (IOException e) {
            return null;
        }
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

    /** An installed bundle from another file with the jar's symbolic name and version, or null. */
    private Bundle twinOf(Path jar, String name) {
        org.osgi.framework.Version version;
        try {
            version = BundleJars.version(jar);
        } catch (IOException e) {
            return null;
        }
        if (version == null) return null;
        for (Bundle b : ctx.getBundles()) {
            if (name.equals(b.getSymbolicName()) && version.equals(b.getVersion()) && !sameFile(jar, locationPath(b.getLocation()))) return b;
        }
        return null;
    }

    /** The bundle FileInstall installed from this file; it uses the file's URI as location. */
    private Bundle bundleAt(Path jar) {
        for (Bundle b : ctx.getBundles()) {
            if (sameFile(jar, locationPath(b.getLocation()))) return b;
        }
        return null;
    }

    /**
     * Whether a bundle's location is this jar. FileInstall records the plugins folder's real path (it resolves symbolic
     * links), so a folder reached through one (a linked $HOME, -Dhmsim.plugins=...) names the same file by another path.
     */
    static boolean sameFile(Path jar, Path location) {
        if (location == null) return false;
        if (location.equals(jar)) return true;
        try {
            return java.nio.file.Files.isSameFile(jar, location);
        } catch (IOException | SecurityException e) {
            return false; // one of them is gone: not the same file
        }
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
