package org.hmsim.platform.kernel.osgi;

import org.apache.felix.gogo.runtime.EOFError;
import org.apache.felix.gogo.runtime.SyntaxError;
import org.apache.felix.service.command.CommandSession;
import org.apache.felix.service.command.CommandSessionListener;
import org.osgi.service.component.annotations.Component;

/**
 * Gives the shell a failing exit code when Gogo cannot run a command line: an unknown command (a typo such as
 * {@code sim:frobnicate}), arguments that fit none of the command's signatures, or a line it cannot parse (an unclosed
 * quote or bracket). Gogo prints such failures on the console but left the exit code at 0, so a piped script with a
 * typo looked as if it had worked. The code is 2, bad input, as for a sim: command given bad input; the shell still
 * exits with the last failure's code. Gogo's runtime calls every registered listener around each command line it
 * executes, a file's whole text included when {@code source} or {@code gosh} runs it.
 */
@Component(service = CommandSessionListener.class)
public final class ShellFailureListener implements CommandSessionListener {
    /** How a console line Gogo cannot parse is said on stderr (here, and by {@link ConsoleLineGuard} at the interactive prompt). */
    static final String LINE_NOT_RUN = "syntax error (the line was not run): ";

    /** The syntax error last explained: the line that ran a file ({@code source FILE}) fails with the file's own, said once. */
    private volatile SyntaxError explained;

    @Override
    public void beforeExecute(CommandSession session, CharSequence commandline) {}

    /**
     * Gogo reports a command it cannot find, or arguments it cannot fit to any of the command's signatures, as an
     * IllegalArgumentException (CommandNotFoundException is one), and a line it cannot parse as a SyntaxError. Other
     * exceptions are not the input's fault: a command interrupted because the shell's end stops the framework must not
     * replace a stopped study's code.
     */
    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Exception exception) {
        SyntaxError syntax = syntaxError(exception);
        if (syntax != null) explain(syntax, commandline);
        if (syntax != null || exception instanceof IllegalArgumentException) System.setProperty(GogoCommands.SHELL_EXIT_CODE, "2");
    }

    @Override
    public void afterExecute(CommandSession session, CharSequence commandline, Object result) {}

    /** Gogo's parser throws a SyntaxError; for one that ends too early (an EOFError) it throws an EOFException around it. */
    private static SyntaxError syntaxError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SyntaxError s) return s;
        }
        return null;
    }

    /**
     * Says on stderr, in words, what is wrong and where. Gogo's console also prints its own line ("gogo:
     * EOFException: unexpected EOT ..."): that printing is in Gogo's console, which a listener cannot change.
     */
    private void explain(SyntaxError syntax, CharSequence commandline) {
        if (syntax == explained) return;
        explained = syntax;
        // the console hands Gogo one line at a time; a text of several lines is a file that source or gosh runs,
        // which Gogo parses whole before it runs any of it
        String[] lines = commandline.toString().split("\n", -1);
        String where = lines.length > 1
                ? "syntax error in line " + (syntax.line() + 1) + " of the script (none of it was run): "
                : LINE_NOT_RUN;
        String text = syntax.line() < lines.length ? lines[syntax.line()].strip() : "";
        System.err.println(where + words(syntax) + (text.isEmpty() ? "" : " in: " + text));
    }

    /** What Gogo found missing, in words; Gogo's messages ("unexpected EOT", "compound") name its parser's states. */
    static String words(SyntaxError syntax) {
        if (!(syntax instanceof EOFError eof)) return syntax.getMessage(); // "unexpected token ')'": words already
        return switch (String.valueOf(eof.missing())) {
            case "dquote" -> "unclosed quote (\")";
            case "quote" -> "unclosed quote (')";
            case "compound", "closure", "sequence", "array" -> "unclosed bracket (no closing " + closer(eof) + ")";
            case "pipe" -> "nothing after the pipe (|)";
            case "escape" -> "a backslash (\\) at the end escapes nothing";
            case "comment" -> "unclosed comment (/* without */)";
            case "redir" -> "a redirection (> or <) without a file name";
            case "heredoc" -> "unclosed here-document";
            default -> eof.getMessage();
        };
    }

    /** The bracket that would close it: Gogo's repair text when it is one, else the one its kind of group needs. */
    private static String closer(EOFError eof) {
        if (eof.repair() != null && eof.repair().matches("[)\\]}]")) return eof.repair();
        return switch (String.valueOf(eof.missing())) {
            case "sequence" -> ")";
            case "array" -> "]";
            default -> "}";
        };
    }
}
