package org.hmsim.launcher;

import java.io.PrintStream;
import java.nio.file.Path;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleEvent;
import org.osgi.framework.BundleListener;

/**
 * In the shell, a jar dropped into (or replaced in) the hot-deploy folder that does not start gets one line
 * saying why, the missing import usually. FileInstall logs such a failure as a stack trace, which the
 * container's configuration keeps quiet (felix.fileinstall.log.level=1): without this the failure said nothing.
 */
final class PluginWatch implements BundleListener {
    /** How long FileInstall is given to start a bundle it installed (it polls every second). */
    private static final long SETTLE_MS = 2500;

    private final BundleContext ctx;
    private final Path dir;
    private final PrintStream err;

    private PluginWatch(BundleContext ctx, Path dir, PrintStream err) {
        this.ctx = ctx;
        this.dir = dir.toAbsolutePath().normalize();
        this.err = err;
    }

    static void start(BundleContext ctx, Path plugins, PrintStream err) {
        ctx.addBundleListener(new PluginWatch(ctx, plugins, err));
    }

    @Override
    public void bundleChanged(BundleEvent event) {
        if (event.getType() != BundleEvent.INSTALLED && event.getType() != BundleEvent.UPDATED) return;
        Bundle b = event.getBundle();
        Path jar = PluginScan.locationPath(b.getLocation());
        if (jar == null || !dir.equals(jar.getParent())) return;
        Thread t = new Thread(() -> check(b, jar), "hmsim-plugin-watch");
        t.setDaemon(true);
        t.start();
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
