package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code hmsim conform} on the shipped presets where a review found it failing shipped policies for reasons of its own:
 * a fixed 1 µs epoch put the swaps after the end of a fast preset's run, and the forced {@code placement: interleave}
 * is refused on seed 004's machines, where the interleave and CTA-scheduler slots act.
 */
class ConformTest extends ContainerPerClass {

    @Test
    void aShippedPolicyPassesOnAFastPreset(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "placement", "local", "--machine",
                Hmsim.examples().resolve("machines/agarwal-ch4.yaml").toString(), "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertTrue(c.out().contains("PASS swap out mid-run (epoch 6) and the run completes"), c::toString);
    }

    @Test
    void theInterleaveSlotIsCheckedOnAMultiGpuMachine(@TempDir Path dir) throws Exception {
        Hmsim.Result c = Hmsim.run(container, "conform", "interleave", "coarse", "--machine",
                Hmsim.examples().resolve("machines/coda.yaml").toString(), "--work", dir.resolve("w").toString());
        assertEquals(0, c.code(), c::toString);
        assertFalse(c.out().contains("placement interleave"), "every pool is a GPU memory there: no placement is forced\n" + c.out());
        assertTrue(c.out().contains("PASS state export/import"), c::toString);
    }
}
