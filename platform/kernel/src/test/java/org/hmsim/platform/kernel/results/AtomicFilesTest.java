package org.hmsim.platform.kernel.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Results files are written whole, and as readable as any file the user creates there (the umask decides). */
class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void aResultsFileHasThePermissionsOfAnyNewFileAndNoTemporaryIsLeft() throws Exception {
        Path plain = Files.createFile(dir.resolve("plain"));
        AtomicFiles.write(dir.resolve("runs.csv"), "run,status\n");
        AtomicFiles.write(dir.resolve("runs.csv"), "run,status\n0001,ok\n");
        assertEquals(Files.getPosixFilePermissions(plain), Files.getPosixFilePermissions(dir.resolve("runs.csv")),
                "not owner-only (0600) as a JDK temporary file is");
        assertEquals("run,status\n0001,ok\n", Files.readString(dir.resolve("runs.csv")));
        try (var s = Files.list(dir)) {
            assertEquals(List.of("plain", "runs.csv"), s.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
