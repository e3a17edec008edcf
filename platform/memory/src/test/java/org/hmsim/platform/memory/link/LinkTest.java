package org.hmsim.platform.memory.link;

import static org.junit.jupiter.api.Assertions.*;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.memory.Fixtures.FixedDelayMemory;
import org.hmsim.platform.memory.Fixtures.Streamer;
import org.hmsim.platform.memory.LinkConfig;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

class LinkTest {
    /** Seed 000 Table 6.3: 90 GB/s full duplex, 100 GPU cycles at 1.4 GHz (71 ns), 16 B flits, 16 B header. */
    private static final LinkConfig CFG = new LinkConfig("gpu0-cpu", 0, 1, 90e9, 71_429, 16, 16, 32, 2.0);

    private final EventQueue engine = new EventQueue();
    private final RequestPool requests = new RequestPool();

    @Test
    void packetsCarryWholeFlitsAndOneHeader() {
        Link link = new Link(CFG, engine, requests);
        assertEquals(16, link.packetBytes(0));
        assertEquals(48, link.packetBytes(32), "seed 000 §2.11: 32 B = 3 flits");
        assertEquals(80, link.packetBytes(64));
        assertEquals(144, link.packetBytes(128));
        assertEquals(48, link.packetBytes(20), "payload rounded up to whole flits");
    }

    @Test
    void unloadedReadRoundTripIsLatencyPlusSerialisationBothWays() {
        Link link = new Link(CFG, engine, requests);
        long memDelay = 50_000;
        FixedDelayMemory mem = new FixedDelayMemory(engine, requests, memDelay);
        LinkPort port = link.port(0, mem);
        long[] doneAt = {-1};
        MemClient c = new MemClient() {
            @Override
            public void onResponse(MemRequest r) { doneAt[0] = engine.now(); }
        };
        engine.schedule(1000, (k, p) -> {
            MemRequest r = requests.take();
            r.kind = AccessKind.READ;
            r.paddr = 4096;
            r.size = 128;
            r.replyTo = c;
            assertTrue(port.tryAccept(r, c));
        }, 0, 0);
        engine.run();
        long ser16 = (long) Math.ceil(16 * 1e12 / 90e9), ser144 = (long) Math.ceil(144 * 1e12 / 90e9);
        assertEquals(link.unloadedCrossingPs(0), ser16 + CFG.latencyPs());
        assertEquals(link.unloadedCrossingPs(0) + memDelay + link.unloadedCrossingPs(128), doneAt[0] - 1000);
        assertEquals(16, link.wireBytes(0));
        assertEquals(144, link.wireBytes(1));
        assertEquals(0, link.payloadBytes(0));
        assertEquals(128, link.payloadBytes(1));
        assertEquals(1, mem.accepted);
        assertEquals(0, link.inFlight());
    }

    @Test
    void saturatedDirectionCarriesItsBandwidth() {
        Link link = new Link(CFG, engine, requests);
        StatsRegistry stats = new StatsRegistry();
        link.registerStats(stats);
        FixedDelayMemory mem = new FixedDelayMemory(engine, requests, 20_000);
        Streamer writer = new Streamer(link.port(0, mem), requests, engine, 0, 128, 1 << 20, 1 << 20, AccessKind.WRITE);
        writer.pump();
        long window = 20_000_000; // 20 us
        engine.run(window);
        double down = link.wireBytes(0) / (window * 1e-12);
        assertEquals(CFG.bytesPerSecondPerDirection(), down, 0.02 * CFG.bytesPerSecondPerDirection(), "direction 0 throughput");
        assertTrue(writer.refusals > 0 && writer.wakeups > 0, "the bounded queue pushed back");
        // payload efficiency of 128 B writes: 128 / 144
        assertEquals(128.0 / 144, (double) link.payloadBytes(0) / link.wireBytes(0), 1e-9);
        // acknowledgements are headers only
        assertEquals(16.0 * link.packets(1), link.wireBytes(1));
        assertTrue(stats.value("link.gpu0-cpu.utilisation_down") > 0.98);
        assertEquals(2.0 * (link.wireBytes(0) + link.wireBytes(1)), stats.value("link.gpu0-cpu.energy_pj"));
    }

