package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Issue 4: 1 000 swaps in one run between two bundles' policies (the example plugin's first-fit and the
 * baseline's local placement, every epoch end) all succeed; the heap after a full GC, measured while the
 * run is in flight after 100 and after 1 000 swaps, stays flat; and once the plugin bundle is uninstalled
 * and refreshed, no reference keeps its class loader alive (the classic OSGi leak: a swapped-out policy,
 * its context or its provider kept somewhere after its unbind).
 */
class SwapLeakTest extends ContainerPerTest {
    /** Allowed growth from swap 100 to swap 1 000: the run's own records (time-series rows, swap records) grow too. */
    private static final long FLAT_BYTES = 6L << 20;

    @Test
    void aThousandSwapsBetweenTwoBundlesKeepTheHeapFlatAndLeaveNoClassLoaderBehind() throws Exception {
        Bundle plugin = container.context().installBundle(Hmsim.pluginJar().toUri().toString());
        plugin.start();
        WeakReference<ClassLoader> loader = new WeakReference<>(plugin.adapt(BundleWiring.class).getClassLoader());

        // Every epoch end alternates the placement slot: first-fit (plugin bundle), local (baseline bundle), ...
        Path study = Hmsim.write(dir.resolve("many.yaml"), "study: many", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 1048576 }", "policies:", "  placement: local", "epoch: 20ns",
                "swaps:", "  - {every: 1 epochs, slot: placement, between: [local, first-fit]}");
        Path out = dir.resolve("out");
        CompletableFuture<Hmsim.Result> run = Hmsim.runInBackground(container, study, out);
        long at100, at1000;
        int n100, n1000;
        try {
            n100 = awaitSwaps(100);
            at100 = heapAfterGc();
            n1000 = awaitSwaps(1000);
            at1000 = heapAfterGc();
            assertTrue(run.getNow(null) == null, "the run was still in flight at the second measurement");
        } finally {
            Hmsim.Result r = run.get(120, TimeUnit.SECONDS);
            assertEquals(0, r.code(), () -> Studies.errors(r, out));
        }
        long growth = at1000 - at100;
        System.out.printf("SwapLeakTest: heap after GC %.1f MB at swap %d, %.1f MB at swap %d (growth %.2f MB)%n",
                at100 / 1048576.0, n100, at1000 / 1048576.0, n1000, growth / 1048576.0);
        assertTrue(growth < FLAT_BYTES, "heap after GC grew by " + growth + " bytes from swap " + n100 + " to swap " + n1000);

        List<Map<String, String>> swaps = Studies.swaps(out);
        long ok = swaps.stream().filter(row -> row.get("outcome").equals("ok")).count();
        assertTrue(ok >= 1000, "at least 1 000 swaps, all ok: " + ok + " of " + swaps.size());
        assertEquals(swaps.size(), ok, "every swap ok");
        assertTrue(swaps.stream().anyMatch(row -> row.get("to_bundle").startsWith("org.hmsim.example.plugin ")), "swaps into the plugin bundle");
        assertTrue(swaps.stream().anyMatch(row -> row.get("to_bundle").startsWith("org.hmsim.baseline ")), "swaps into the baseline bundle");

        plugin.uninstall();
        CountDownLatch refreshed = new CountDownLatch(1);
        container.context().getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(plugin), e -> {
            if (e.getType() == FrameworkEvent.PACKAGES_REFRESHED) refreshed.countDown();
        });
        assertTrue(refreshed.await(20, TimeUnit.SECONDS), "refresh done");
        for (int i = 0; i < 50 && loader.get() != null; i++) {
            System.gc();
            Thread.sleep(100);
        }
        assertNull(loader.get(), "the uninstalled bundle's class loader is unreachable after 1 000 swaps");
    }

    /** Polls the running run's swap count (sim:status) until it reaches {@code n}; returns the count seen. */
    private int awaitSwaps(int n) throws InterruptedException {
        Hmsim.Result r = Hmsim.runUntil(container, Duration.ofSeconds(40), x -> Hmsim.swaps(x) >= n, "status");
        int seen = Hmsim.swaps(r);
        assertTrue(seen >= n && r.out().contains(" running "), "the run reached " + n + " swaps while in flight\n" + r);
        return seen;
    }


    /** Used heap after full collections (several: one may leave finalizable or soft garbage behind). */
    private static long heapAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
