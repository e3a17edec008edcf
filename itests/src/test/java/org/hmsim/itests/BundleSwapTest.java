package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.osgi.framework.Bundle;

/**
 * The bundle lifecycle as a source of live swaps (DESIGN §6, issue 4 item 2): while a run uses the example
 * plugin's {@code first-fit} placement, stopping its bundle swaps the run to the slot's default, starting
 * it again brings first-fit back, updating it (same jar) leaves the run on first-fit of the new revision,
 * and uninstalling it swaps to the default. The run finishes ok, and every swap is in swaps.csv with
 * cause {@code bundle}.
 */
class BundleSwapTest extends ContainerPerTest {

    @Test
    void stoppingUpdatingAndUninstallingTheProviderSwapsItsRunsAndNoneFails() throws Exception {
        Bundle plugin = container.context().installBundle(Hmsim.pluginJar().toUri().toString());
        plugin.start();
        // 16M elements: several seconds of wall time on the small machine, many 1 µs epochs (safe points); the
        // five lifecycle steps must all land before the run ends, also when the machine is loaded or fast (1M
        // elements lost that race on a busy 2-core machine; 4M took 1.5 s on a faster one)
        Path study = Hmsim.write(dir.resolve("lifecycle.yaml"), "study: lifecycle", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 16777216 }",
                "policies:", "  placement: {name: first-fit, fast_fraction: 0.5}", "epoch: 1us");
        Path out = dir.resolve("out");
        CompletableFuture<Hmsim.Result> run = Hmsim.runInBackground(container, study, out);
        try {
            Hmsim.Result s = Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) == 0 && Hmsim.placement(r).startsWith("first-fit"), "the simulation runs on first-fit");

            plugin.stop();
            s = Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) >= 1 && Hmsim.placement(r).startsWith("local@"), "stop: the run swaps to the slot default");

            plugin.start();
            s = Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) >= 2 && Hmsim.placement(r).startsWith("first-fit"), "start: first-fit comes back");
            int beforeUpdate = Hmsim.swaps(s);

            plugin.update(); // the same jar: a new revision of the bundle
            s = Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) > beforeUpdate && Hmsim.placement(r).startsWith("first-fit"), "update: the run takes the new revision");
            Thread.sleep(200); // an update may give two swaps (to the default and back), let the second one land
            int beforeUninstall = Hmsim.swaps(Hmsim.awaitRunning(container, r -> true, "status"));

            plugin.uninstall();
            Hmsim.awaitRunning(container, r -> Hmsim.swaps(r) > beforeUninstall && Hmsim.placement(r).startsWith("local@"), "uninstall: the run swaps to the slot default");
        } finally {
            Hmsim.Result r = run.get(120, TimeUnit.SECONDS);
            assertEquals(0, r.code(), () -> Studies.errors(r, out));
        }
        assertEquals(List.of("ok"), Studies.column(out, "status"));

        List<Map<String, String>> swaps = Studies.swaps(out);
        assertTrue(swaps.size() >= 4, swaps::toString);
        for (Map<String, String> row : swaps) {
            assertEquals("bundle", row.get("cause"), row.toString());
            assertEquals("ok", row.get("outcome"), row.toString());
            assertEquals("placement", row.get("slot"), row.toString());
        }
        List<String> to = swaps.stream().map(r -> r.get("to")).toList();
        assertTrue(to.get(0).startsWith("local@"), "stop -> default: " + to);
        assertTrue(to.get(1).startsWith("first-fit@1.0.0"), "start -> first-fit: " + to);
        assertTrue(to.get(to.size() - 1).startsWith("local@"), "uninstall -> default: " + to);
        assertTrue(to.get(to.size() - 2).startsWith("first-fit@1.0.0"), "update -> the new revision of first-fit: " + to);
        assertTrue(swaps.get(1).get("to_bundle").startsWith("org.hmsim.example.plugin"), swaps.get(1).toString());
        assertEquals("fast_fraction=0.5", swaps.get(1).get("params"), "the study's parameters come back with the policy");
    }
}
