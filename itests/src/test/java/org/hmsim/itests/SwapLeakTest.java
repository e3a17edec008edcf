package org.hmsim.itests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import org.osgi.framework.Bundle;
import org.osgi.framework.FrameworkEvent;
import org.osgi.framework.wiring.BundleWiring;
import org.osgi.framework.wiring.FrameworkWiring;

/**
 * Issue 4 item 6: 1 000 swaps in one run between two bundles' policies (the third-party srrip and the
 * baseline lru) all succeed, and once the third-party bundle is uninstalled and refreshed no reference
 * keeps its class loader alive (the classic OSGi leak: a swapped-out policy or its provider kept
 * somewhere after its unbind).
 */
class SwapLeakTest extends ContainerPerTest {
    @Test
    void aThousandSwapsBetweenTwoBundlesLeaveNoClassLoaderBehind() throws Exception {
        Path jar = ThirdPartyPluginTest.build();
        Bundle srrip = container.context().installBundle(jar.toUri().toString());
        srrip.start();
        WeakReference<ClassLoader> loader = new WeakReference<>(srrip.adapt(BundleWiring.class).getClassLoader());

        // Every epoch end alternates the replacement slot: srrip (third party), lru (baseline), ...
        Path study = Hmsim.write(dir.resolve("many.yaml"), "study: many", "seed: 7", "machine: " + Hmsim.smallMachine(),
                "workloads:", "  - { name: stream, elements: 262144 }", "policies:", "  replacement: lru", "epoch: 20ns",
                "swaps:", "  - {every: 1 epochs, slot: replacement, between: [srrip, lru]}");
        Path out = dir.resolve("out");
        Hmsim.Result r = Hmsim.run(container, "run", study.toString(), "--out", out.toString(), "--jobs", "1", "--no-report");
        assertEquals(0, r.code(), () -> Studies.errors(r, out));
        List<List<String>> rows = Studies.parseCsv(Files.readString(out.resolve("runs/0001/swaps.csv"), StandardCharsets.UTF_8));
        int outcome = rows.get(0).indexOf("outcome");
        long ok = rows.stream().skip(1).filter(row -> row.get(outcome).equals("ok")).count();
        assertTrue(ok >= 1000, "at least 1 000 swaps, all ok: " + ok + " of " + (rows.size() - 1));
        assertEquals(rows.size() - 1, ok, "every swap ok");

        srrip.uninstall();
        CountDownLatch refreshed = new CountDownLatch(1);
        container.context().getBundle(0).adapt(FrameworkWiring.class).refreshBundles(List.of(srrip), e -> {
            if (e.getType() == FrameworkEvent.PACKAGES_REFRESHED) refreshed.countDown();
        });
        assertTrue(refreshed.await(20, TimeUnit.SECONDS), "refresh done");
        for (int i = 0; i < 50 && loader.get() != null; i++) {
            System.gc();
            Thread.sleep(100);
        }
        assertNull(loader.get(), "the uninstalled bundle's class loader is unreachable after 1 000 swaps");
    }
}
