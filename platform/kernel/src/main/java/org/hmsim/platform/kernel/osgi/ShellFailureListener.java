package org.hmsim.platform.kernel.osgi;

import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.CommandSessionListener;
import org.osgi.service.component.annotations.Component;

/**
 * Gives the shell a failing exit code when Gogo cannot run a command line: an unknown command (a typo such as
 * {@code sim:frobnicate}) or arguments that fit none of the command's signatures. Gogo prints
 * such failures on the console but left the exit code at 0, so a piped script with a typo looked as if it had worked.
 * The code is 2, bad input, as for a sim: command given bad input; the shell still exits with the last failure's code.
 * Gogo's runtime calls every registered listener around each command line it executes.
 */
@Component(service = CommandSessionListener.class)
public final class ShellFailureListener implements CommandSessionListener {
    @Override
    public void beforeExecute(CommandSession session, CharSequence commandline) {}

    /**
     * Gogo reports a command it cannot find, or arguments it cannot fit to any of the command's signatures, as an
     * IllegalArgumentException (CommandNotFoundException is one). Other exceptions are not the input's fault: a
     * command interrupted because the shell's end stops the framework must not replace a stopped study's code.
     */
    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Exception exception) {
        if (exception instanceof IllegalArgumentException) System.setProperty(GogoCommands.SHELL_EXIT_CODE, "2");
    }

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Object result) {}
}
