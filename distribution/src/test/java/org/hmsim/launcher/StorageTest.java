package org.hmsim.launcher;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageTest {
    @TempDir Path tmp;

    @Test
    void aCacheIsCreatedWithItsOwnerAndDeletedWholly() throws Exception {
        Path dir = Storage.create(tmp);
        Files.createDirectories(dir.resolve("bundle1/version0.0"));
        Files.writeString(dir.resolve("bundle1/version0.0/bundle.info"), "x");
        assertFalse(Storage.isOrphan(dir), "our own cache is not an orphan");

        Storage.delete(dir);

        assertFalse(Files.exists(dir));
    }

    @Test
    void theCacheOfADeadProcessIsSweptAndALiveOneIsKept() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        Path dead = Files.createDirectory(tmp.resolve(Storage.PREFIX + "dead"));
        Files.writeString(dead.resolve("owner.pid"), Long.toString(p.pid()));
        Path alive = Files.createDirectory(tmp.resolve(Storage.PREFIX + "alive"));
        Files.writeString(alive.resolve("owner.pid"), Long.toString(ProcessHandle.current().pid()));
        Path young = Files.createDirectory(tmp.resolve(Storage.PREFIX + "being-created"));

        Storage.sweepOrphans(tmp);

        assertFalse(Files.exists(dead));
        assertTrue(Files.exists(alive));
        assertTrue(Files.exists(young), "a folder without owner may still be being created");
    }
}
