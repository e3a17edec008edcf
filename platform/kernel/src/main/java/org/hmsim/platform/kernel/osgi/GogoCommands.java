package org.hmsim.platform.kernel.osgi;

import java.util.Collection;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.felix.service.command.Descriptor;
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
    @Descriptor("Refreshes the bundles an uninstall or update left wired")
    public void refresh(@Descriptor("none") String... args) {
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

    @Descriptor("Runs a study in the background (sim:status, sim:await and sim:stop follow it)")
    public void run(@Descriptor("the arguments of hmsim run; sim:run --help lists them") String... args) { call("run", args); }

    @Descriptor("Checks a study, machine or workload file without running it")
    public void validate(@Descriptor("the arguments of hmsim validate; sim:validate --help lists them") String... args) { call("validate", args); }

    // String... everywhere: a stray argument then gets the command's own usage error, not Gogo's "Cannot coerce"
    @Descriptor("Lists every slot, its policies, their bundles, versions and parameters")
    public void policies(@Descriptor("the arguments of hmsim policies; sim:policies --help lists them") String... args) { call("policies", args); }

    @Descriptor("Lists the workloads and their parameters")
    public void workloads(@Descriptor("the arguments of hmsim workloads; sim:workloads --help lists them") String... args) { call("workloads", args); }

    @Descriptor("Shows the running study, or a results folder's runs")
    public void status(@Descriptor("the arguments of hmsim status; sim:status --help lists them") String... args) { call("status", args); }

    @Descriptor("Assembles runs.csv and study.json from a results folder's per-run files")
    public void collect(@Descriptor("the arguments of hmsim collect; sim:collect --help lists them") String... args) { call("collect", args); }

    @Descriptor("Stops the running study after the runs in flight")
    public void stop(@Descriptor("the arguments of hmsim stop; sim:stop --help lists them") String... args) {
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
    @Descriptor("Waits for the running study to end, then for its report")
    public void await(@Descriptor("the arguments of hmsim await; sim:await --help lists them") String... args) { call("await", args); }

    @Descriptor("Runs the built-in benchmark")
    public void bench(@Descriptor("the arguments of hmsim bench; sim:bench --help lists them") String... args) { call("bench", args); }

    @Descriptor("Records, imports, converts and describes traces")
    public void trace(@Descriptor("the arguments of hmsim trace; sim:trace --help lists them") String... args) { call("trace", args); }

    @Descriptor("Runs a trace's addresses through a cache hierarchy alone")
    public void replay(@Descriptor("the arguments of hmsim replay; sim:replay --help lists them") String... args) { call("replay", args); }

    @Descriptor("Swaps a slot's policy in the running study")
    public void swap(@Descriptor("the arguments of hmsim swap; sim:swap --help lists them") String... args) { call("swap", args); }

    @Descriptor("Checks a policy against its slot's contract")
    public void conform(@Descriptor("the arguments of hmsim conform; sim:conform --help lists them") String... args) { call("conform", args); }

    @Descriptor("Writes a results folder's report.html and figures")
    public void report(@Descriptor("the arguments of hmsim report; sim:report --help lists them") String... args) { call("report", args); }

    @Descriptor("Compares two results folders: figures side by side, differences beyond a tolerance flagged")
    public void compare(@Descriptor("the arguments of hmsim compare; sim:compare --help lists them") String... args) { call("compare", args); }

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
