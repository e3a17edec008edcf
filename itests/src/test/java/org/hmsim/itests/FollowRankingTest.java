package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarInputStream;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import org.junit.jupiter.api.Test;

import org.osgi.framework.Bundle;

/**
 * A study slot that follows the highest-ranked provider (issue 4 item 2, docs/study-files.md): the run
 * starts on the slot's default ({@code local}); the example plugin installed with no ranking changes
 * nothing; a copy of it whose {@code first-fit} provider carries {@code service.ranking=10}, installed
 * mid-run, is swapped in at the next safe point; uninstalling it swaps the run back to {@code local}.
 * swaps.csv shows both swaps with cause {@code ranking}; the run finishes ok.
 */
class FollowRankingTest extends ContainerPerTest {

    @Test
    void installingABetterRankedBundleSwapsItInAndRemovingItSwapsBack() throws Exception {
        Bundle plain = container.context().installBundle(Hmsim.pluginJar().toUri().toString());
        plain.start();
        Path rankedJar = ranked(Hmsim.pluginJar(), dir.resolve("ranked-plugin.jar"), 10);
        // 16M elements (several seconds): installing a bundle, its component's activation and
        // both swaps must land before the run ends; 1M elements (~1 s) lost that race on a fast 2-core machine
        Path study = Hmsim.write(dir.resolve("follow.yaml"), "study: follow", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 16777216 }",
                "policies:", "  placement: {follow: highest-ranked}", "epoch: 1us");
        Path out = dir.resolve("out");
        CompletableFuture<Hmsim.Result> run = Hmsim.runInBackground(container, study, out);
        try {
            Hmsim.awaitRunning(container, r -> Hmsim.placement(r).startsWith("local@"), "the run starts on the slot default: first-fit is installed but not better ranked");
            Thread.sleep(300);
            Hmsim.Result s = Hmsim.awaitRunning(container, r -> true, "status");
            assertEquals(0, Hmsim.swaps(s), "an unranked provider causes no swap\n" + s);

            Bundle ranked = container.context().installBundle(rankedJar.toUri().toString());
            ranked.start();
            Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) >= 1 && Hmsim.placement(r).startsWith("first-fit@"), "the better-ranked provider is swapped in");

            ranked.uninstall();
            Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) >= 2 && Hmsim.placement(r).startsWith("local@"), "its removal swaps back to the study's choice");
        } finally {
            Hmsim.Result r = run.get(120, TimeUnit.SECONDS);
            assertEquals(0, r.code(), () -> Studies.errors(r, out));
        }
        assertEquals(List.of("ok"), Studies.column(out, "status"));

        List<Map<String, String>> swaps = Studies.swaps(out);
        assertTrue(swaps.size() >= 2, swaps::toString);
        for (Map<String, String> row : swaps) {
            assertEquals("ranking", row.get("cause"), row.toString());
            assertEquals("ok", row.get("outcome"), row.toString());
            assertEquals("placement", row.get("slot"), row.toString());
        }
        Map<String, String> in = swaps.get(0);
        assertTrue(in.get("from").startsWith("local@"), in.toString());
        assertTrue(in.get("to").startsWith("first-fit@1.0.0"), in.toString());
        assertTrue(in.get("to_bundle").startsWith("org.hmsim.example.plugin.ranked "), "the ranked copy, not the plain one: " + in);
        Map<String, String> back = swaps.get(swaps.size() - 1);
        assertTrue(back.get("to").startsWith("local@"), back.toString());
        assertTrue(Double.parseDouble(in.get("sim_time_ns")) > 0, "swapped in mid-run, at a safe point: " + in);
    }

    /**
     * The example plugin as another bundle (symbolic name {@code .ranked}) whose provider component
     * declares {@code service.ranking}: the same classes, offered with a higher rank.
     */
    static Path ranked(Path jar, Path to, int ranking) throws Exception {
        try (JarInputStream in = new JarInputStream(Files.newInputStream(jar))) {
            Manifest mf = new Manifest(in.getManifest());
            Attributes a = mf.getMainAttributes();
            a.putValue("Bundle-SymbolicName", a.getValue("Bundle-SymbolicName") + ".ranked");
            try (OutputStream os = Files.newOutputStream(to); JarOutputStream out = new JarOutputStream(os, mf)) {
                for (JarEntry e; (e = in.getNextJarEntry()) != null; ) {
                    byte[] b = in.readAllBytes();
                    if (e.getName().startsWith("OSGI-INF/") && e.getName().endsWith(".xml")) {
                        String xml = new String(b, StandardCharsets.UTF_8);
                        assertTrue(xml.contains("<service>"), xml);
                        xml = xml.replace("<service>", "<property name=\"service.ranking\" type=\"Integer\" value=\"" + ranking + "\"/>\n  <service>");
                        b = xml.getBytes(StandardCharsets.UTF_8);
                    }
                    out.putNextEntry(new JarEntry(e.getName()));
                    out.write(b);
                    out.closeEntry();
                }
            }
        }
        return to;
    }
}
