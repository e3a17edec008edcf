package org.hmsim.launcher;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code bin/hmsim}: starts the container and either runs one kernel command headless or opens the
 * Gogo shell. Headless, it waits for FileInstall to have started every jar in {@code plugins/} and for
 * the kernel's command service, calls it, stops the framework and exits with the command's code.
 */
public final class Main {
    static final Duration PLUGIN_TIMEOUT = Duration.ofSeconds(10);
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);

    private Main() {}

    public static void main(String[] args) {
        int code;
        try {
            code = run(args, System.out, System.err);
        } catch (Exception e) {
            System.err.println("hmsim: " + e);
            e.printStackTrace(System.err);
            code = 1;
        }
        System.out.flush();
        // Exit explicitly: simulation worker threads of a stopped kernel must not keep the JVM up.
        System.exit(code);
    }

    /** Runs the launcher and returns the process exit code. */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0 || isHelp(args[0])) {
            out.println(Usage.text());
            return 0;
        }
        String command = args[0];
        if (command.equals("shell")) {
            if (args.length > 1 && isHelp(args[1])) {
                out.println("usage: hmsim shell   (a Felix container with the Gogo shell: lb, install, start, sim:run, sim:status, sim:swap, sim:stop, ...;"
                        + " commands can be piped in; type help in the shell for the list)");
                return 0;
            }
            if (args.length > 1) {
                err.println("hmsim shell takes no arguments, found '" + args[1] + "' (hmsim shell --help)");
                return 2;
            }
            return shell(out, err);
        }
        if (!Usage.HEADLESS.contains(command)) {
            err.println("hmsim: unknown command '" + command + "'");
            err.println(Usage.text());
            return 2;
        }
        return headless(args, out, err);
    }

    private static boolean isHelp(String a) {
        return a.equals("--help") || a.equals("-h") || a.equals("help");
    }

    private static int headless(String[] args, PrintStream out, PrintStream err) throws Exception {
        long t0 = System.nanoTime();
        Path home = home();
        ContainerConfig.applyLogging(home);
        try (Container c = builder(home).start()) {
            trace(err, "bundles started after %d ms", t0);
            report(c.warnings(), err);
            report(c.awaitPlugins(PLUGIN_TIMEOUT), err);
            trace(err, "plugins started after %d ms", t0);
            CommandService commands = c.awaitCommands(COMMAND_TIMEOUT);
            if (commands == null) {
                err.println("hmsim: the kernel's command service " + CommandService.FILTER
                        + " is not available (waited up to " + COMMAND_TIMEOUT.toSeconds() + " s); bundles not active:");
                for (String s : c.inactiveBundles()) err.println("  " + s);
                return 1;
            }
            trace(err, "command service found after %d ms", t0);
            int code = commands.execute(args, out, err);
            trace(err, "command done after %d ms", t0);
            return code;
        }
    }

    private static int shell(PrintStream out, PrintStream err) throws Exception {
        Path home = home();
        ContainerConfig.applyLogging(home);
        Container.ShellKind kind = shellKind();
        try (Container c = builder(home).shell(kind).start()) {
            report(c.warnings(), err);
            report(c.awaitPlugins(PLUGIN_TIMEOUT), err);
            if (c.awaitCommands(COMMAND_TIMEOUT) == null) {
                err.println("hmsim: warning: the kernel's sim: commands are not available; bundles not active:");
                for (String s : c.inactiveBundles()) err.println("  " + s);
            }
            int shown = c.warnings().size();
            PluginWatch.start(c.context(), c.plugins(), err);
            c.startShell();
            report(c.warnings().subList(shown, c.warnings().size()), err);
            // The console stops the framework on 'exit' (or at end of input when stdin is a pipe).
            c.awaitStop();
            // 'exit N' (the kernel's ShellExit.EXIT_REQUEST) wins; else the code the kernel's sim: commands set
            // (GogoCommands.SHELL_EXIT_CODE): the last one that failed
            Integer asked = Integer.getInteger("hmsim.shell.exit_request");
            return asked != null ? asked : Integer.getInteger("hmsim.shell.exit_code", 0);
        }
    }

    /** The container of this installation; -Dhmsim.plugins=DIR watches another hot-deploy folder. */
    private static Container.Builder builder(Path home) {
        Container.Builder b = Container.builder(home);
        String plugins = System.getProperty("hmsim.plugins");
        if (plugins != null && !plugins.isBlank()) b.plugins(Path.of(plugins));
        return b;
    }

    /** JLine needs a real terminal; on pipes (scripts, tests) the plain Gogo shell reads stdin. */
    private static Container.ShellKind shellKind() {
        String forced = System.getProperty("hmsim.shell", "").toLowerCase(Locale.ROOT);
        if (forced.equals("plain")) return Container.ShellKind.PLAIN;
        if (forced.equals("jline")) return Container.ShellKind.JLINE;
        return System.console() != null ? Container.ShellKind.JLINE : Container.ShellKind.PLAIN;
    }

    private static void report(List<String> problems, PrintStream err) {
        for (String p : problems) err.println("hmsim: warning: " + p);
    }

    private static void trace(PrintStream err, String fmt, long t0) {
        if (Boolean.getBoolean("hmsim.trace")) err.printf(fmt + "%n", (System.nanoTime() - t0) / 1_000_000);
    }

    /** The installation folder: -Dhmsim.home (set by bin/hmsim), else the parent of the jar's lib/. */
    static Path home() throws URISyntaxException {
        String prop = System.getProperty("hmsim.home");
        if (prop != null && !prop.isBlank()) return Path.of(prop).toAbsolutePath().normalize();
        Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path lib = Files.isDirectory(jar) ? jar : jar.getParent();
        return lib.getParent().toAbsolutePath().normalize();
    }
}
