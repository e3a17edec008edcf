package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class BenchSwapsTest {
    @Test
    void theBenchReportsTheDrainTimeOfSwapsThatAllSucceed() {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(b, true, StandardCharsets.UTF_8);
        BenchSwaps.report(TestMachines.machine("small"), new SwappableProviders(),
                (name, params) -> TestMachines.workload(name, 1, "elements", 32768), out);
        String text = b.toString(StandardCharsets.UTF_8);
        String[] lines = text.trim().split("\\R");
        assertEquals(2, lines.length, text);
        String number = "[0-9]+\\.[0-9]";
        assertTrue(lines[0].matches("swap drain, replacement \\(rebuilt in place\\), [1-9][0-9]* swaps every 250 ns: first " + number
                + " us wall; then median " + number + " us, max " + number + " us wall; median 0\\.0 ns simulated"), lines[0]);
        // a coherence swap drains the memory system: its simulated drain is never zero
        assertTrue(lines[1].matches("swap drain, coherence \\(memory drained, caches flushed\\), [1-9][0-9]* swaps every 2000 ns: first " + number
                + " us wall; then median " + number + " us, max " + number + " us wall; median [1-9][0-9]*\\.[0-9] ns simulated"), lines[1]);
    }
}
