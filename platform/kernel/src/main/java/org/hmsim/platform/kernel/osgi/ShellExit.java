package org.hmsim.platform.kernel.osgi;

import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.CommandSessionListener;
import org.osgi.framework.BundleContext;
import org.osgi.framework.BundleException;
import org.osgi.service.component.annotations.Activate;
import org.osgi.service.component.annotations.Component;

/**
 * The shell's {@code exit} and {@code exit N}, which end the shell once the line that holds them is done. Gogo's
 * default profile turns {@code java.lang.System}'s methods into commands, so {@code exit 3} was {@code System.exit(3)}:
 * the JVM's shutdown hook stopped the framework under the running command, which printed "InterruptedException:
 * null", and a bare {@code exit} fitted no signature ("Cannot coerce exit()"), so a piped script went on to its next
 * line. The profile searches the {@code gogo} scope first, so this one wins. It records the request; when the line is
 * done Gogo calls {@link #afterExecute} on the console's own thread, and the console is ended from there. The request
 * is this component's, not the session's: {@code gosh FILE} runs the file in a child session, and an {@code exit} in
 * it (or in a {@code source}d file) must end the shell that ran it.
 *
 * <p>Gogo calls the listeners once around a file's whole text, not around each of its lines, so a request recorded
 * there took effect only after the file's last line: the lines after {@code exit} still ran (a {@code sim:run} there
 * moved the folder's earlier results to {@code previous/} and was then stopped by the shell's end). Inside a file
 * {@code exit} therefore also throws {@link ScriptExit}, which ends the file where it stands, as an unknown command
 * does; Gogo's console prints it as one line ("gogo: ScriptExit: ...").
 */
@Component(service = {ShellExit.class, CommandSessionListener.class},
        property = {"osgi.command.scope=gogo", "osgi.command.function=exit"})
public final class ShellExit implements CommandSessionListener {
    /** System property the launcher reads when the framework has stopped: an exit code the user asked for. */
    public static final String EXIT_REQUEST = "hmsim.shell.exit_request";

    private volatile boolean ending;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private BundleContext context;
    /** The texts being executed, innermost first: a file's whole text while source or gosh runs it. */
    private final Deque<CharSequence> executing = new ConcurrentLinkedDeque<>();

    @Activate
    void activate(BundleContext ctx) { this.context = ctx; }

    /**
     * {@code exit}: ends the shell as Ctrl-D does, with the code of the last command that failed (0 if none did);
     * {@code exit N}: with N, whatever failed before or fails while the framework stops (as a POSIX shell, N wraps
     * at 256). Anything else, an unset variable ({@code exit $x}) included, is bad input: it says so and ends the
     * shell with 2, as a POSIX shell does.
     */
    public void exit(String... args) {
        if (GogoCommands.unsetArgument("exit", args)) {
            System.setProperty(EXIT_REQUEST, "2"); // bad input ends the shell, as a bad exit code does
        } else if (args.length > 1 || args.length == 1 && !args[0].matches("-?\\d{1,10}")) {
            System.err.println("exit: expected at most one exit code (a whole number), was '" + String.join(" ", args) + "'");
            System.setProperty(EXIT_REQUEST, "2");
        } else if (args.length == 1) {
            System.setProperty(EXIT_REQUEST, Integer.toString((int) (Long.parseLong(args[0]) & 0xff)));
        }
        ending = true;
        if (inScript()) {
            String code = System.getProperty(EXIT_REQUEST);
            throw new ScriptExit("exit" + (code == null ? "" : " " + code) + " ends the shell: the script's lines after it are not run");
        }
    }

    /**
     * Whether the innermost text being executed is a file's (several lines), not one line of the console. The texts
     * nest (a line runs source, which runs the file), though Gogo runs each on a thread of its own, and one console
     * reads at a time: one stack for all. (Not a CommandSession parameter of exit: Gogo then passed an unset variable,
     * exit $x, as the session, and the exit was bare.)
     */
    private boolean inScript() {
        CharSequence text = executing.peek();
        return text != null && text.toString().strip().indexOf('\n') >= 0;
    }

    @Override
    public void beforeExecute(CommandSession session, CharSequence commandline) { executing.push(commandline == null ? "" : commandline); }

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Exception exception) { done(session); }

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Object result) { done(session); }

    private void done(CommandSession session) {
        executing.poll();
        endIfAsked(session);
    }

    /**
     * Thrown by {@code exit} inside a file run by {@code source} or {@code gosh}: Gogo stops a file at a command's
     * exception, so the file's later lines do not run. Not an IllegalArgumentException: it is no failure of the input.
     */
    public static final class ScriptExit extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ScriptExit(String message) {
            super(message, null, false, false);
        }
    }

    private void endIfAsked(CommandSession session) {
        if (!ending) return;
        if (session.get(".terminal") == null) {
            // the plain console checks its thread's interrupt before it reads the next line, and then stops the
            // framework as at the end of its input; a nested line's thread (source, gosh FILE) just ends sooner
            Thread.currentThread().interrupt();
        } else if (stopping.compareAndSet(false, true)) {
            // JLine's console reads on whatever its thread's state: stop the framework, which stops the console
            stopFramework();
        }
    }

    private void stopFramework() {
        BundleContext ctx = context;
        new Thread(() -> {
            try {
                ctx.getBundle(0).stop();
            } catch (BundleException | IllegalStateException e) {
                System.err.println("exit: the framework did not stop: " + e.getMessage());
            }
        }, "hmsim-shell-exit").start();
    }
}
