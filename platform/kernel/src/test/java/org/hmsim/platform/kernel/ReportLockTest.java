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

    /**
     * {@code compare A B} writes its page into B/compare by default: into a folder a run is writing, whose start sets
     * the earlier results aside and whose end writes its own report (a review). Refused as report is; reading B to
     * draw the comparison elsewhere is fine.
     */
    @Test
    void compareIntoAFolderARunIsWritingIntoIsRefused() throws Exception {
        assertEquals(0, run());
        Path a = dir.resolve("a");
        copyTree(out, a);
        try (FolderLock running = FolderLock.acquire(out)) {
            assertOneLineError(exec("compare", a.toString(), out.toString()), "compare: an hmsim run is writing into " + out + " right now (it holds .hmsim.lock)");
            assertTrue(err().contains("nothing was written"), err());
            assertFalse(Files.exists(out.resolve("compare")), "no compare/ in the running study's folder");
            Path elsewhere = dir.resolve("cmp");
            assertEquals(0, exec("compare", a.toString(), out.toString(), "--out", elsewhere.toString()), err());
            assertTrue(Files.isRegularFile(elsewhere.resolve("report.html")));
            // an --out whose folder above is a running study's is refused too
            assertOneLineError(exec("compare", a.toString(), out.toString(), "--out", out.resolve("mine").toString()), "compare: an hmsim run is writing into " + out);
            assertFalse(Files.exists(out.resolve("mine")));
        }
        assertEquals(0, exec("compare", a.toString(), out.toString()), err());
        assertTrue(Files.isRegularFile(out.resolve("compare").resolve("report.html")), "once the run has ended, the comparison is written");
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var paths = Files.walk(from)) {
            for (Path p : (Iterable<Path>) paths::iterator) {
                if (p.getFileName().toString().equals(FolderLock.NAME)) continue;
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t); else Files.copy(p, t);
            }
        }
    }
}
