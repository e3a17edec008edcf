package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/** --resume continues only the same study: results of another version are refused, and what changed is named. */
class ResumeVersionTest extends ResultsCli {
    @Test
    void resumeRefusesResultsOfAnotherVersionOfTheStudy() throws Exception {
        assertEquals(0, run());
        byte[] table = bytes(out.resolve("runs.csv")), config = bytes(out.resolve("runs/0002/config.json"));
        study(8192);
        assertOneLineError(run("--resume"), "--resume: " + out + " holds results of another version of " + study
                + " (run 0002: workload.params.nodes: 4096 then, 8192 now); run without --resume");
        assertArrayEquals(table, bytes(out.resolve("runs.csv")));
        assertArrayEquals(config, bytes(out.resolve("runs/0002/config.json")));

        Files.writeString(study(4096), Files.readString(study) + "# a comment\n");
        assertOneLineError(run("--resume"), "(the file changed since: SHA-256 ");
        study(4096);
        assertEquals(0, run("--resume"));
        assertTrue(out().contains("2 already done, resuming"), out());
    }
}
