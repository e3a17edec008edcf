package org.hmsim.platform.machine;

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
        assertTrue(text.matches("(?s)swap drain \\(replacement, every 2 us epoch, [1-9][0-9]* swaps\\): mean [0-9.]+ us wall.*ns simulated\\s*"), text);
    }
}
