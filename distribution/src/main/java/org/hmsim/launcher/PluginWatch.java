package org.hmsim.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;

/**
 * In the shell, a jar dropped into (or replaced in) the hot-deploy folder that does not start gets one line
 * saying why, the missing import usually. FileInstall logs such a failure as a stack trace, which the
 * container's configuration keeps quiet (felix.fileinstall.log.level=1): without this the failure said nothing.
 *
 * <p>A second copy of an installed plugin (the same symbolic name and version under another file name) is not
 * installed beside it: FileInstall updates the installed bundle from the copy, and from then on removing either file
 * uninstalls the plugin while the other stays in the folder, never to be installed again by FileInstall. Both moments
 * are said here, with what to do; FileInstall's own warning is below the configured log level.
 */
final class PluginWatch implements BundleListener {
    /** How long FileInstall is given to start a bundle it installed (it polls every second). */
    private static final long SETTLE_MS = 2500;

    private final BundleContext ctx;
    private final Path dir;
    private final PrintStream err;

    private PluginWatch(BundleContext ctx, Path dir, PrintStream err) {
        this.ctx = ctx;
        this.dir = realPath(dir.toAbsolutePath().normalize());
        this.err = err;
    }

    /** FileInstall installs under the folder's real path: a plugins folder reached through a link must match it. */
    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (java.io.IOException e) {
            return p;
        }
    }

    static void start(BundleContext ctx, Path plugins, PrintStream err) {
        ctx.addBundleListener(new PluginWatch(ctx, plugins, err));
    }

    @Override
    public void bundleChanged(BundleEvent event) {
        int type = event.getType();
        if (type != BundleEvent.INSTALLED && type != BundleEvent.UPDATED && type != BundleEvent.UNINSTALLED) return;
        Bundle b = event.getBundle();
        Path jar = PluginScan.locationPath(b.getLocation());
        if (jar == null || !dir.equals(realPath(jar.getParent()))) return;
        // the bundle's name and version are read now: an uninstalled bundle's headers may be gone by the time the thread runs
        String name = b.getSymbolicName();
        org.osgi.framework.Version version = b.getVersion();
        Runnable r = switch (type) {
            case BundleEvent.UNINSTALLED -> () -> leftBehind(name, version, jar);
            case BundleEvent.UPDATED -> () -> {
                copies(name, version, jar);
                check(b, jar);
            };
            default -> () -> check(b, jar);
        };
        Thread t = new Thread(r, "hmsim-plugin-watch");
        t.setDaemon(true);
        t.start();
    }

    /** An update of a plugin while another jar of the folder is the same bundle: FileInstall took that jar for this one. */
    private void copies(String name, org.osgi.framework.Version version, Path jar) {
        if (name == null) return;
        for (Path other : jarsBeside(jar)) {
            try {
                if (!name.equals(BundleJars.symbolicName(other)) || !version.equals(BundleJars.version(other))) continue;
            } catch (java.io.IOException | RuntimeException e) {
                continue; // unreadable (still being copied in): not known to be a copy
            }
            err.println("hmsim: warning: " + other.getFileName() + ": a second copy of " + name + " " + version + ", installed from "
                    + jar.getFileName() + ": FileInstall updated that bundle from it instead of installing it, and removing either"
                    + " file now uninstalls the plugin. Remove " + other.getFileName() + ", then move " + jar.getFileName()
                    + " out of the folder and back (or restart the shell)");
            err.flush();
        }
    }

    /**
     * A plugin uninstalled while its jar is still in the folder (its second copy was removed, or {@code uninstall} by
     * hand): FileInstall does not install that jar again until it leaves the folder and comes back.
     */
    private void leftBehind(String name, org.osgi.framework.Version version, Path jar) {
        if (!java.nio.file.Files.isRegularFile(jar)) return; // the jar was removed: the uninstall is what was asked
        err.println("hmsim: warning: " + jar.getFileName() + ": its bundle " + name + " " + version + " was uninstalled but the jar is"
                + " still in the folder, and FileInstall will not install it again: move it out of the folder and back (or restart the shell)");
        err.flush();
    }

    private List<Path> jarsBeside(Path jar) {
        List<Path> out = new java.util.ArrayList<>();
        try {
            for (Path p : Container.jarsIn(dir)) {
                if (!PluginScan.sameFile(p, jar)) out.add(p);
            }
        } catch (java.io.IOException e) {
            // an unreadable folder: FileInstall cannot see copies in it either
        }
        return out;
    }

    private void check(Bundle b, Path jar) {
        try {
            Thread.sleep(SETTLE_MS);
        } catch (InterruptedException e) {
            return;
        }
        if (b.getState() == Bundle.UNINSTALLED || b.getState() == Bundle.ACTIVE || Container.isFragment(b)) return;
        // never start it to ask why (a bundle stopped on purpose must stay stopped): resolve it; only if that fails is
        // starting it safe, and its exception says what is missing
        org.osgi.framework.wiring.FrameworkWiring w = ctx.getBundle(0).adapt(org.osgi.framework.wiring.FrameworkWiring.class);
        if (b.getState() == Bundle.INSTALLED && !w.resolveBundles(java.util.List.of(b))) {
            err.println("hmsim: warning: " + jar.getFileName() + ": " + BundleJars.stateName(b.getState()) + PluginScan.reason(b, ctx));
        } else if (!Container.isFragment(b) && b.getState() == Bundle.RESOLVED
                && b.adapt(org.osgi.framework.startlevel.BundleStartLevel.class).isPersistentlyStarted()) {
            err.println("hmsim: warning: " + jar.getFileName() + ": resolved but did not start (bundle " + b.getBundleId()
                    + ": its activator failed; `start " + b.getBundleId() + "` says why)");
        }
        err.flush();
    }
}
