package org.hmsim.platform.memory.dram;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.memory.Fixtures;
import org.hmsim.platform.memory.Fixtures.FineInterleave;
import org.hmsim.platform.memory.Fixtures.Streamer;
import org.hmsim.platform.memory.PoolConfig;
import org.junit.jupiter.api.Test;

/** A pool's fixed controller latency: pure latency on the response path, no occupancy, no event when 0. */
class DramControllerLatencyTest {
    private static final long CTRL = 71_429; // 100 cycles of a 1.4 GHz GPU

    private static PoolConfig withController(PoolConfig c, long ps) {
        return new PoolConfig(c.name(), c.kind(), c.node(), c.channels(), c.bytesPerSecond(), c.capacityBytes(), c.banks(),
                c.rowBytes(), c.clockMHz(), c.timing(), c.queueDepth(), c.scheduler(), c.energy(), ps);
    }

    @Test
    void unloadedReadTakesTheControllerLatencyOnTop() {
        PoolConfig base = Fixtures.pool("ddr", 1, 20e9, 16, "fr-fcfs");
        long plain = latencies(base).get(0);
        EventQueue engine = new EventQueue();
        DramPool p = new DramPool(withController(base, CTRL), 0, engine, new FineInterleave(256), new RequestPool());
        assertEquals(plain + CTRL, latencies(withController(base, CTRL)).get(0));
        assertEquals(plain + CTRL, p.unloadedReadLatencyPs(false), "formula includes the controller latency");
        assertEquals(CTRL, p.controllerLatencyPs());
    }

    @Test
    void addsLatencyButNotOccupancy() {
        // With enough requests outstanding (Little's law) a stream still reaches the bus's peak: the delay
        // holds no queue entry or bus time. Responses keep their order within the pool.
        PoolConfig base = Fixtures.pool("gddr", 4, 100e9, 16, "fr-fcfs");
        EventQueue engine = new EventQueue();
        RequestPool requests = new RequestPool();
        DramPool p = new DramPool(withController(base, CTRL), 0, engine, new FineInterleave(256), requests);
        Streamer s = new Streamer(p.sink(), requests, engine, PhysicalAddress.make(0, 0), 128, 512, 20_000, AccessKind.READ);
        s.pump();
        engine.run(engine.now() + 2_000_000);
        assertTrue(p.inFlight() > 64, "responses in the controller delay count as in flight (4 x 16 queue entries + delay): " + p.inFlight());
        engine.run();
        assertEquals(20_000, s.done);
        assertEquals(0, p.inFlight());
        double achieved = 20_000 * 128 / ((s.lastDonePs - s.firstIssuePs) * 1e-12);
        assertTrue(achieved >= 0.88 * base.bytesPerSecond(), "stream with controller latency reached " + achieved / 1e9 + " GB/s");
        assertTrue(s.latencySum / 20_000 > CTRL, "every response waited the controller latency");
    }

    @Test
    void zeroAddsNoEvent() {
        PoolConfig base = Fixtures.pool("gddr", 2, 50e9, 16, "fr-fcfs");
        long[] plain = eventsAndEnd(base);
        long[] zero = eventsAndEnd(withController(base, 0));
        assertArrayEquals(plain, zero, "controller_latency 0 is the plain pool, event for event");
        long[] delayed = eventsAndEnd(withController(base, CTRL));
        // a closed loop of 32: the delay takes requests out of the DRAM queues, so the mean rises by less than CTRL
        assertTrue(delayed[2] > plain[2] && delayed[1] > plain[1], "the controller latency lengthens the run");
    }

    /**
     * An L2's eviction notice for a clean victim (a write-back of size 0, l2.evict_notice) is acknowledged after the
     * controller latency alone: no DRAM command, no byte moved, no channel queue entry.
     */
    @Test
    void anEvictionNoticeIsAcknowledgedAfterTheControllerLatencyWithoutADramAccess() {
        EventQueue engine = new EventQueue();
        RequestPool requests = new RequestPool();
        DramPool p = new DramPool(withController(Fixtures.pool("gddr", 2, 50e9, 16, "fr-fcfs"), CTRL), 0, engine, new FineInterleave(256), requests);
        long[] answeredAt = {-1};
        MemClient c = new MemClient() {
            @Override
            public void onResponse(MemRequest r) { answeredAt[0] = engine.now(); }
        };
        engine.schedule(1_000_000, (k, x) -> {
            MemRequest r = requests.take();
            r.kind = AccessKind.WRITEBACK;
            r.paddr = PhysicalAddress.make(0, 4096);
            r.replyTo = c;
            assertTrue(p.sink().tryAccept(r, c));
            assertEquals(1, p.inFlight(), "a notice in the controller delay is in flight (a drain waits for it)");
        }, 0, 0);
        engine.run();
        assertEquals(1_000_000 + CTRL, answeredAt[0]);
        assertEquals(1, p.evictNotices());
        assertEquals(0, p.reads() + p.writes() + p.activates() + p.bytesServed(), "the notice touched the DRAM");
    }

