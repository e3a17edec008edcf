package org.hmsim.platform.machine.uvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.memory.DramEnergy;
import org.hmsim.platform.memory.DramTiming;
import org.hmsim.platform.memory.PoolConfig;
import org.hmsim.platform.memory.dram.DramPool;
import org.junit.jupiter.api.Test;

/**
 * In-order senders modelled on the L2 slices, some through the compressed-access stage and some around it, into a real
 * DRAM pool with shallow queues, random metadata misses and codec latencies: every request is answered once, no sender
 * is left waiting without a wake-up, and the stage ends empty. From a review.
 */
class CompressedAccessDelayStressTest {
    static final class Fine implements InterleavePolicy {
        final long g;
        Fine(long g) { this.g = g; }
        @Override public int channel(long paddr, int pool, int channels) { return (int) ((paddr / g) % channels); }
        @Override public long channelAddress(long paddr, int pool, int channels) { return (paddr / g / channels) * g + paddr % g; }
    }

    EventQueue engine;
    RequestPool pool;
    Map<Long, Integer> responses;
    long nextId;
    int totalSent;

    /** In order, as L2Slice.sendNow / onSpaceAvailable: an unbounded queue, head-of-line. */
    final class Slice implements MemClient, EventTarget {
        final MemSink sink;
        final Random rnd;
        final ArrayDeque<MemRequest> q = new ArrayDeque<>();
        int toIssue, outstanding, window;
        final boolean deferRetry;
        int wakeups;

        Slice(MemSink sink, long seed, int toIssue, int window, boolean deferRetry) {
            this.sink = sink;
            this.rnd = new Random(seed);
            this.toIssue = toIssue;
            this.window = window;
            this.deferRetry = deferRetry;
        }

        void pump() {
            while (toIssue > 0 && outstanding < window) {
                MemRequest r = new MemRequest();
                r.id = nextId++;
                r.kind = rnd.nextInt(4) == 0 ? AccessKind.WRITEBACK : AccessKind.READ;
                r.paddr = PhysicalAddress.make(0, (long) rnd.nextInt(1 << 16) * 128);
                r.pool = 0;
                r.size = 128;
                r.sectorMask = 0xF;
                r.replyTo = this;
                toIssue--;
                outstanding++;
                totalSent++;
                send(r);
            }
        }

        void send(MemRequest r) {
            if (q.isEmpty() && sink.tryAccept(r, this)) return;
            q.add(r);
        }

        void drain() {
            while (!q.isEmpty() && sink.tryAccept(q.peek(), this)) q.poll();
        }

        @Override public void onResponse(MemRequest r) {
            responses.merge(r.id, 1, Integer::sum);
            outstanding--;
            if (rnd.nextBoolean()) pump();
            else engine.scheduleIn(rnd.nextInt(3) * 1000L, this, 0, 0);
        }

        @Override public void onSpaceAvailable(MemSink s) {
            wakeups++;
            if (deferRetry) engine.scheduleIn(0, this, 1, 0);
            else drain();
        }

        @Override public void handle(int kind, long payload) {
            if (kind == 1) drain();
            else pump();
        }
    }

    long run(long seed, int depth, boolean stage) {
        engine = new EventQueue();
        pool = new RequestPool();
        responses = new HashMap<>();
        nextId = 1_000_000;
        totalSent = 0;
        Random rnd = new Random(seed);
        PoolConfig cfg = new PoolConfig("gddr", "GDDR5", 0, 4, 100e9, 1L << 30, 8, 2048, 1500, new DramTiming(12, 12, 12, 28, 40, 12),
                depth, "fr-fcfs", new DramEnergy(1000, 10, 12));
        DramPool dram = new DramPool(cfg, 0, engine, new Fine(256), pool);
        MemSink front = dram.sink();
        CompressedAccessDelay cad = null;
        if (stage) {
            CompressedFrames frames = new CompressedFrames() {
                @Override public boolean compressedFrame(long paddr) { return ((paddr >>> 12) & 3) != 0; }
                @Override public long metadataReadPa(long paddr, boolean write) {
                    return rnd.nextInt(3) == 0 ? PhysicalAddress.make(0, (long) rnd.nextInt(1 << 20) * 64) : -1;
                }
                @Override public long compressedAccessPs(long paddr) { return rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(4) * 700L; }
            };
            cad = new CompressedAccessDelay(frames, front, engine, pool);
            front = cad;
        }
        List<Slice> slices = new ArrayList<>();
        int n = 2 + rnd.nextInt(10);
        for (int i = 0; i < n; i++) {
            // some clients bypass the stage (as link ports or page copies to the pool itself)
            MemSink s = rnd.nextInt(5) == 0 ? dram.sink() : front;
            slices.add(new Slice(s, rnd.nextLong(), 200 + rnd.nextInt(800), 1 + rnd.nextInt(64), rnd.nextInt(4) == 0));
        }
        for (Slice s : slices) s.pump();
        engine.run();
        for (Slice s : slices) {
            assertEquals(0, s.toIssue, "seed " + seed);
            assertEquals(0, s.q.size(), "seed " + seed + ": slice left with queued sends (lost wakeup), wakeups " + s.wakeups);
            assertEquals(0, s.outstanding, "seed " + seed + ": outstanding");
        }
        assertEquals(totalSent, responses.size(), "seed " + seed);
        for (Map.Entry<Long, Integer> e : responses.entrySet()) assertEquals(1, e.getValue(), "dup response " + e.getKey());
        if (cad != null) assertEquals(0, cad.held(), "seed " + seed);
        return engine.now();
    }

    @Test
    void everyRequestIsAnsweredOnceAndNoSenderIsLeftWaiting() {
        for (long seed = 0; seed < 300; seed++) {
            run(seed, 1 + (int) (seed % 6), true);
            run(seed, 1 + (int) (seed % 6), false);
        }
    }
}
