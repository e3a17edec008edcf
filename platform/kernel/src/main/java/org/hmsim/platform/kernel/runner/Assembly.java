package org.hmsim.platform.kernel.runner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.hmsim.platform.kernel.results.Environment;
import org.hmsim.platform.kernel.results.Json;
import org.hmsim.platform.kernel.results.Provenance;
import org.hmsim.platform.kernel.results.ResultsFolder;
import org.hmsim.platform.kernel.study.PlannedRun;
import org.hmsim.platform.kernel.study.Study;

/**
 * Builds runs.csv and study.json of a results folder from the per-run files on disk, after runs were
 * written by processes that know nothing of each other (a batch scheduler's array tasks). Several tasks
 * may end at the same moment: a lock on {@value #LOCK} lets exactly one of them assemble, the others
 * return at once. The lock is an OS file lock, released when its process dies, so an assembler killed
 * midway leaves old or new files (each is written atomically) and {@code hmsim collect DIR} redoes it.
 */
public final class Assembly {
    public static final String LOCK = ".assemble.lock";

    /** What an assembly found. */
    public record Outcome(boolean assembled, int ended, int failed, int total) {
        public boolean complete() { return ended == total; }

        public int missing() { return total - ended; }
    }

    private Assembly() {}

    /** Whether every run of the study ended (stats.json or error.txt): the last task then assembles. */
    public static boolean allEnded(Study study, Path dir) {
        ResultsFolder f = new ResultsFolder(dir, study);
        for (PlannedRun r : study.runs()) if (!f.ended(r)) return false;
        return true;
    }

    /**
     * Assembles runs.csv (every run that ended, in run order) and study.json (status {@code finished} if
     * all runs ended, else {@code incomplete}) unless another process is assembling right now.
     */
    public static Outcome assemble(Study study, Path dir, Environment env) {
        ResultsFolder f = new ResultsFolder(dir, study);
        try {
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock held = tryLock(ch);
                if (held == null) return count(study, f, false);
                try (FileLock lock = held) {
                    f.loadEnded();
                    f.writeTable();
                    Outcome o = count(study, f, true);
                    Provenance.write(dir, study, env, started(dir), Instant.now(), o.complete() ? "finished" : "incomplete: " + o.missing() + " run(s) missing");
                    return o;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot assemble " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The assembly lock, or null if another process (or thread of this JVM) holds it. */
    private static FileLock tryLock(FileChannel ch) throws IOException {
        try {
            return ch.tryLock();
        } catch (OverlappingFileLockException sameJvm) {
            return null;
        }
    }

    private static Outcome count(Study study, ResultsFolder f, boolean assembled) {
        int ended = 0, failed = 0;
        for (PlannedRun r : study.runs()) {
            if (f.ended(r)) ended++;
            if (f.failed(r)) failed++;
        }
        return new Outcome(assembled, ended, failed, study.runs().size());
    }

    /** When the execution started, as the submission recorded it in study.json (else now). */
    private static Instant started(Path dir) {
        Path p = dir.resolve(ResultsFolder.PROVENANCE);
        try {
            if (Files.isRegularFile(p)) {
                Object s = Json.read(p).get("started");
                if (s != null) return Instant.parse(s.toString());
            }
        } catch (RuntimeException e) {
            // An unreadable study.json or time: the assembly time is the best we know.
        }
        return Instant.now();
    }
}
