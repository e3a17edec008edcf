package org.hmsim.platform.kernel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.hmsim.platform.kernel.results.FolderLock;
import org.junit.jupiter.api.Test;

/**
 * {@code report DIR} wrote report.html and figures/ into a folder a running study held the lock of (a bad-input review):
 * the run then wrote its own report over it, or set the folder's files aside under a half-written one. It is refused as
 * {@code collect} refuses such a folder: one line, exit code 2, nothing written.
 */
class ReportLockTest extends ResultsCli {
    @Test
    void aFolderARunIsWritingIntoIsRefused() throws Exception {
        assertEquals(0, run());
        assertEquals(0, exec("report", out.toString()), err());
        Path html = out.resolve("report.html");
        byte[] before = bytes(html);
        Files.delete(out.resolve("figures").resolve(Files.list(out.resolve("figures")).findFirst().orElseThrow().getFileName()));
        long figures = Files.list(out.resolve("figures")).count();
        try (FolderLock running = FolderLock.acquire(out)) { // a study writing into it (this JVM: the shell's sim:run)
            assertOneLineError(exec("report", out.toString()), "report: an hmsim run is writing into " + out + " right now (it holds .hmsim.lock)");
            assertTrue(err().contains("nothing was written"), err());
            assertOneLineError(exec("collect", out.toString()), "collect: an hmsim run is writing into " + out + " right now (it holds .hmsim.lock)");
            assertArrayEquals(before, bytes(html), "report.html untouched");
            assertEquals(figures, Files.list(out.resolve("figures")).count(), "figures/ untouched");
            // reading the folder to draw its report elsewhere is fine: the runs finished so far, as for a study still running
            Path elsewhere = dir.resolve("elsewhere");
            assertEquals(0, exec("report", out.toString(), "--out", elsewhere.toString()), err());
            assertTrue(Files.isRegularFile(elsewhere.resolve("report.html")));
            // and an --out that a run is writing into is refused the same way
            Path other = dir.resolve("other");
            try (FolderLock otherRun = FolderLock.acquire(other)) {
                assertOneLineError(exec("report", elsewhere.toString(), "--out", other.toString()), "report: an hmsim run is writing into " + other);
                assertFalse(Files.exists(other.resolve("report.html")));
            }
        }
        assertEquals(0, exec("report", out.toString()), err());
        assertEquals(figures + 1, Files.list(out.resolve("figures")).count(), "once the run has ended, the report is written");
    }
}
