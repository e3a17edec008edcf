package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hmsim.platform.kernel.command.Commands;
import org.junit.jupiter.api.Test;

/** Paths in the commands hints print are quoted where a shell would split them (a trial's copied hint broke at a space). */
class ShellWordTest {
    @Test
    void pathsAreQuotedOnlyWhereAShellWouldSplitThem() {
        assertEquals("/tmp/w/results/s-1.2", Commands.shellWord("/tmp/w/results/s-1.2"));
        assertEquals("'/tmp/w/moved b3 é'", Commands.shellWord("/tmp/w/moved b3 é"));
        assertEquals("'it'\\''s'", Commands.shellWord("it's"));
        assertEquals("''", Commands.shellWord(""));
    }
}
