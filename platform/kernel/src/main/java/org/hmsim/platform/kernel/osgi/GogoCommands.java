package org.hmsim.platform.kernel.osgi;

import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.osgi.framework.Bundle;
import org.osgi.framework.BundleContext;
import org.osgi.framework.wiring.FrameworkWiring;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The {@code sim:} commands of the Gogo shell. {@code sim:run} starts the study in the background and
 * returns, so {@code sim:status} and {@code sim:stop} can follow it.
 */
@Component(service = GogoCommands.class, property = {
        "osgi.command.scope=sim",
        "osgi.command.function=run", "osgi.command.function=validate", "osgi.command.function=policies",
        "osgi.command.function=workloads", "osgi.command.function=status", "osgi.command.function=stop", "osgi.command.function=await",
        "osgi.command.function=bench", "osgi.command.function=report", "osgi.command.function=compare", "osgi.command.function=collect",
        "osgi.command.function=trace", "osgi.command.function=replay", "osgi.command.function=swap",
        "osgi.command.function=conform", "osgi.command.function=refresh"})
public final class GogoCommands {
    /** System property: the exit code of the last sim: command that failed in this JVM. */
    public static final String SHELL_EXIT_CODE = "hmsim.shell.exit_code";

    @Reference(name = "kernel")
    private KernelComponent kernel;

    private BundleContext context;

    @Activate
    void activate(BundleContext ctx) { this.context = ctx; }

    /**
     * Refreshes the bundles whose old revisions are still wired after an uninstall or update. The shipped
     * Gogo's own {@code refresh} without arguments fails (a NullPointerException in gogo.command 1.1.2, the
     * version available here) and {@code refresh ID} takes only installed bundles.
     */
    public void refresh(String... args) {
        if (unsetArgument("sim:refresh", args)) return;
        if (args.length > 0) {
            System.err.println("sim:refresh takes no argument: it refreshes every bundle an uninstall or update left pending (felix:refresh ID refreshes one installed bundle)");
            System.setProperty(SHELL_EXIT_CODE, "2");
            return;
        }
        FrameworkWiring wiring = context.getBundle(0).adapt(FrameworkWiring.class);
        Collection<Bundle> pending = wiring.getRemovalPendingBundles();
        if (pending.isEmpty()) {
            System.out.println("nothing to refresh: no uninstalled or updated bundle is still in use");
            return;
        }
        StringBuilder names = new StringBuilder();
        for (Bundle b : pending) names.append(names.length() == 0 ? "" : ", ").append(b.getSymbolicName()).append(' ').append(b.getVersion());
        CountDownLatch done = new CountDownLatch(1);
        wiring.refreshBundles(null, e -> done.countDown());
        try {
            if (done.await(60, TimeUnit.SECONDS)) System.out.println("refreshed " + names + " (and the bundles wired to them)");
            else System.err.println("sim:refresh: still refreshing after 60 s: " + names);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public void run(String... args) { call("run", args); }

    public void validate(String... args) { call("validate", args); }

    // String... everywhere: a stray argument then gets the command's own usage error, not Gogo's "Cannot coerce"
    public void policies(String... args) { call("policies", args); }

    public void workloads(String... args) { call("workloads", args); }

    public void status(String... args) { call("status", args); }

    public void collect(String... args) { call("collect", args); }

    public void stop(String... args) {
        if (unsetArgument("sim:stop", args)) return;
        // an unqualified "stop 6" reaches this command, not Felix's bundle stop: say so instead of a usage error
        if (args.length == 1 && args[0].matches("\\d+")) {
            System.err.println("sim:stop stops the running study and takes no bundle id; to stop bundle " + args[0] + " type felix:stop " + args[0]);
            System.setProperty(SHELL_EXIT_CODE, "2");
            return;
        }
        call("stop", args);
    }

    /** Named await: Gogo took sim:wait for the Object.wait() of this component. */
    public void await(String... args) { call("await", args); }

    public void bench(String... args) { call("bench", args); }

    public void trace(String... args) { call("trace", args); }

    public void replay(String... args) { call("replay", args); }

    public void swap(String... args) { call("swap", args); }

    public void conform(String... args) { call("conform", args); }

    public void report(String... args) { call("report", args); }

    public void compare(String... args) { call("compare", args); }

    private void call(String command, String... args) {
        if (unsetArgument("sim:" + command, args)) return;
        String[] all = new String[args.length + 1];
        all[0] = command;
        System.arraycopy(args, 0, all, 1, args.length);
        // Gogo gives each session its own System.out/err.
        int code = kernel.commands().execute(all, new InterruptSafeStream(System.out), new InterruptSafeStream(System.err), true);
        Thread.interrupted(); // a Ctrl-C the command handled ends with it: left set, Gogo's next write to the terminal closes it
        if (code != 0) {
            System.err.println("sim:" + command + ": exit code " + code);
            // the launcher exits with it when the shell ends (a piped script sees that a command failed);
            // a system property is the one channel it shares with this bundle
            System.setProperty(SHELL_EXIT_CODE, Integer.toString(code));
        }
    }

    /**
     * Gogo passes a variable that was never set ({@code sim:report $x}) as a null argument, which the commands'
     * parser would throw on (a NullPointerException and its stack trace). Says which argument is empty and sets
     * the shell's exit code to 2, bad input; true if the command must not run.
     */
    static boolean unsetArgument(String command, String[] args) {
        int empty = emptyArgument(args);
        if (empty == 0) return false;
        System.err.println(command + ": argument " + empty + " is empty (an unset shell variable?)");
        System.setProperty(SHELL_EXIT_CODE, "2");
        return true;
    }

    /** The position (from 1) of the first null argument, 0 if none; a null array is Gogo's single null argument. */
    private static int emptyArgument(String[] args) {
        if (args == null) return 1;
        for (int i = 0; i < args.length; i++) if (args[i] == null) return i + 1;
        return 0;
    }
}
