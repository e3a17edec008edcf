package org.hmsim.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

/**
 * The framework's bundle cache: a fresh temporary folder per JVM, deleted when the container stops.
 * Every start is therefore clean — the bundles are exactly those of {@code bundle/} and {@code plugins/},
 * never a leftover of an earlier session. A JVM killed with SIGKILL cannot delete its folder, so each
 * folder records its owner's pid and the next start removes folders whose owner is gone.
 *
 * <p>Layout: {@code hmsim-felix-NNN/owner.pid} and {@code hmsim-felix-NNN/cache/} (the framework's
 * storage). The pid file must stay outside the cache: Felix empties the cache when it initialises.
 */
final class Storage {
    static final String PREFIX = "hmsim-felix-";
    private static final String PID_FILE = "owner.pid";
    private static final String CACHE = "cache";
    /** A folder without a pid file may be one another JVM is creating right now. */
    private static final Duration GRACE = Duration.ofMinutes(1);

    private Storage() {}

    /** The framework's storage folder inside a folder made by {@link #create}. */
    static Path cache(Path dir) {
        return dir.resolve(CACHE);
    }

    static Path create(Path tmpRoot) throws IOException {
        sweepOrphans(tmpRoot);
        Path dir = Files.createTempDirectory(tmpRoot, PREFIX);
        Files.writeString(dir.resolve(PID_FILE), Long.toString(ProcessHandle.current().pid()), StandardCharsets.US_ASCII);
        return dir;
    }

    /** Deletes a folder tree; best effort, because it runs at exit. */
    static void delete(Path dir) {
        if (dir == null || !Files.exists(dir)) return;
        try {
            Files.walkFileTree(dir, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path f, BasicFileAttributes a) throws IOException {
                    Files.deleteIfExists(f);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path d, IOException e) throws IOException {
                    Files.deleteIfExists(d);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException ignored) {
            // A file still open elsewhere; the next start's sweep removes the rest.
        }
    }

    /** Removes bundle caches left by containers whose JVM died without cleaning up. */
    static void sweepOrphans(Path tmpRoot) {
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(tmpRoot, PREFIX + "*")) {
            for (Path d : dirs) if (isOrphan(d)) delete(d);
        } catch (IOException | RuntimeException ignored) {
            // Not our folder to police if we cannot read it.
        }
    }

    static boolean isOrphan(Path dir) {
        try {
            Path pidFile = dir.resolve(PID_FILE);
            if (!Files.exists(pidFile)) {
                FileTime t = Files.getLastModifiedTime(dir);
                return t.toInstant().isBefore(Instant.now().minus(GRACE));
            }
            long pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
            return pid != ProcessHandle.current().pid() && ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
