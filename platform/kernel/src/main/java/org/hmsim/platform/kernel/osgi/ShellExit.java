package org.hmsim.platform.kernel.osgi;

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
 * line. The profile searches the {@code gogo} scope first, so this one wins. It marks the session; when the line is
 * done Gogo calls {@link #afterExecute} on the console's own thread, and the console is ended from there.
 */
@Component(service = {ShellExit.class, CommandSessionListener.class},
        property = {"osgi.command.scope=gogo", "osgi.command.function=exit"})
public final class ShellExit implements CommandSessionListener {
    /** System property the launcher reads when the framework has stopped: an exit code the user asked for. */
    public static final String EXIT_REQUEST = "hmsim.shell.exit_request";

    /** Session variable: a command of the line being run asked the shell to end. */
    private static final String ENDING = ".hmsim.exit";

    private BundleContext context;

    @Activate
    void activate(BundleContext ctx) { this.context = ctx; }

    /** Ends the shell as Ctrl-D does: with the code of the last command that failed, 0 if none did. */
    public void exit(CommandSession session) { session.put(ENDING, Boolean.TRUE); }

    /** Ends the shell with {@code code}, whatever failed before or fails while the framework stops. */
    public void exit(CommandSession session, int code) {
        System.setProperty(EXIT_REQUEST, Integer.toString(code));
        session.put(ENDING, Boolean.TRUE);
    }

    @Override
    public void beforeExecute(CommandSession session, CharSequence commandline) {}

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Exception exception) { endIfAsked(session); }

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Object result) { endIfAsked(session); }

    private void endIfAsked(CommandSession session) {
        if (!Boolean.TRUE.equals(session.get(ENDING))) return;
        session.put(ENDING, Boolean.FALSE);
        if (session.get(".terminal") == null) {
            // the plain console checks its thread's interrupt before it reads the next line, and then stops the
            // framework as at the end of its input
            Thread.currentThread().interrupt();
        } else {
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
