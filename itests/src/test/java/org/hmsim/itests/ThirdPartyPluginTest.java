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
     * Builds the example with the Maven on PATH as a plugin author would: first publish the api to the
     * local Maven repository ({@code mvn install -pl api -am}: `mvn verify` of the reactor installs
     * nothing, and a fresh machine has no hmsim-api there), then build the plugin project against it.
     * Not offline: on a cold cache the plugin's own build plugins come from the registry.
     */
    static Path build() throws Exception {
        String mvn = null;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
            if (Files.isExecutable(Path.of(d, "mvn"))) mvn = Path.of(d, "mvn").toString();
        if (mvn == null) System.out.println("ThirdPartyPluginTest skipped: mvn is not on PATH");
        assumeTrue(mvn != null, "mvn is not on PATH");
        Path root = Hmsim.examples().getParent();
        Path log = Files.createTempFile("third-party-build", ".log");
        Process api = new ProcessBuilder(mvn, "-q", "-B", "-f", "pom.xml", "install", "-pl", "api", "-am", "-DskipTests")
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(api.waitFor(300, TimeUnit.SECONDS), "the api install finished");
        assertEquals(0, api.exitValue(), () -> "mvn install -pl api -am\n" + read(log));
        Process p = new ProcessBuilder(mvn, "-q", "-B", "-f", "examples/third-party-plugin/pom.xml", "package")
                .directory(root.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the build finished");
        assertEquals(0, p.exitValue(), () -> "mvn package of the third-party plugin\n" + read(log));
        Path jar = root.resolve("examples/third-party-plugin/target/hmsim-srrip-1.0.0.jar");
        assertTrue(Files.isRegularFile(jar), jar.toString());
        return jar;
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
