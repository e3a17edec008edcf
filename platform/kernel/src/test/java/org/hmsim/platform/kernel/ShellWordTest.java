package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hmsim.platform.kernel.executor.ShellWord;
import org.junit.jupiter.api.Test;

/** Paths in the commands hints print are quoted where a shell would split them (a trial's copied hint broke at a space). */
class ShellWordTest {
    @Test
    void pathsAreQuotedOnlyWhereAShellWouldSplitThem() {
        assertEquals("/tmp/w/results/s-1.2", ShellWord.of("/tmp/w/results/s-1.2"));
        assertEquals("'/tmp/w/moved b3 é'", ShellWord.of("/tmp/w/moved b3 é"));
        assertEquals("'it'\\''s'", ShellWord.of("it's"));
        assertEquals("''", ShellWord.of(""));
    }
}
