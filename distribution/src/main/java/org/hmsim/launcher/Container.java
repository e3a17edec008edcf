package org.hmsim.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.framework.Constants;
import org.osgi.framework.InvalidSyntaxException;
import org.osgi.framework.launch.Framework;
import org.osgi.framework.launch.FrameworkFactory;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.util.tracker.ServiceTracker;

/**
 * An embedded Felix framework holding the bundles of a container folder: everything in
 * {@code bundle/} (and, for the interactive shell, {@code bundle/shell/}), plus whatever FileInstall
 * finds in the hot-deploy folder. {@link Main} uses it for {@code bin/hmsim}; the integration tests use
 * it to start exactly the container a user gets.
 */
public final class Container implements AutoCloseable {
    /** Bundles only the interactive shell needs; the headless commands never load them. */
    static final String SHELL_DIR = "bundle/shell";
    /** -Dhmsim.trace=true: print how long each step of the start takes. */
    static final boolean TRACE = Boolean.getBoolean("hmsim.trace");
    /** The bundle that registers the command service. */
    static final String KERNEL = "org.hmsim.kernel";

    private final Path home;
    private final Path plugins;
    private final Path storage;
    private final Framework framework;
    private final List<String> warnings = new ArrayList<>();
    private final List<Bundle> shellBundles = new ArrayList<>();
    private final Thread cleanup;
    /** The JVM is exiting (Ctrl-C, SIGTERM) and the framework is being stopped under whatever still runs. */
    private static volatile boolean shuttingDown;

    static boolean shuttingDown() { return shuttingDown; }
    private volatile boolean stopped;
    private volatile boolean shellStarted;

    private Container(Path home, Path plugins, Path storage, Framework framework) {
        this.home = home;
        this.plugins = plugins;
        this.storage = storage;
        this.framework = framework;
        this.cleanup = new Thread(() -> {
            shuttingDown = true;
            stopQuietly();
        }, "hmsim-container-cleanup");
    }

    public static Builder builder(Path home) {
        return new Builder(home);
    }

    /** How to start a container; {@link #start()} returns it running with every bundle started. */
    public static final class Builder {
        private final Path home;
        private Path plugins;
        private Path tmpRoot = Path.of(System.getProperty("java.io.tmpdir"));
        private ShellKind shell = ShellKind.NONE;
        private final Map<String, String> extra = new LinkedHashMap<>();

        private Builder(Path home) {
            this.home = home.toAbsolutePath().normalize();
        }

        /** The hot-deploy folder (default {@code home/plugins}). */
        public Builder plugins(Path dir) {
            this.plugins = dir.toAbsolutePath().normalize();
            return this;
        }

        /** Where the per-run bundle cache is created (default java.io.tmpdir). */
        public Builder tmpRoot(Path dir) {
            this.tmpRoot = dir;
            return this;
        }

        public Builder shell(ShellKind kind) {
            this.shell = kind;
            return this;
        }

        /** A framework property that wins over conf/config.properties and system properties. */
        public Builder property(String key, String value) {
            extra.put(key, value);
            return this;
        }

        public Container start() throws IOException, BundleException {
            Path pluginDir = plugins != null ? plugins : home.resolve("plugins");
            Files.createDirectories(pluginDir);
            Path storage = Storage.create(tmpRoot);
            Container c = null;
            try {
                Map<String, String> props = ContainerConfig.frameworkProperties(home, pluginDir, Storage.cache(storage), extra);
                c = new Container(home, pluginDir, storage, newFramework(props));
                c.boot(shell);
                return c;
            } catch (IOException | BundleException | RuntimeException e) {
                if (c != null) c.close();
                Storage.delete(storage);
                throw e;
            }
        }
    }

    /** Which Gogo console to add: none (headless), the JLine console (a terminal), the plain one (pipes). */
    public enum ShellKind { NONE, JLINE, PLAIN }

    private static Framework newFramework(Map<String, String> props) {
        FrameworkFactory factory = ServiceLoader.load(FrameworkFactory.class, Container.class.getClassLoader())
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no OSGi framework on the class path (lib/ must hold the Felix framework jar)"));
        return factory.newFramework(props);
    }