    /**
     * {@code write_ack: queued}: a write whose requester waits (an L2's acknowledged write-back) is answered when the
     * channel takes it, after the controller latency; the write still occupies the channel, moves its bytes, and
     * its request goes back to the pool once written. {@code written} (the default) answers once the data is in.
     */
    @Test
    void aQueuedWriteIsAcknowledgedWhenTakenAndStillWritten() {
        long[] at = new long[2];
        for (int q = 0; q < 2; q++) {
            PoolConfig c = withController(Fixtures.pool("gddr", 2, 50e9, 16, "fr-fcfs"), CTRL);
            c = new PoolConfig(c.name(), c.kind(), c.node(), c.channels(), c.bytesPerSecond(), c.capacityBytes(), c.banks(), c.rowBytes(),
                    c.clockMHz(), c.timing(), c.queueDepth(), c.scheduler(), c.energy(), c.controllerLatencyPs(), q == 1);
            EventQueue engine = new EventQueue();
            RequestPool requests = new RequestPool();
            DramPool p = new DramPool(c, 0, engine, new FineInterleave(256), requests);
            int slot = q;
            MemClient client = new MemClient() {
                @Override
                public void onResponse(MemRequest r) {
                    at[slot] = engine.now();
                    assertEquals(AccessKind.WRITEBACK, r.kind);
                    assertEquals(42, r.tag, "the acknowledgement carries the requester's tag");
                    requests.give(r);
                }
            };
            engine.schedule(1_000_000, (k, x) -> {
                MemRequest r = requests.take();
                r.kind = AccessKind.WRITEBACK;
                r.paddr = PhysicalAddress.make(0, 4096);
                r.size = 64;
                r.tag = 42;
                r.replyTo = client;
                assertTrue(p.sink().tryAccept(r, client));
            }, 0, 0);
            engine.run();
            assertEquals(1, p.writes());
            assertEquals(64, p.bytesServed(), "the queued write is still written");
            assertEquals(0, p.inFlight());
            long made = requests.allocated();
            for (long i = 0; i < made; i++) requests.take();
            assertEquals(made, requests.allocated(), "the write (and its acknowledgement) went back to the pool");
            assertEquals(q + 1, made, "queued: the acknowledgement is a second request");
        }
        assertEquals(1_000_000 + CTRL, at[1], "queued: answered when taken, after the controller latency");
        assertTrue(at[0] > at[1], "written: answered once the data is in, later");
    }

    /** At controller latency 0 a notice is still answered by an event, never inside the sender's own tryAccept. */
    @Test
    void anEvictionNoticeIsNeverAnsweredInsideItsSend() {
        EventQueue engine = new EventQueue();
        RequestPool requests = new RequestPool();
        DramPool p = new DramPool(Fixtures.pool("gddr", 2, 50e9, 16, "fr-fcfs"), 0, engine, new FineInterleave(256), requests);
        boolean[] inSend = {false}, answered = {false};
        MemClient c = new MemClient() {
            @Override
            public void onResponse(MemRequest r) {
                assertFalse(inSend[0], "answered inside tryAccept");
                answered[0] = true;
            }
        };
        engine.schedule(1_000, (k, x) -> {
            MemRequest r = requests.take();
            r.kind = AccessKind.WRITEBACK;
            r.paddr = PhysicalAddress.make(0, 4096);
            r.replyTo = c;
            inSend[0] = true;
            assertTrue(p.sink().tryAccept(r, c));
            inSend[0] = false;
        }, 0, 0);
        engine.run();
        assertTrue(answered[0]);
    }

    @Test
    void negativeIsRejected() {
        PoolConfig bad = withController(Fixtures.pool("x", 1, 20e9, 16, "fr-fcfs"), -1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DramPool(bad, 0, new EventQueue(), new FineInterleave(256), new RequestPool()));
        assertTrue(e.getMessage().contains("pool 'x'") && e.getMessage().contains("controller latency"), e.getMessage());
    }

    private static long[] eventsAndEnd(PoolConfig cfg) {
        EventQueue engine = new EventQueue();
        RequestPool requests = new RequestPool();
        DramPool p = new DramPool(cfg, 0, engine, new FineInterleave(256), requests);
        Streamer s = new Streamer(p.sink(), requests, engine, PhysicalAddress.make(0, 0), 128, 32, 500, AccessKind.READ);
        s.pump();
        engine.run();
        assertEquals(500, s.done);
        return new long[] {engine.eventsHandled(), s.lastDonePs, s.latencySum};
    }

    private static List<Long> latencies(PoolConfig cfg) {
        EventQueue engine = new EventQueue();
        RequestPool requests = new RequestPool();
        DramPool p = new DramPool(cfg, 0, engine, new FineInterleave(256), requests);
        List<Long> out = new ArrayList<>();
        MemClient c = new MemClient() {
            @Override
            public void onResponse(MemRequest r) { out.add(engine.now() - 1_000_000); }
        };
        engine.schedule(1_000_000, (k, x) -> {
            MemRequest r = requests.take();
            r.paddr = PhysicalAddress.make(0, 0);
            r.size = 128;
            r.replyTo = c;
            assertTrue(p.sink().tryAccept(r, c));
        }, 0, 0);
        engine.run();
        return out;
    }
}
