package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.hmsim.launcher.Container;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.osgi.framework.Bundle;

/** (a) The container starts with every bundle active; (b) its commands list the baseline. */
class ContainerTest {
    @TempDir static Path plugins;
    static Container container;
    static long startMillis;

    @BeforeAll
    static void start() throws Exception {
        long t0 = System.nanoTime();
        container = Hmsim.start(plugins);
        startMillis = (System.nanoTime() - t0) / 1_000_000;
    }

    @AfterAll
    static void stop() {
        if (container != null) container.close();
    }

    @Test
    void everyBundleOfTheContainerIsActive() {
        assertEquals(Set.of(), Set.copyOf(container.warnings()), "problems while starting bundle/");
        assertEquals(Set.of(), Set.copyOf(container.inactiveBundles()), "bundles not active");
        Set<String> names = Arrays.stream(container.context().getBundles())
                .map(Bundle::getSymbolicName).collect(Collectors.toCollection(TreeSet::new));
        for (String required : new String[] {"org.hmsim.api", "org.hmsim.baseline", "org.hmsim.kernel",
                "org.apache.felix.scr", "org.apache.felix.fileinstall", "org.apache.felix.configadmin", "slf4j.api"}) {
            assertTrue(names.contains(required), required + " in " + names);
        }
        // Headless containers do not carry the console: the shell bundles load only for `hmsim shell`.
        assertTrue(names.stream().noneMatch(n -> n.startsWith("org.apache.felix.gogo.jline") || n.equals("org.jline")), names.toString());
        System.out.println("container started in " + startMillis + " ms with " + names.size() + " bundles");
    }

    @Test
    void onlyTheApiExportsPackages() {
        // DESIGN §2 / build-facts: a mechanism or kernel bundle that exported packages would be wired to
        // its clients, and updating it would refresh them.
        for (Bundle b : container.context().getBundles()) {
            String bsn = b.getSymbolicName();
            if (bsn.startsWith("org.hmsim.") && !bsn.equals("org.hmsim.api")) {
                assertEquals(null, b.getHeaders("").get("Export-Package"), bsn + " exports packages");
            }
        }
    }

    @Test
    void policiesListsTheBaselinePolicies() throws Exception {
        Hmsim.Result r = Hmsim.run(container, "policies");
        assertEquals(0, r.code(), r::toString);
        Map<String, Map<String, String>> listed = Hmsim.policies(r);
        // Every slot of the api is listed, installed policy or not.
        for (String slot : new String[] {"placement", "migration", "residency", "throttling", "compression", "cacheability",
                "coherence", "l2-miss-path", "replacement", "interleave", "cta-scheduler", "warp-scheduler"}) {
            assertTrue(listed.containsKey(slot), "slot " + slot + " listed\n" + r.out());
        }
        String[][] baseline = {{"placement", "local"}, {"placement", "interleave"}, {"placement", "ratio"},
                {"replacement", "lru"}, {"warp-scheduler", "gto"}, {"cta-scheduler", "round-robin"},
                {"cacheability", "cache-all"}, {"l2-miss-path", "conventional"}, {"migration", "none"}, {"throttling", "static"}};
        for (String[] p : baseline) {
            String bundle = listed.get(p[0]).get(p[1]);
            assertTrue(bundle != null && bundle.startsWith("org.hmsim.baseline "),
                    p[0] + ": " + p[1] + " from org.hmsim.baseline, got " + bundle + "\n" + r.out());
        }
    }

    @Test
    void workloadsListsTheBuiltInModels() throws Exception {
        Hmsim.Result r = Hmsim.run(container, "workloads");
        assertEquals(0, r.code(), r::toString);
        for (String w : new String[] {"stream", "bfs", "sgemm", "spmv"}) assertTrue(r.out().contains(w), w + "\n" + r.out());
    }
}
