package org.hmsim.platform.kernel.results;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Every results file is written whole or not at all (DESIGN §8): to a temporary file in the same folder,
 * forced to disk, then renamed over the target. A study killed at any moment leaves old or new files,
 * never half-written ones; only a stray {@code .*.tmp} may remain, which nothing reads.
 */
public final class AtomicFiles {
    /**
     * Whether to force each file to disk before the rename (survives an OS crash, not only a killed
     * process). On by default; {@code -Dhmsim.results.fsync=false} turns it off (the unit tests do).
     */
    private static final boolean FSYNC = !"false".equals(System.getProperty("hmsim.results.fsync"));

    private AtomicFiles() {}

    /** Removes {@code dir} and everything below it (links are removed, not followed); nothing if it is absent. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (java.util.stream.Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }

    private static final java.util.concurrent.atomic.AtomicLong TEMPS = new java.util.concurrent.atomic.AtomicLong();

    /**
     * A new empty temporary file beside the target, created with the process's umask like any other file (so a
     * group sharing a results folder on a cluster file system can read the results: Files.createTempFile makes
     * them owner-only, 0600, which the rename kept; found by a review).
     */
    private static Path newTemp(Path dir, String name) throws IOException {
        while (true) {
            Path t = dir.resolve("." + name + "." + ProcessHandle.current().pid() + "-" + TEMPS.incrementAndGet() + ".tmp");
            try {
                return Files.createFile(t);
            } catch (java.nio.file.FileAlreadyExistsException taken) {
                // a leftover of an earlier process with the same pid: the next number
            }
        }
    }

    public static void write(Path target, String text) {
        write(target, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Writes {@code target} whole, or throws {@link ResultsWriteException} naming it and why (a full disk, permissions). */
    public static void write(Path target, byte[] data) {
        Path dir = target.toAbsolutePath().getParent();
        Path tmp = null;
        try {
            Files.createDirectories(dir);
            tmp = newTemp(dir, target.getFileName().toString());
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer b = ByteBuffer.wrap(data);
                while (b.hasRemaining()) ch.write(b);
                if (FSYNC) ch.force(true);
            }
            try {
                Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
            }
            tmp = null;
        } catch (IOException e) {
            throw new ResultsWriteException("cannot write", target, e);
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException ignored) {
                    // the original error matters more
                }
            }
        }
    }
}