    private void boot(ShellKind shell) throws IOException, BundleException {
        Runtime.getRuntime().addShutdownHook(cleanup);
        long t0 = System.nanoTime();
        framework.init();
        if (TRACE) System.err.printf("  framework initialised in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        BundleContext ctx = framework.getBundleContext();
        List<Bundle> installed = new ArrayList<>();
        for (Path jar : BundleJars.list(home.resolve("bundle"))) install(ctx, jar, installed);
        for (Path jar : BundleJars.shellBundles(home.resolve(SHELL_DIR), shell)) install(ctx, jar, shellBundles);
        if (shell == ShellKind.NONE && System.console() != null) // hmsim run on a terminal draws a progress bar
            for (Path jar : BundleJars.terminalLibrary(home.resolve(SHELL_DIR))) install(ctx, jar, installed);
        if (TRACE) System.err.printf("  bundles installed after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        framework.start();
        if (TRACE) System.err.printf("  framework started after %d ms%n", (System.nanoTime() - t0) / 1_000_000);
        startAll(installed);
    }

    /**
     * Starts the Gogo console bundles installed by {@link ShellKind}. Call it once the commands are
     * there: a console started earlier answers "Command not found" to the first {@code sim:} command.
     */
    public void startShell() {
        shellStarted = true;
        framework.adapt(FrameworkWiring.class).resolveBundles(shellBundles);
        // JLine finds its terminal providers (exec, jni…) through the thread context class loader, and
        // the console thread inherits ours: without this it only ever builds a "dumb" terminal.
        Thread t = Thread.currentThread();
        ClassLoader saved = t.getContextClassLoader();
        ClassLoader jline = classLoaderOf("org.jline");
        if (jline != null) t.setContextClassLoader(jline);
        try {
            startAll(shellBundles);
        } finally {
            t.setContextClassLoader(saved);
        }
    }

    private ClassLoader classLoaderOf(String symbolicName) {
        for (Bundle b : shellBundles) {
            if (!symbolicName.equals(b.getSymbolicName())) continue;
            BundleWiring w = b.adapt(BundleWiring.class);
            return w == null ? null : w.getClassLoader();
        }
        return null;
    }

    private void startAll(List<Bundle> bundles) {
        for (Bundle b : bundles) {
            if (isFragment(b)) continue;
            long t0 = System.nanoTime();
            try {
                b.start();
                if (TRACE) System.err.printf("  started %s in %d ms%n", b.getSymbolicName(), (System.nanoTime() - t0) / 1_000_000);
            } catch (BundleException e) {
                warnings.add(b.getSymbolicName() + " " + b.getVersion() + " did not start: " + e.getMessage());
            }
        }
    }

    /** Installs one jar; a broken one is reported, not fatal: the others still make a usable container. */
    private void install(BundleContext ctx, Path jar, List<Bundle> into) {
        try {
            // reference: makes Felix read the jar in place instead of copying it into the cache.
            into.add(ctx.installBundle("reference:" + jar.toUri()));
        } catch (BundleException e) {
            warnings.add(home.relativize(jar) + " is not a bundle that can be installed: " + e.getMessage());
        }
    }

    static boolean isFragment(Bundle b) {
        return b.getHeaders("").get(Constants.FRAGMENT_HOST) != null;
    }

    /** Problems met while starting the bundles of {@code bundle/} (a bundle that did not resolve…). */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public BundleContext context() {
        return framework.getBundleContext();
    }

    public Framework framework() {
        return framework;
    }

    public Path home() {
        return home;
    }

    public Path plugins() {
        return plugins;
    }

    /**
     * Waits until FileInstall has installed and started every jar now in the hot-deploy folder.
     * Returns the jars that did not get there in time, each with its state and reason.
     */
    public List<String> awaitPlugins(Duration timeout) throws InterruptedException {
        return new PluginScan(context(), plugins).await(timeout);
    }

    /**
     * The kernel's command service, waiting for it up to {@code timeout}; null if it never appeared.
     * Gives up early when the kernel bundle is there but cannot start (an unresolved import): waiting
     * would only delay the error.
     */
    public CommandService awaitCommands(Duration timeout) throws InterruptedException {
        ServiceTracker<Object, Object> tracker;
        try {
            tracker = new ServiceTracker<>(context(), context().createFilter(CommandService.FILTER), null);
        } catch (InvalidSyntaxException e) {
            throw new IllegalStateException(e);
        }
        tracker.open(true);
        try {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                Object service = tracker.waitForService(100);
                if (service != null) return new CommandService(service);
                if (kernelCannotStart() || System.nanoTime() > deadline) return null;
            }
        } finally {
            tracker.close();
        }
    }

    private boolean kernelCannotStart() {
        for (Bundle b : context().getBundles()) {
            if (KERNEL.equals(b.getSymbolicName())) return (b.getState() & (Bundle.INSTALLED | Bundle.UNINSTALLED)) != 0;
        }
        return false;
    }

    /**
     * Runs one command of the kernel ({@code run}, {@code validate}, {@code policies}, …) as
     * {@code bin/hmsim} would, and returns its exit code.
     */
    public int execute(PrintStream out, PrintStream err, String... args) throws InterruptedException {
        CommandService commands = awaitCommands(Duration.ofSeconds(20));
        if (commands == null) {
            err.println("hmsim: the kernel's command service " + CommandService.FILTER + " is not available.");
            for (String s : inactiveBundles()) err.println("  " + s);
            for (String s : warnings) err.println("  " + s);
            return 1;
        }
        return commands.execute(args, out, err);
    }

    /** Every bundle that is not ACTIVE (fragments: not RESOLVED), as "name version: STATE". */
    public List<String> inactiveBundles() {
        List<String> out = new ArrayList<>();
        for (Bundle b : context().getBundles()) {
            if (!shellStarted && shellBundles.contains(b)) continue;
            boolean ok = isFragment(b) ? b.getState() == Bundle.RESOLVED : b.getState() == Bundle.ACTIVE;
            if (!ok) out.add(b.getSymbolicName() + " " + b.getVersion() + ": " + BundleJars.stateName(b.getState()));
        }
        return out;
    }

    /** Blocks until something (the shell's {@code exit}, {@link #close()}) stops the framework. */
    public void awaitStop() throws InterruptedException {
        framework.waitForStop(0);
    }

    /** Stops the framework and deletes its bundle cache. */
    @Override
    public void close() {
        stopQuietly();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException ignored) {
            // Already shutting down: the hook is running or has run.
        }
    }

    private synchronized void stopQuietly() {
        if (stopped) return;
        stopped = true;
        try {
            framework.stop();
            framework.waitForStop(15_000);
        } catch (BundleException | InterruptedException | RuntimeException e) {
            // Stopping is best effort; the cache is removed either way.
        }
        Storage.delete(storage);
    }

    /** The temporary folder holding the bundle cache (tests check it is gone after {@link #close()}). */
    public Path storage() {
        return storage;
    }

    static List<Path> jarsIn(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "*.jar")) {
            for (Path p : s) if (Files.isRegularFile(p)) out.add(p.toAbsolutePath().normalize());
        }
        out.sort(null);
        return out;
    }
}
