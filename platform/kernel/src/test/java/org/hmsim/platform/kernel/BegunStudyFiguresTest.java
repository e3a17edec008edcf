package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * A figure key refused since a folder began ({@code invert} on a figure that is not normalised, accepted before
 * 2026-11-27) does not lock the folder: {@code --resume} and {@code collect} read the study's figures as the earlier
 * version did, while {@code validate}, a new {@code run} and {@code --resume} into a new folder refuse the key (found by
 * a review: editing the study out of it changes its hash, which the folder refuses too).
 */
class BegunStudyFiguresTest extends ResultsCli {
    @Test
    void resumeAndCollectAcceptAFigureKeyRefusedSinceTheFolderBegan() throws Exception {
        assertEquals(0, run(), err());
        // the folder as an earlier version began it from this file: its study.json records the file's hash
        Files.writeString(study, Files.readString(study) + "report:\n  - {metric: sim_time_ns, invert: true}\n");
        Path provenance = out.resolve("study.json");
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(study)));
        Files.writeString(provenance, Files.readString(provenance).replaceFirst("\"study_sha256\" : \"[0-9a-f]+\"", "\"study_sha256\" : \"" + sha + "\""));
        assertTrue(Files.readString(provenance).contains(sha), "study.json names the file's hash");

        assertEquals(2, exec("validate", study.toString()));
        assertTrue(err().contains("report[0].invert"), err());
        assertEquals(0, run("--resume"), err());
        assertEquals(0, exec("collect", out.toString()), err());
        // nothing begun in a new folder: checked as a plain run checks it
        assertEquals(2, exec("run", study.toString(), "--out", dir.resolve("new").toString(), "--resume", "--no-report"), err());
        assertEquals(2, run(), "a new run of it is refused as validate refuses it: " + err());
    }
}
