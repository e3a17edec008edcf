package org.hmsim.platform.kernel.command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.platform.kernel.registry.PolicyChoice;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.registry.ResolvedPolicies;
import org.hmsim.platform.machine.Bench;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The hmsim commands, parsed with picocli; one implementation for the launcher ({@code bin/hmsim run ...})
 * and the Gogo shell ({@code sim:run ...}). Exit codes: 0 success; 1 internal error or busy; 2 bad input
 * (usage or study errors, printed as {@code file:line:col: field: message}); 3 some runs failed;
 * 4 stopped before all runs finished.
 */
public final class Commands {
    public static final int OK = 0, ERROR = 1, BAD_INPUT = 2;

    private final SimKernel kernel;

    public Commands(SimKernel kernel) { this.kernel = kernel; }

    /**
     * Runs one command line. {@code background}: {@code run} returns as soon as the study has started
     * (the shell), instead of waiting for its end (the launcher).
     */
    public int execute(String[] args, PrintStream out, PrintStream err, boolean background) {
        if (args.length > 0 && args[0].equals("bench")) return bench(Arrays.copyOfRange(args, 1, args.length), out, err);
        Context ctx = new Context(kernel, out, err, background);
        Map<String, Object> commands = commands(ctx);
        CommandLine cl;
        if (background && args.length > 0 && commands.containsKey(args[0])) {
            // the shell's sim:await is its own command line, so its usage and errors say "sim:await", not "hmsim await"
            cl = commandLine(commands.get(args[0])).setCommandName("sim:" + args[0]);
            args = Arrays.copyOfRange(args, 1, args.length);
        } else {
            cl = new CommandLine(new Root(ctx));
            commands.forEach(cl::addSubcommand);
        }
        // every command's -V says the running kernel's version and source (it said the jar's 0.1.0-SNAPSHOT, found by a trial)
        Environment env = kernel.environment();
        giveVersion(cl, () -> new String[] {"hmsim " + env.describe()});
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, line, parse) -> {
            err.println("hmsim: internal error: " + ex);
            ex.printStackTrace(err);
            return ERROR;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Every command by the name it is typed with ({@code run-task} is Slurm's, not the shell's). */
    private static Map<String, Object> commands(Context ctx) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("run", new RunCommand(ctx));
        c.put("validate", new ValidateCommand(ctx));
        c.put("policies", new PoliciesCommand(ctx));
        c.put("workloads", new WorkloadsCommand(ctx));
        c.put("status", new StatusCommand(ctx));
        c.put("stop", new StopCommand(ctx));
        c.put("await", new AwaitCommand(ctx));
        c.put("collect", new CollectCommand(ctx));
        c.put("run-task", new RunTaskCommand(ctx));
        c.put("report", new ReportCommand(ctx));
        c.put("compare", new CompareCommand(ctx));
        c.put("bench", new BenchCommand());
        c.put("trace", TraceCommand.commandLine(ctx));
        c.put("replay", new ReplayCommand(ctx));
        c.put("swap", new SwapCommand(ctx));
        c.put("conform", new ConformCommand(ctx));
        return c;
    }

    private static CommandLine commandLine(Object command) { return command instanceof CommandLine cl ? cl : new CommandLine(command); }

    private static void giveVersion(CommandLine cl, CommandLine.IVersionProvider provider) {
        if (cl.getCommandSpec().versionProvider() == null && cl.getCommandSpec().version().length == 0)
            cl.getCommandSpec().versionProvider(provider);
        for (CommandLine sub : cl.getSubcommands().values()) giveVersion(sub, provider);
    }

    /** {@code hmsim bench}: the fixed scenario with the installed default policies and workloads. */
    private int bench(String[] args, PrintStream out, PrintStream err) {
        try {
            EnumMap<Slot, PolicyChoice> choices = new EnumMap<>(Slot.class);
            for (Slot s : Slot.values()) choices.put(s, kernel.policies().resolveDefault(s));
            return Bench.run(args, out, new ResolvedPolicies(choices), (name, params) -> {
                Map<String, Object> given = new LinkedHashMap<>();
                for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
                return kernel.workloads().resolve(name, given).create(1);
            });
        } catch (RuntimeException e) {
            err.println("hmsim bench: " + e.getMessage());
            return ERROR;
        }
    }

    /** What every subcommand needs. */
    record Context(SimKernel kernel, PrintStream out, PrintStream err, boolean background) {}

    // its version provider is set per execution, from the running kernel
    @Command(name = "hmsim", mixinStandardHelpOptions = true,
            subcommands = CommandLine.HelpCommand.class,
            description = "Simulator platform for heterogeneous CPU-GPU memory systems.")
    static final class Root implements Runnable {
        private final Context ctx;

        Root(Context ctx) { this.ctx = ctx; }

        @Override
        public void run() {
            new CommandLine(this).usage(ctx.out());
            ctx.out().println("Commands: run, validate, policies, workloads, status, stop, await, collect, report, compare, bench, trace, replay, help");
        }
    }

    @Command(name = "bench", description = "Runs the built-in benchmark: simulated requests/s, events/s, peak heap.")
    static final class BenchCommand implements Runnable {
        @CommandLine.Unmatched
        String[] args = new String[0];

        @Override
        public void run() {}
    }
}
