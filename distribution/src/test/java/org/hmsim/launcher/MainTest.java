package org.hmsim.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class MainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        return Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void noArgumentsPrintsUsageAndSucceeds() throws Exception {
        assertEquals(0, run());
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: hmsim COMMAND"));
    }

    @Test
    void helpPrintsEveryCommand() throws Exception {
        assertEquals(0, run("--help"));
        String usage = out.toString(StandardCharsets.UTF_8);
        for (String c : new String[] {"run STUDY", "validate STUDY", "policies", "workloads", "bench", "shell"}) {
            assertTrue(usage.contains(c), "usage lists " + c);
        }
    }

    @Test
    void shellHelpIsHelpAndAStrayArgumentIsAUsageError() throws Exception {
        assertEquals(0, run("shell", "--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("usage: hmsim shell"), out.toString(StandardCharsets.UTF_8));
        assertEquals(2, run("shell", "bogus"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("hmsim shell takes no arguments, found 'bogus'"));
    }

    @Test
    void anUnknownCommandIsAUsageError() throws Exception {
        assertEquals(2, run("rnu", "study.yaml"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("unknown command 'rnu'"), e);
        assertTrue(e.contains("usage: hmsim"), e);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
    }
}
