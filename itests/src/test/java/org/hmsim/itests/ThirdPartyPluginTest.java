package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Issue 4 item 4: examples/third-party-plugin (a separate Maven project against the published api artifact)
 * builds, its jar dropped into a running container's plugins/ is deployed, and its {@code srrip} policy is
 * swapped into the L2/L1 replacement slot of a run in flight, which then completes.
 */
class ThirdPartyPluginTest extends ContainerPerTest {
    /**
     * Builds the example with the Maven on PATH as a plugin author would, against the api jar this build made
     * ({@code -Dhmsim.api.jar=api/target/hmsim-api-*.jar}, the example's profile for a container's own api jar). Not
     * offline: on a cold cache the plugin's own build plugins come from the registry. It used to publish the api first
     * ({@code mvn install -pl api -am}), which overwrote the {@code hmsim-api} in the user's {@code ~/.m2}, shared with
     * every other checkout and plugin project there, as a side effect of {@code mvn verify} (found by a plugin author
     * whose other checkouts build against that artifact); {@link #theBuildLeavesTheLocalRepositoryAlone} checks it no
     * longer does.
     */
    static Path build() throws Exception {
        String mvn = null;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            if (Files.isExecutable(Path.of(d, "mvn"))) mvn = Path.of(d, "mvn").toString();
        if (mvn == null) System.out.println("ThirdPartyPluginTest skipped: mvn is not on PATH");
        assumeTrue(mvn != null, "mvn is not on PATH");
        Path root = Hmsim.examples().getParent();
        Path apiJar;
        try (var files = Files.list(root.resolve("api/target"))) {
            apiJar = files.filter(f -> f.getFileName().toString().matches("hmsim-api-.*\\.jar") && !f.getFileName().toString().contains("sources"))
                    .findFirst().orElseThrow(() -> new AssertionError("no api jar in " + root.resolve("api/target")));
        }
        Path log = Files.createTempFile("third-party-build", ".log");
        Process p = new ProcessBuilder(mvn, "-q", "-B", "-f", "examples/third-party-plugin/pom.xml", "package", "-Dhmsim.api.jar=" + apiJar)
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the build finished");
            assertEquals(0, p.exitValue(), () -> "mvn package of the third-party plugin\n" + read(log));
        } finally {
            p.destroyForcibly();
            Files.deleteIfExists(log);
        }
        Path jar = root.resolve("examples/third-party-plugin/target/hmsim-srrip-1.0.0.jar");
        assertTrue(Files.isRegularFile(jar), jar.toString());
        return jar;
    }

    /** Building the example does not install or change anything in ~/.m2 (its hmsim-api above all). */
    @Test
    void theBuildLeavesTheLocalRepositoryAlone() throws Exception {
        Path repo = Path.of(System.getProperty("user.home"), ".m2", "repository", "org", "hmsim", "hmsim-api");
        String before = snapshot(repo);
        build();
        assertEquals(before, snapshot(repo), "the plugin's build changed " + repo);
    }

    /** Every file under {@code dir} with its size and modification time (empty if there is no such folder). */
    private static String snapshot(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) return "";
        StringBuilder b = new StringBuilder();
        try (var files = Files.walk(dir)) {
            for (Path f : (Iterable<Path>) files.sorted()::iterator)
                if (Files.isRegularFile(f)) b.append(f).append(' ').append(Files.size(f)).append(' ').append(Files.getLastModifiedTime(f)).append('\n');
        }
        return b.toString();
    }

    private static String read(Path p) {
        try {
            return Files.readString(p);
        } catch (Exception e) {
            return e.toString();
        }
    }

    @Test
    void theThirdPartyPluginPassesTheConformanceKit() throws Exception {
        Path jar = build();
        Files.copy(jar, plugins.resolve("srrip.jar"));
        Hmsim.Result listed = Hmsim.runUntil(container, Duration.ofSeconds(15), r -> Hmsim.lists(r, "replacement", "srrip"), "policies");
        assertTrue(Hmsim.lists(listed, "replacement", "srrip"), listed::toString);
        Hmsim.Result c = Hmsim.run(container, "conform", "replacement", "srrip", "--machine", Hmsim.smallMachine(), "--work", dir.resolve("conform").toString());
        assertEquals(0, c.code(), c::toString);
        assertTrue(c.out().contains("PASS 'rrpv_bits' refuses a value above 6\n"), c::toString);
        assertTrue(c.out().contains("PASS parameter names are unique"), c::toString);
        assertTrue(c.out().contains("PASS determinism"), c::toString);
        assertTrue(c.out().contains("PASS state export/import"), c::toString);
        assertTrue(!c.out().contains("FAIL"), c::toString);
    }

    @Test
    void theThirdPartyPluginBuildsHotDeploysAndIsSwappedIntoARunningRun() throws Exception {
        Path jar = build();
        Files.copy(jar, plugins.resolve("srrip.jar"));
        Hmsim.Result listed = Hmsim.runUntil(container, Duration.ofSeconds(15), r -> Hmsim.lists(r, "replacement", "srrip"), "policies");
        assertTrue(Hmsim.lists(listed, "replacement", "srrip"), listed::toString);
        assertTrue(Hmsim.policies(listed).get("replacement").get("srrip").startsWith("org.example.srrip "), listed::toString);
        assertTrue(listed.out().contains("rrpv_bits"), "its parameter is documented\n" + listed);

        Path study = Hmsim.write(dir.resolve("tp.yaml"), "study: tp", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 4194304 }", "policies:", "  replacement: lru", "epoch: 1us");
        Path out = dir.resolve("out");
        CompletableFuture<Hmsim.Result> run = Hmsim.runInBackground(container, study, out);
        try {
            Hmsim.Result live = Hmsim.runUntil(container, Duration.ofSeconds(20), r -> r.out().contains("swaps: 0"), "status");
            assertTrue(live.out().contains("swaps: 0"), live::toString);
            Hmsim.Result bad = Hmsim.run(container, "swap", "0001", "replacement", "srrip", "rrpv_bits=9");
            assertNotEquals(0, bad.code(), "an out-of-range parameter is refused at once\n" + bad);
            Hmsim.Result ok = Hmsim.run(container, "swap", "0001", "replacement", "srrip", "rrpv_bits=3");
            assertEquals(0, ok.code(), ok::toString);
        } finally {
            Hmsim.Result r = run.get(120, TimeUnit.SECONDS);
            assertEquals(0, r.code(), () -> Studies.errors(r, out));
        }
        assertEquals(List.of("ok"), Studies.column(out, "status"));
        List<Map<String, String>> swaps = Studies.swaps(out);
        assertEquals(1, swaps.size(), swaps.toString());
        Map<String, String> row = swaps.get(0);
        assertEquals("srrip@1.0.0", row.get("to"), row.toString());
        assertTrue(row.get("to_bundle").startsWith("org.example.srrip 1.0.0"), row.toString());
        assertEquals("rrpv_bits=3", row.get("params"), row.toString());
        assertEquals("ok", row.get("outcome"), row.toString());
    }
}
