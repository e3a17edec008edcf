package org.hmsim.platform.memory;

import java.util.ArrayDeque;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.platform.engine.PhysicalAddress;

/** Test fakes and configurations shared by the memory tests. */
public final class Fixtures {
    private Fixtures() {}

    /** Seed 000 Table 4.1 timing: RCD = RP = 12, RC = 40, CL = WR = 12 (tRAS = tRC - tRP = 28). */
    public static final DramTiming SEED000 = new DramTiming(12, 12, 12, 28, 40, 12);

    public static PoolConfig pool(String name, int channels, double bytesPerSecond, int queueDepth, String scheduler) {
        return new PoolConfig(name, "GDDR5", 0, channels, bytesPerSecond, 1L << 30, 16, 2048, 1500, SEED000, queueDepth,
                scheduler, new DramEnergy(1000, 10, 12));
    }

    /** channel = (addr / granularity) % channels; the channel bits are squeezed out of the channel address. */
    public static final class FineInterleave implements InterleavePolicy {
        private final long g;

        public FineInterleave(long granularity) { this.g = granularity; }

        @Override
        public int channel(long paddr, int pool, int channels) { return (int) ((paddr / g) % channels); }

        @Override
        public long channelAddress(long paddr, int pool, int channels) { return (paddr / g / channels) * g + paddr % g; }
    }

    /**
     * A requester that keeps up to {@code window} requests outstanding, issuing {@code total} requests of
     * {@code size} bytes at consecutive addresses from {@code base}; retries after back-pressure.
     */
    public static final class Streamer implements MemClient {
        private final MemSink sink;
        private final RequestPool requests;
        private final Engine engine;
        private final long base;
        private final int size, window, total;
        private final AccessKind kind;
        public int issued, done, refusals, wakeups;
        public long firstIssuePs = -1, lastDonePs;
        public long latencySum;

        public Streamer(MemSink sink, RequestPool requests, Engine engine, long base, int size, int window, int total, AccessKind kind) {
            this.sink = sink;
            this.requests = requests;
            this.engine = engine;
            this.base = base;
            this.size = size;
            this.window = window;
            this.total = total;
            this.kind = kind;
        }

        public void pump() {
            while (issued < total && issued - done < window) {
                MemRequest r = requests.take();
                r.kind = kind;
                r.paddr = base + (long) issued * size;
                r.pool = PhysicalAddress.pool(r.paddr);
                r.size = size;
                r.replyTo = this;
                r.createdPs = engine.now();
                if (!sink.tryAccept(r, this)) {
                    requests.give(r);
                    refusals++;
                    return;
                }
                if (firstIssuePs < 0) firstIssuePs = engine.now();
                issued++;
            }
        }

        @Override
        public void onResponse(MemRequest r) {
            done++;
            lastDonePs = engine.now();
            latencySum += engine.now() - r.createdPs;
            requests.give(r);
            pump();
        }

        @Override
        public void onSpaceAvailable(MemSink s) {
            wakeups++;
            pump();
        }
    }

    /** A memory that always accepts and answers each request {@code delayPs} later, in order. */
    public static final class FixedDelayMemory implements MemSink, EventTarget {
        private final Engine engine;
        private final RequestPool requests;
        private final long delayPs;
        private final ArrayDeque<MemRequest> inFlight = new ArrayDeque<>();
        public long accepted, bytes;

        public FixedDelayMemory(Engine engine, RequestPool requests, long delayPs) {
            this.engine = engine;
            this.requests = requests;
            this.delayPs = delayPs;
        }

        @Override
        public boolean tryAccept(MemRequest r, MemClient from) {
            accepted++;
            bytes += r.size;
            inFlight.add(r);
            engine.scheduleIn(delayPs, this, 0, 0);
            return true;
        }

        @Override
        public void handle(int kind, long payload) {
            MemRequest r = inFlight.poll();
            if (r.replyTo != null) r.replyTo.onResponse(r);
            else requests.give(r);
        }
    }
}
