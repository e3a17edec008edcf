package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * A figure key refused since a folder began ({@code by} on a line figure, accepted before 2026-11-27) does not lock the
 * folder: {@code --resume} and {@code collect} read the study's figures as the earlier version did, while {@code validate}
 * and a new {@code run} refuse the key (found by a review: editing the study out of it changes its hash, which the
 * folder refuses too).
 */
class BegunStudyFiguresTest extends ResultsCli {
    @Test
    void resumeAndCollectAcceptAFigureKeyRefusedSinceTheFolderBegan() throws Exception {
        Files.writeString(study, Files.readString(study) + "sweep:\n  gpu.sms: [2, 4]\nreport:\n  - {kind: line, metric: sim_time_ns, x: gpu.sms, by: workload}\n");
        assertEquals(2, exec("validate", study.toString()));
        assertTrue(err().contains("report[0].by"), err());
        // the folder as an earlier version began it: --resume on a new folder runs the study
        assertEquals(0, run("--resume"), err());
        assertEquals(0, run("--resume"), err());
        assertEquals(0, exec("collect", out.toString()), err());
        assertEquals(2, run(), "a new run of it is refused as validate refuses it: " + err());
    }
}
