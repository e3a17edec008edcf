package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.hmsim.launcher.Container;

/**
 * What the tests share: where the assembled container is, a way to start it embedded (the launcher's own
 * {@link Container}, as {@code bin/hmsim} does), and a way to run a command and capture what it prints.
 */
final class Hmsim {
    private Hmsim() {}

    /** distribution/target/hmsim, assembled by {@code mvn verify} before this module runs. */
    static Path home() {
        Path home = Path.of(System.getProperty("hmsim.home", "../distribution/target/hmsim")).toAbsolutePath().normalize();
        if (!Files.isRegularFile(home.resolve("bin/hmsim")))
            fail("no container at " + home + ": build it first (mvn -B verify from the repository root)");
        return home;
    }

    /** The example plugin's bundle (examples/plugin), copied here by the build. */
    static Path pluginJar() {
        Path jar = Path.of(System.getProperty("hmsim.plugin.jar", "target/test-bundles/hmsim-example-plugin.jar"));
        assertTrue(Files.isRegularFile(jar), "example plugin jar " + jar);
        return jar.toAbsolutePath();
    }

    /** The repository's examples/ folder (machine presets, studies). */
    static Path examples() {
        return Path.of(System.getProperty("hmsim.examples", "../examples")).toAbsolutePath().normalize();
    }

    /** The small machine preset the studies of these tests use (examples/machines/small.yaml). */
    static String smallMachine() {
        Path m = examples().resolve("machines/small.yaml");
        assertTrue(Files.isRegularFile(m), "machine preset " + m);
        return m.toString();
    }

    /** Starts the container with its own (empty) hot-deploy folder, so tests never touch the real one. */
    static Container start(Path plugins) throws Exception {
        return Container.builder(home()).plugins(plugins).start();
    }

    /** A command's exit code and output. */
    record Result(int code, String out, String err) {
        String both() { return out + err; }

        @Override
        public String toString() { return "exit " + code + "\n--- stdout\n" + out + "--- stderr\n" + err; }
    }

    /** Runs one command in the container, as {@code bin/hmsim ARGS} would. */
    private static final Pattern STATUS_SWAPS = Pattern.compile("swaps: (\\d+)");
    private static final Pattern STATUS_PLACEMENT = Pattern.compile("placement=(\\S+)");

    /** The swap count {@code status} shows for the (one) running run; -1 if none. */
    static int swaps(Result status) {
        Matcher m = STATUS_SWAPS.matcher(status.out());
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    /** The placement policy {@code status} shows for the running run; empty if none. */
    static String placement(Result status) {
        Matcher m = STATUS_PLACEMENT.matcher(status.out());
        return m.find() ? m.group(1) : "";
    }

    /** Polls {@code status} (up to 20 s) until a run is running and satisfies {@code done}; fails saying {@code what}. */
    static Result awaitRunning(Container c, Predicate<Result> done, String what) throws InterruptedException {
        Result r = runUntil(c, Duration.ofSeconds(20), x -> x.out().contains(" running ") && x.out().contains("policies:") && done.test(x), "status");
        assertTrue(r.out().contains("policies:") && done.test(r), what + " (the run may have ended too early)\n" + r);
        return r;
    }

    /** {@code hmsim run STUDY --out OUT --jobs 1 --no-report} on another thread, so a test can act while it runs. */
    static java.util.concurrent.CompletableFuture<Result> runInBackground(Container c, Path study, Path out) {
        return java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return run(c, "run", study.toString(), "--out", out.toString(), "--jobs", "1", "--no-report");
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    static Result run(Container c, String... args) throws InterruptedException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = c.execute(o, e, args);
        }
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Repeats a command until its result satisfies {@code done} (hot deploy is asynchronous). */
    static Result runUntil(Container c, Duration timeout, Predicate<Result> done, String... args) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        Result r = run(c, args);
        while (!done.test(r) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            r = run(c, args);
        }
        return r;
    }

    /**
     * The policies {@code hmsim policies} lists, by slot id. Its format: a line {@code slot: doc} per
     * slot, then a line {@code "  name version  [bundle version]"} per policy (deeper lines document it).
     */
    static Map<String, Map<String, String>> policies(Result r) {
        Map<String, Map<String, String>> bySlot = new TreeMap<>();
        Map<String, String> current = null;
        for (String line : r.out().split("\\R")) {
            Matcher slot = SLOT_LINE.matcher(line);
            Matcher policy = POLICY_LINE.matcher(line);
            if (slot.matches()) {
                current = new TreeMap<>();
                bySlot.put(slot.group(1), current);
            } else if (policy.matches() && current != null) {
                current.put(policy.group(1), policy.group(2));
            }
        }
        return bySlot;
    }

    private static final Pattern SLOT_LINE = Pattern.compile("([a-z0-9-]+): .*");
    /** name, then the bundle that offers it. */
    private static final Pattern POLICY_LINE = Pattern.compile("  (\\S+) \\S+\\s+\\[([^\\]]+)\\].*");

    /** Whether {@code hmsim policies} printed {@code name} under {@code slot}. */
    static boolean lists(Result r, String slot, String name) {
        return r.code() == 0 && policies(r).getOrDefault(slot, Map.of()).containsKey(name);
    }

    /** Writes a study file and returns its path. */
    static Path write(Path file, String... lines) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }

    /** The 1-based line of the first line of {@code file} that contains {@code text}. */
    static int lineOf(Path file, String text) throws IOException {
        var lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).contains(text)) return i + 1;
        throw new AssertionError(file + " has no line with " + text);
    }
}
