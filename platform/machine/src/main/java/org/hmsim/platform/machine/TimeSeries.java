package org.hmsim.platform.machine;

import org.hmsim.api.stats.Stats;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.memory.link.Link;

/**
 * The per-epoch series every run records: bytes served per pool, bytes over each link, and the GPU's
 * L1/L2 hits and misses and issued instructions (cumulative counters: a plot differentiates them).
 */
final class TimeSeries {
    private TimeSeries() {}

    static void register(Machine m) {
        Stats s = m.stats.scope("series");
        for (DramPool p : m.pools) {
            s.counter(p.config().name() + ".bytes", "bytes served by pool " + p.config().name() + " so far", p::bytesServed);
            s.sampleEachEpoch(p.config().name() + ".bytes");
        }
        for (Link l : m.links) {
            String n = l.config().name();
            s.counter(n + ".wire_bytes", "wire bytes over link " + n + " in both directions so far", () -> l.wireBytes(0) + l.wireBytes(1));
            s.sampleEachEpoch(n + ".wire_bytes");
        }
        for (Gpu g : m.gpus) {
            String n = g.name();
            s.counter(n + ".l1_hits", "L1 load hits so far", () -> g.sms().stream().mapToLong(x -> x.l1().hits()).sum());
            s.counter(n + ".l1_misses", "L1 load misses so far", () -> g.sms().stream().mapToLong(x -> x.l1().misses()).sum());
            s.counter(n + ".l2_hits", "L2 hits so far", () -> g.l2Slices().stream().mapToLong(x -> x.hits()).sum());
            s.counter(n + ".l2_misses", "L2 misses so far", () -> g.l2Slices().stream().mapToLong(x -> x.misses()).sum());
            s.counter(n + ".instructions", "warp instructions issued so far", () -> g.sms().stream().mapToLong(x -> x.issued()).sum());
            for (String k : new String[] {"l1_hits", "l1_misses", "l2_hits", "l2_misses", "instructions"}) s.sampleEachEpoch(n + "." + k);
        }
    }
}
