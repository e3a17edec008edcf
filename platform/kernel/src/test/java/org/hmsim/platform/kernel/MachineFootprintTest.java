package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * {@code gpu.l1.size: 16GiB} in a machine file passed validate; the run then died of an OutOfMemoryError that named no
 * field (a bad-input review). validate and run refuse it before anything runs, at its line of the machine file, and a
 * run leaves the folder's earlier results where they are.
 */
class MachineFootprintTest extends ResultsCli {
    @Test
    void anAbsurdCacheSizeIsRefusedAtItsLineBeforeAnythingRuns() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv"));
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE.replace("  sms: 4\n", "  sms: 4\n  l1: { size: 16GiB }\n"));
        String at = dir.resolve("machines/small.yaml") + ":6:";
        assertOneLineError(exec("validate", study.toString()), at);
        assertTrue(err().startsWith(at + "15: gpu.l1.size: 16GiB in 128 B lines is 134217728 lines in each of the 4 SMs' L1s, 536870912 in all, "
                + "about 12.5 GiB of memory; one structure of the model may take at most 1 GiB"), err());
        assertOneLineError(run(), at + "15: gpu.l1.size: ");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")), "the earlier results are where they were");
        assertFalse(Files.exists(out.resolve("previous")), "nothing was set aside");
        // an override of the study names its own line
        Fakes.write(dir, "machines/small.yaml", Fakes.MACHINE);
        Fakes.write(dir, "studies/s.yaml", "study: s\nmachine: ../machines/small.yaml\noverrides: {pools.gddr.queue: 65536, pools.gddr.channels: 1024}\nworkloads: [stream]\n");
        assertOneLineError(exec("validate", study.toString()), "s.yaml:3:");
        assertTrue(err().contains("pools.gddr.queue: 65536 queue entries in each of the 1024 channels of pool 'gddr', 67108864 in all, about 3.6 GiB"), err());
    }
}
