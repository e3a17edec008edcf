package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * (f) {@code bin/hmsim} as a real process: killed (SIGKILL) in the middle of a study, then run again
 * with {@code --resume}, it finishes the study without redoing the finished runs, and its runs.csv is
 * byte for byte that of an uninterrupted run.
 */
class ResumeTest {
    /** Runs of the study below; each takes 0.2-0.8 s here, so a kill after the second lands midway. */
    private static final int RUNS = 6;
    private static final long TIMEOUT_S = 120;

    @TempDir Path dir;
    /** Each process started, with the number of its output files. */
    private final Map<Process, Integer> processes = new LinkedHashMap<>();

    @AfterEach
    void killLeftovers() {
        for (Process p : processes.keySet()) p.destroyForcibly();
    }

    @Test
    void aKilledStudyResumesWithoutRedoingFinishedRunsAndEndsAsAnUninterruptedOne() throws Exception {
        Path study = study();
        Path reference = dir.resolve("reference");
        Hmsim.Result uninterrupted = finish(start(hmsim(), "run", study.toString(), "--out", reference.toString(), "--jobs", "1"));
        assertEquals(0, uninterrupted.code(), () -> Studies.errors(uninterrupted, reference));
        assertEquals(RUNS, completed(reference).size(), uninterrupted::toString);

        Path out = dir.resolve("interrupted");
        Process first = start(hmsim(), "run", study.toString(), "--out", out.toString(), "--jobs", "1");
        awaitCompleted(first, out, 2);
        first.destroyForcibly();
        assertTrue(first.waitFor(TIMEOUT_S, TimeUnit.SECONDS));
        Map<Path, FileTime> before = completed(out);
        assertTrue(before.size() >= 2 && before.size() < RUNS, "killed midway: " + before.size() + " of " + RUNS + " runs done");

        Hmsim.Result resumed = finish(start(hmsim(), "run", study.toString(), "--out", out.toString(), "--jobs", "1", "--resume"));

        assertEquals(0, resumed.code(), () -> Studies.errors(resumed, out));
        assertArrayEquals(Files.readAllBytes(reference.resolve("runs.csv")), Files.readAllBytes(out.resolve("runs.csv")),
                "runs.csv of the resumed study equals the uninterrupted one");
        Map<Path, FileTime> after = completed(out);
        assertEquals(RUNS, after.size());
        for (Map.Entry<Path, FileTime> e : before.entrySet()) {
            assertEquals(e.getValue(), after.get(e.getKey()), e.getKey() + " was not redone");
        }
        assertFalse(cacheOf(first.pid()), "the next start removed the bundle cache the killed container left");
        try (Stream<Path> files = Files.walk(out)) {
            // A kill may leave a stray temporary file (AtomicFiles); never a half-written result.
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                String name = p.getFileName().toString();
                if (name.endsWith(".json")) assertTrue(Files.readString(p).trim().endsWith("}"), p + " is whole");
            }
        }
    }

    /** Whether a bundle cache owned by process {@code pid} is still in the temporary folder. */
    private static boolean cacheOf(long pid) throws IOException {
        try (Stream<Path> s = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            for (Path d : s.filter(p -> p.getFileName().toString().startsWith("hmsim-felix-")).toList()) {
                Path owner = d.resolve("owner.pid");
                if (Files.isRegularFile(owner) && Files.readString(owner).trim().equals(Long.toString(pid))) return true;
            }
        }
        return false;
    }

    /** RUNS runs (one per seed) of a short stream kernel on the small machine. */
    private Path study() throws IOException {
        List<String> seeds = new ArrayList<>();
        for (int i = 1; i <= RUNS; i++) seeds.add(Integer.toString(i));
        return Hmsim.write(dir.resolve("resume.yaml"),
                "study: resume",
                "seeds: [" + String.join(", ", seeds) + "]",
                "machine: " + Hmsim.smallMachine(),
                "workloads:",
                "  - { name: stream, elements: 524288 }",
                "policies:",
                "  placement: interleave");
    }

    /** The stats.json of every finished run (it is written last), with its modification time. */
    private static Map<Path, FileTime> completed(Path out) throws IOException {
        Map<Path, FileTime> m = new TreeMap<>();
        Path runs = out.resolve("runs");
        if (!Files.isDirectory(runs)) return m;
        try (Stream<Path> s = Files.list(runs)) {
            for (Path run : s.toList()) {
                Path stats = run.resolve("stats.json");
                if (Files.isRegularFile(stats)) m.put(out.relativize(stats), Files.getLastModifiedTime(stats));
            }
        }
        return m;
    }

    private static void awaitCompleted(Process p, Path out, int runs) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (completed(out).size() < runs) {
            if (!p.isAlive()) fail("hmsim exited (" + p.exitValue() + ") before " + runs + " runs had finished");
            if (System.nanoTime() > deadline) fail("no " + runs + " finished runs after " + TIMEOUT_S + " s");
            Thread.sleep(20);
        }
        if (!p.isAlive()) fail("the study finished before it could be interrupted: make its runs longer");
    }

    private static Path hmsim() {
        return Hmsim.home().resolve("bin/hmsim");
    }

    private Process start(Path script, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(script.toString()));
        cmd.addAll(List.of(args));
        int n = processes.size();
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectOutput(dir.resolve("out" + n + ".txt").toFile())
                .redirectError(dir.resolve("err" + n + ".txt").toFile());
        pb.environment().put("HMSIM_JAVA_OPTS", "-Xmx512m");
        Process p = pb.start();
        processes.put(p, n);
        return p;
    }

    private Hmsim.Result finish(Process p) throws Exception {
        if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("hmsim did not finish within " + TIMEOUT_S + " s");
        }
        int n = processes.get(p);
        return new Hmsim.Result(p.exitValue(), Files.readString(dir.resolve("out" + n + ".txt"), StandardCharsets.UTF_8),
                Files.readString(dir.resolve("err" + n + ".txt"), StandardCharsets.UTF_8));
    }

}
