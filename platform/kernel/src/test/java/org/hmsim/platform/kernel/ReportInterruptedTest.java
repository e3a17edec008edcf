package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.FolderLock;
import org.junit.jupiter.api.Test;

/**
 * After {@code kill -9} study.json keeps "running" (nothing was left to rewrite it), and {@code report DIR} wrote "study
 * running" into report.html while {@code status DIR} said no process held the folder (a tester's trial). report asks the
 * folder's lock as status does: a study no process writes any more was interrupted.
 */
class ReportInterruptedTest extends ResultsCli {
    /** study.json as a killed execution leaves it. */
    private void killed() throws Exception {
        Path p = out.resolve("study.json");
        String text = Files.readString(p);
        assertTrue(text.contains("\"status\" : \"finished\""), text);
        Files.writeString(p, text.replace("\"status\" : \"finished\"", "\"status\" : \"running\""));
    }

    @Test
    void aKilledStudyIsReportedInterrupted() throws Exception {
        assertEquals(0, run());
        killed();
        assertEquals(0, exec("report", out.toString()), err());
        String html = Files.readString(out.resolve("report.html"));
        assertTrue(html.contains("study interrupted"), "the subtitle");
        assertFalse(html.contains("study running"), "not running: no process holds the folder");
        assertTrue(html.contains("<dd>interrupted</dd>"), "the provenance too");
        assertTrue(err().contains("warning: study.json says the study is running, but no hmsim process is writing " + out), err());
        assertTrue(html.contains("--resume continues it"), "the report says what to do");
    }

    @Test
    void aStudyStillRunningIsReportedRunning() throws Exception {
        assertEquals(0, run());
        killed();
        Path elsewhere = dir.resolve("elsewhere");
        try (FolderLock running = FolderLock.acquire(out)) { // its execution still holds the folder
            assertEquals(0, exec("report", out.toString(), "--out", elsewhere.toString()), err());
        }
        String html = Files.readString(elsewhere.resolve("report.html"));
        assertTrue(html.contains("study running") && !html.contains("study interrupted"), "a live study is running");
    }
}
