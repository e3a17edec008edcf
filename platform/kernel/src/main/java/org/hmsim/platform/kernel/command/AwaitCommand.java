package org.hmsim.platform.kernel.command;

import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hmsim.platform.kernel.runner.StudyExecution;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code await [--timeout T]}: blocks until the study this container runs has ended, then says how it ended and returns
 * its exit code (0 every run done, 3 some failed, 4 stopped). A shell script that starts a study with {@code sim:run}
 * (and swaps in it) had no way to let it finish but a loop on {@code sim:status} that kept a core busy: the shell has no
 * sleep, and the end of piped input stops the study (found by a researcher-role review). Not {@code wait}: Gogo took
 * {@code sim:wait} for {@code Object.wait()} of the command object.
 */
@Command(name = "await", mixinStandardHelpOptions = true, description = "Waits until the running study has ended; exits with its code (0 done, 3 some runs failed, 4 stopped).")
final class AwaitCommand implements Callable<Integer> {
    /** Exit code of a wait that timed out with the study still running. */
    static final int TIMED_OUT = 5;
    private static final Pattern DURATION = Pattern.compile("(\\d+)(s|m|h)?");

    private final Commands.Context ctx;

    @Option(names = "--timeout", paramLabel = "T", description = "give up after T (90s, 10m, 2h; a number alone is seconds) with exit code 5; the study goes on")
    String timeout;

    AwaitCommand(Commands.Context ctx) { this.ctx = ctx; }

    @Override
    public Integer call() {
        long seconds = -1;
        if (timeout != null) {
            Matcher m = DURATION.matcher(timeout.trim());
            if (!m.matches()) {
                ctx.err().println("await: --timeout " + timeout + " is not a duration (90s, 10m, 2h, or seconds)");
                return Commands.BAD_INPUT;
            }
            long n = Long.parseLong(m.group(1));
            seconds = m.group(2) == null || m.group(2).equals("s") ? n : m.group(2).equals("m") ? n * 60 : n * 3600;
        }
        StudyExecution ex = ctx.kernel().current();
        if (ex == null && !ctx.background()) {
            ctx.err().println("hmsim await: waits for the study of this container (the shell's sim:await after sim:run); a headless hmsim run is waited for by its own process");
            return Commands.BAD_INPUT;
        }
        if (ex == null) {
            ctx.out().println("no study is running");
            return Commands.OK;
        }
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Math.max(0, seconds));
            boolean ended = seconds < 0 ? ex.await() >= 0 : ex.await(seconds, TimeUnit.SECONDS);
            if (!ended) {
                ctx.err().println("await: study " + ex.study().name() + " still running after " + timeout + " (" + ex.summary() + ")");
                return TIMED_OUT;
            }
            // and the summary and report sim:run writes after it: a script's next line may end the shell
            if (!ex.awaitAfterRun(seconds < 0 ? 0 : Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())))) {
                ctx.err().println("await: study " + ex.study().name() + " ended, its report still being written after " + timeout);
                return TIMED_OUT;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ctx.err().println("await: interrupted; study " + ex.study().name() + " goes on (" + ex.summary() + ")");
            return Commands.ERROR;
        }
        ctx.out().println("study " + ex.study().name() + " ended: " + ex.summary() + " (results: " + ex.out() + ")");
        RunCommand.swapsNotReached(ex, ctx.out());
        return ex.exitCode();
    }
}
