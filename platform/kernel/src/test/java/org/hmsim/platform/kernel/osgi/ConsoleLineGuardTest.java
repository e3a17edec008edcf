package org.hmsim.platform.kernel.osgi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.felix.gogo.jline.Parser;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The interactive console's reader, as Gogo's JLine console builds it (gogo.jline's Parser), fed typed lines: a line
 * with a closing bracket that opens nothing ended the shell (exit 0) before the guard.
 */
class ConsoleLineGuardTest {
    private final PrintStream savedErr = System.err;

    @AfterEach
    void restore() {
        System.setErr(savedErr);
        System.clearProperty(GogoCommands.SHELL_EXIT_CODE);
    }

    private static LineReader console(String typed) throws IOException {
        DumbTerminal terminal = new DumbTerminal(new ByteArrayInputStream(typed.getBytes(StandardCharsets.UTF_8)), new ByteArrayOutputStream());
        return LineReaderBuilder.builder().terminal(terminal).parser(new Parser()).build();
    }

    @Test
    void unguardedAStrayClosingBracketLooksLikeTheEndOfInput() throws IOException {
        LineReader reader = console("sim:run )\n");
        reader.readLine("> ");
        assertNull(reader.getParsedLine(), "Gogo's console loop takes a null parsed line for Ctrl-D: the defect the guard repairs");
    }

    @Test
    void aStrayClosingBracketIsExplainedAndThePromptComesBack() throws IOException {
        LineReader reader = console("sim:run )\necho next\n");
        ConsoleLineGuard.guard(reader);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));

        reader.readLine("> ");
        assertNotNull(reader.getParsedLine(), "the console must get a line to run, not the end of input");
        assertEquals("", reader.getParsedLine().line(), "nothing of the refused line runs");
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("syntax error (the line was not run): unexpected token ')' in: sim:run )"), err::toString);
        assertEquals("2", System.getProperty(GogoCommands.SHELL_EXIT_CODE), "bad input, as a typo");

        assertEquals("echo next", reader.readLine("> "));
        assertEquals("echo next", reader.getParsedLine().line());
    }

    @Test
    void anUnclosedQuoteStillAsksForTheRestOfTheLine() throws IOException {
        LineReader reader = console("echo \"a\nb\"\n");
        ConsoleLineGuard.guard(reader);
        reader.readLine("> ");
        assertEquals("echo \"a\nb\"", reader.getParsedLine().line());
        assertNull(System.getProperty(GogoCommands.SHELL_EXIT_CODE));
    }

    @Test
    void guardingTwiceWrapsOnce() throws IOException {
        LineReader reader = console("");
        Object plain = reader.getParser();
        ConsoleLineGuard.guard(reader);
        Object once = reader.getParser();
        assertNotSame(plain, once, "the first guard wraps the parser");
        ConsoleLineGuard.guard(reader);
        assertSame(once, reader.getParser(), "the second leaves the wrapped one");
    }
}
