package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.TreeSet;
import org.hmsim.api.machine.LinkView;
import org.hmsim.api.machine.MachineView;
import org.hmsim.platform.workloads.BuiltinWorkloads;
import org.hmsim.api.policy.Params;
import org.junit.jupiter.api.Test;

/**
 * A link-aware multi-GPU policy (a CTA scheduler steering blocks off a loaded GPU pair) reads the links through
 * {@link MachineView#links()}: it must learn which nodes each joins and how busy each direction was. Before api.machine
 * 1.5.0 a {@link LinkView} gave its name, bandwidth, latency and wire bytes only: a third-party policy had to parse
 * {@code "link.gpu0-gpu1"} to find the GPUs, and wire bytes of "direction 0 = downstream" named no end.
 */
class LinkViewEndpointsTest {
    @Test
    void aPolicySeesWhichGpusEachLinkJoinsAndHowBusyEachDirectionWas() {
        var cfg = Presets.machine("coda");
        var w = BuiltinWorkloads.byName("block-exclusive");
        var workload = w.create(Params.validate(w.parameters(), java.util.Map.of("ctas", 32)), 1);
        Machine m = new Machine(cfg, new ClasspathPolicies(), 1, "links");
        MachineView view = m;
        Set<String> pairs = new TreeSet<>();
        for (LinkView l : view.links()) {
            int a = l.nodeA(), b = l.nodeB();
            assertTrue(a >= 0 && a < view.gpuCount() && b >= 0 && b < view.gpuCount() && a != b, l.name() + ": nodes " + a + ", " + b);
            assertEquals("link.gpu" + a + "-gpu" + b, l.name(), "direction 0 leaves node A, the machine file's first 'between'");
            pairs.add(Math.min(a, b) + "-" + Math.max(a, b));
        }
        assertEquals(Set.of("0-1", "0-2", "0-3", "1-2", "1-3", "2-3"), pairs, "the coda preset joins every GPU pair once");
        Simulation.run(m, new RunSpec("links", cfg, workload, new ClasspathPolicies(), 1, 10_000_000L, 0));
        for (LinkView l : view.links())
            for (int d = 0; d < 2; d++) {
                long busy = l.busyPs(d);
                assertTrue(busy > 0, l.name() + " direction " + d + " carried " + l.wireBytes(d) + " B but reports busy " + busy + " ps");
                // busy time is the wire bytes at the direction's bandwidth
                assertEquals(l.wireBytes(d) / l.bytesPerSecondPerDirection() * 1e12, busy, 0.02 * busy + 1000, l.name() + " direction " + d);
            }
    }
}
