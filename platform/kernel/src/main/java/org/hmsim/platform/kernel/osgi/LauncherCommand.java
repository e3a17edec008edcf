package org.hmsim.platform.kernel.osgi;

import java.io.PrintStream;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Reference;

/**
 * The command service of {@code bin/hmsim}: the launcher looks up the service with
 * {@code (hmsim.command=true)} and calls {@link #execute} by reflection (it shares no class with the
 * kernel). {@code run} waits for the study to end.
 */
@Component(service = LauncherCommand.class, property = "hmsim.command=true")
public final class LauncherCommand {
    @Reference(name = "kernel")
    private KernelComponent kernel;

    /**
     * Runs {@code hmsim ARGS...}; returns the exit code: 0 ok, 1 internal error, 2 bad input,
     * 3 some runs failed, 4 stopped before all runs finished.
     */
    public int execute(String[] args, PrintStream out, PrintStream err) {
        return kernel.commands().execute(args, out, err, false);
    }
}