    @Test
    void saturatedReadResponsesFillTheReturnDirection() {
        Link link = new Link(CFG, engine, requests);
        FixedDelayMemory mem = new FixedDelayMemory(engine, requests, 20_000);
        Streamer reader = new Streamer(link.port(0, mem), requests, engine, 0, 128, 4096, 1 << 20, AccessKind.READ);
        reader.pump();
        long window = 20_000_000;
        engine.run(window);
        double up = link.wireBytes(1) / (window * 1e-12);
        assertEquals(CFG.bytesPerSecondPerDirection(), up, 0.02 * CFG.bytesPerSecondPerDirection(), "return direction throughput");
        assertTrue(link.wireBytes(0) < link.wireBytes(1) / 5, "read requests are headers only");
    }

    @Test
    void theTwoDirectionsAreIndependent() {
        Link link = new Link(CFG, engine, requests);
        FixedDelayMemory memB = new FixedDelayMemory(engine, requests, 0), memA = new FixedDelayMemory(engine, requests, 0);
        Streamer ab = new Streamer(link.port(0, memB), requests, engine, 0, 128, 1 << 20, 1 << 20, AccessKind.WRITE);
        Streamer ba = new Streamer(link.port(1, memA), requests, engine, 0, 128, 1 << 20, 1 << 20, AccessKind.WRITE);
        ab.pump();
        ba.pump();
        long window = 10_000_000;
        engine.run(window);
        // each direction carries its writes plus the other side's acks, and still reaches its bandwidth
        assertEquals(CFG.bytesPerSecondPerDirection(), link.wireBytes(0) / (window * 1e-12), 0.02 * CFG.bytesPerSecondPerDirection());
        assertEquals(CFG.bytesPerSecondPerDirection(), link.wireBytes(1) / (window * 1e-12), 0.02 * CFG.bytesPerSecondPerDirection());
        assertTrue(ab.done > 0 && ba.done > 0);
    }

    /**
     * Both sides read each other's memory over one link (seed 004's GPUs): each direction carries one
     * side's requests and the other side's responses. Requests and responses take turns on the wire
     * (two virtual channels), so neither side's requests are crowded out by the other's responses and
     * both get the same share; a single FIFO let the side that got ahead starve the other.
     */
    @Test
    void twoSidesReadingEachOtherGetEqualShares() {
        Link link = new Link(CFG, engine, requests);
        FixedDelayMemory memB = new FixedDelayMemory(engine, requests, 20_000), memA = new FixedDelayMemory(engine, requests, 20_000);
        Streamer a = new Streamer(link.port(0, memB), requests, engine, 0, 128, 256, 1 << 20, AccessKind.READ);
        Streamer b = new Streamer(link.port(1, memA), requests, engine, 0, 128, 256, 1 << 20, AccessKind.READ);
        // B starts first and gets ahead
        b.pump();
        engine.schedule(2_000_000, (k, p) -> a.pump(), 0, 0);
        long window = 40_000_000;
        engine.run(window);
        double total = a.done + b.done;
        assertTrue(a.done > 0.45 * total && b.done > 0.45 * total, "reads served: A " + a.done + ", B " + b.done);
        // together they still fill both directions (responses dominate the wire bytes)
        assertTrue(link.wireBytes(0) / (window * 1e-12) > 0.9 * CFG.bytesPerSecondPerDirection(), "direction 0 throughput");
        assertTrue(link.wireBytes(1) / (window * 1e-12) > 0.9 * CFG.bytesPerSecondPerDirection(), "direction 1 throughput");
    }

    @Test
    void refusedForwardsWaitAtTheFarEndAndKeepOrder() {
        Link link = new Link(CFG, engine, requests);
        // a target that takes one request at a time and answers 1 us later
        class OneAtATime implements org.hmsim.api.mem.MemSink, org.hmsim.api.engine.EventTarget {
            MemRequest busy;
            MemClient waiting;
            final java.util.List<Long> seen = new java.util.ArrayList<>();

            @Override
            public boolean tryAccept(MemRequest r, MemClient from) {
                if (busy != null) {
                    waiting = from;
                    return false;
                }
                busy = r;
                seen.add(r.paddr);
                engine.scheduleIn(1_000_000, this, 0, 0);
                return true;
            }

            @Override
            public void handle(int k, long p) {
                MemRequest r = busy;
                busy = null;
                r.replyTo.onResponse(r);
                if (waiting != null) {
                    MemClient w = waiting;
                    waiting = null;
                    w.onSpaceAvailable(this);
                }
            }
        }
        OneAtATime target = new OneAtATime();
        Streamer s = new Streamer(link.port(0, target), requests, engine, 0, 128, 8, 8, AccessKind.READ);
        s.pump();
        engine.run();
        assertEquals(8, s.done);
        assertEquals(java.util.List.of(0L, 128L, 256L, 384L, 512L, 640L, 768L, 896L), target.seen);
    }
}
