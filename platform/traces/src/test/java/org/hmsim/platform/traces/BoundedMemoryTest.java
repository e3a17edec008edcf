package org.hmsim.platform.traces;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writing and replaying a trace many times larger than the heap, in a child JVM with -Xmx64m. The size is
 * {@code -Dhmsim.traces.bigMB} (default 128, twice the heap); the check is 2048 MB under 256 MB of heap (see
 * docs/traces.md for the command).
 */
class BoundedMemoryTest {
    @TempDir
    Path dir;

    @Test
    void aTraceFarLargerThanTheHeapStreams() throws Exception {
        long mb = Long.getLong("hmsim.traces.bigMB", 128);
        Path file = dir.resolve("big.hmt");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xmx64m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                BigTraceMain.class.getName(), file.toString(), String.valueOf(mb)))
                .redirectErrorStream(true).redirectOutput(dir.resolve("child.txt").toFile()).start();
        assertTrue(p.waitFor(10, TimeUnit.MINUTES), "child timed out");
        String out = Files.readString(dir.resolve("child.txt"));
        assertEquals(0, p.exitValue(), out);
        long bytes = Long.parseLong(out.replaceAll("(?s).*bytes=(\\d+).*", "$1"));
        assertTrue(bytes >= mb * 9 / 10 << 20, "trace of " + bytes + " bytes: " + out);
        assertTrue(bytes > 2 * (64L << 20), "the trace is larger than the child's heap: " + out);
        assertTrue(out.contains("maxHeapMB=") && !out.contains("OutOfMemoryError"), out);
        Files.delete(file);
        // File.separator is only used to keep the child command portable
        assertTrue(File.separator.length() == 1);
    }
}
