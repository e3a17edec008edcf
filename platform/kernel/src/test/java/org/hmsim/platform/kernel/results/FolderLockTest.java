package org.hmsim.platform.kernel.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One execution per results folder, across processes: looking at a folder this JVM writes into (the shell's status,
 * collect) must not drop its lock. On Linux closing any channel on the lock file released it (found by a review).
 */
class FolderLockTest {
    @TempDir
    Path dir;

    @Test
    void lookingAtAFolderThisJvmLocksKeepsTheLockForOtherProcesses() throws Exception {
        try (FolderLock lock = FolderLock.acquire(dir)) {
            assertTrue(FolderLock.held(dir));
            assertThrows(ResultsFolderException.class, () -> FolderLock.acquire(dir), "a second execution of this JVM is refused");
            assertTrue(FolderLock.held(dir));
            assertEquals("held", otherProcessSees(dir.resolve(FolderLock.NAME)), "another process still finds the folder locked");
        }
        assertEquals("free", otherProcessSees(dir.resolve(FolderLock.NAME)));
        try (FolderLock again = FolderLock.acquire(dir)) {
            assertTrue(FolderLock.held(dir), "released at close, and taken again");
        }
    }

    /**
     * The same through another name for the folder: a symbolic link to it, and the folder renamed while locked. Keyed
     * by the path as written, looking and a refused attempt opened and closed the file and dropped the lock (reviews).
     */
    @Test
    void anotherNameForTheFolderKeepsTheLockToo() throws Exception {
        Path real = java.nio.file.Files.createDirectories(dir.resolve("real/o"));
        Path link = java.nio.file.Files.createSymbolicLink(dir.resolve("link"), dir.resolve("real"));
        try (FolderLock lock = FolderLock.acquire(real)) {
            assertTrue(FolderLock.held(link.resolve("o")));
            assertThrows(ResultsFolderException.class, () -> FolderLock.acquire(link.resolve("o")));
            assertEquals("held", otherProcessSees(real.resolve(FolderLock.NAME)), "seen through a link");
            Path renamed = java.nio.file.Files.move(real, dir.resolve("real/p"));
            assertTrue(FolderLock.held(renamed));
            assertThrows(ResultsFolderException.class, () -> FolderLock.acquire(renamed));
            assertEquals("held", otherProcessSees(renamed.resolve(FolderLock.NAME)), "seen after a rename");
        }
    }

    /** What a separate JVM finds when it tries the lock file. */
    private static String otherProcessSees(Path file) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), FolderLockTest.class.getName(), file.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        p.waitFor();
        return out;
    }

    /** The other process: prints whether it could take the lock. */
    public static void main(String[] args) throws Exception {
        try (FileChannel ch = FileChannel.open(Path.of(args[0]), StandardOpenOption.WRITE)) {
            FileLock l = ch.tryLock();
            System.out.println(l == null ? "held" : "free");
        }
    }
}
