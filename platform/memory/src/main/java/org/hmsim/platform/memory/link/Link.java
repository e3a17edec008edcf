package org.hmsim.platform.memory.link;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.machine.LinkView;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.memory.LinkConfig;

/**
 * A point-to-point link between node A and node B (GPU–CPU coherent link, PCIe, GPU–GPU) with two
 * independent directions: 0 = A to B, 1 = B to A. Each direction serialises packets at
 * {@code bytesPerSecondPerDirection} (wire bytes, headers included) and delivers them {@code latencyPs}
 * after their last byte left, so a saturated direction carries exactly its bandwidth and an unloaded
 * packet takes serialisation + latency.
 *
 * <p>Packet size: {@code wire = flits(header) + flits(payload)}, where {@code flits(x)} rounds x up to
 * whole flits of {@code flitBytes}: one header per packet and the payload in whole flits (seed 000
 * §2.11: 16 B flits, one header flit per payload, so 32 B of data = 3 flits, efficiency 66%).
 *
 * <p>Use: {@link #port(int, MemSink)} gives the {@link MemSink} a requester on one side uses to reach a
 * target on the other side.
 */
public final class Link implements LinkView {
    private final LinkConfig cfg;
    private final Engine engine;
    private final RequestPool requests;
    private final LinkDirection[] dirs = new LinkDirection[2];
    private final List<LinkPort> ports = new ArrayList<>();

    public Link(LinkConfig cfg, Engine engine, RequestPool requests) {
        String p = "link '" + cfg.name() + "': ";
        if (!(cfg.bytesPerSecondPerDirection() > 0)) throw new IllegalArgumentException(p + "bandwidth must be > 0");
        if (cfg.latencyPs() < 0) throw new IllegalArgumentException(p + "latency must be >= 0");
        if (cfg.queueDepth() < 1) throw new IllegalArgumentException(p + "queue depth must be >= 1");
        if (cfg.headerBytes() < 0 || cfg.flitBytes() < 0) throw new IllegalArgumentException(p + "header and flit sizes must be >= 0");
        this.cfg = cfg;
        this.engine = engine;
        this.requests = requests;
        for (int d = 0; d < 2; d++)
            dirs[d] = new LinkDirection(engine, d, cfg.bytesPerSecondPerDirection(), cfg.latencyPs(), cfg.queueDepth());
    }

    /**
     * A port whose requests travel in {@code direction} (0 = A to B, 1 = B to A) to {@code target} and
     * whose answers come back in the other direction.
     */
    public LinkPort port(int direction, MemSink target) {
        if (direction != 0 && direction != 1) throw new IllegalArgumentException("link direction must be 0 or 1, got " + direction);
        LinkPort p = new LinkPort(this, dirs[direction], dirs[1 - direction], target);
        ports.add(p);
        return p;
    }

    /** Wire bytes of a packet carrying {@code payload} data bytes: header and payload in whole flits. */
    public int packetBytes(int payload) { return flits(cfg.headerBytes()) + flits(payload); }

    private int flits(int bytes) {
        int f = cfg.flitBytes();
        return f <= 0 ? bytes : (bytes + f - 1) / f * f;
    }

    /** Serialisation time of a packet carrying {@code payload} data bytes, ps. */
    public long serialisationPs(int payload) { return dirs[0].serialisationPs(packetBytes(payload)); }

    /** Time an unloaded packet with {@code payload} data bytes takes to cross: serialisation + latency. */
    public long unloadedCrossingPs(int payload) { return serialisationPs(payload) + cfg.latencyPs(); }

    public LinkConfig config() { return cfg; }

    @Override
    public int nodeA() { return cfg.nodeA(); }

    @Override
    public int nodeB() { return cfg.nodeB(); }

    Engine engine() { return engine; }

    RequestPool requests() { return requests; }

    @Override
    public String name() { return "link." + cfg.name(); }

    @Override
    public double bytesPerSecondPerDirection() { return cfg.bytesPerSecondPerDirection(); }

    @Override
    public long latencyPs() { return cfg.latencyPs(); }

    @Override
    public long wireBytes(int direction) { return dirs[direction].wireBytes; }

    /** When the wire of {@code direction} last finished serialising a packet (0: never). */
    public long lastBusyEndPs(int direction) { return dirs[direction].lastBusyEndPs; }

    public long payloadBytes(int direction) { return dirs[direction].payloadBytes; }

    public long packets(int direction) { return dirs[direction].packets; }

    @Override
    public long busyPs(int direction) { return dirs[direction].busyPs; }

    /**
     * Energy of both directions: wire bytes and the page copies told by {@link #carriesCopies}, × pJ per byte. The copies
     * keep their own channels' timing (unified memory's copy engine), but the bytes cross this link's wires: an ETC
     * energy trial found `energy_pj` 0 at 2.6 MB of page copies.
     */
    public double energyPj() { return (dirs[0].wireBytes + dirs[1].wireBytes + dirs[0].copyBytes() + dirs[1].copyBytes()) * cfg.pjPerByte(); }

    /** Page copies that cross this link in {@code direction} (0: node A to B), counted by their copy engine; before {@link #registerStats}. */
    public void carriesCopies(int direction, java.util.function.LongSupplier bytes) { dirs[direction].copyBytes = bytes; }

    @Override
    public int inFlight() {
        int n = 0;
        for (LinkPort p : ports) n += p.waiting();
        return n;
    }

    /**
     * Registers {@code link.<name>.wire_bytes_down} (direction 0, A to B), {@code ..._up} (direction 1),
     * likewise payload_bytes, packets, busy_ps, utilisation, energy_pj, queue_delay_ps, and the total
     * {@code link.<name>.energy_pj}, on the root registry.
     */
    @Override
    public void registerStats(Stats root) {
        Stats s = root.scope(name());
        dirs[0].registerStats(s, cfg.pjPerByte());
        dirs[1].registerStats(s, cfg.pjPerByte());
        s.gauge("energy_pj", "energy of both directions: (wire bytes + page copy bytes) x pJ per byte", this::energyPj);
    }
}
