package org.hmsim.platform.memory.link;

import static org.junit.jupiter.api.Assertions.*;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

class GpuClientPortTest {
    private final EventQueue engine = new EventQueue();
    private final RequestPool requests = new RequestPool();

    /** A memory that refuses the first {@code refusals} requests offered to it, then takes the rest (and never answers). */
    private static final class RefusingMemory implements MemSink {
        int refusals;
        long accepted;

        RefusingMemory(int refusals) { this.refusals = refusals; }

        @Override
        public boolean tryAccept(MemRequest r, MemClient from) {
            if (refusals > 0) {
                refusals--;
                return false;
            }
            accepted++;
            return true;
        }
    }

    private MemRequest request(AccessKind kind, long paddr) {
        MemRequest r = requests.take();
        r.kind = kind;
        r.paddr = paddr;
        r.size = 32;
        r.sectorMask = 1;
        return r;
    }

    /**
     * {@code passed} counts the requests handed to memory unchanged, each once: a request the memory refused (and the
     * GPU side offers again) is not passed until it is taken. A statistics review found it counting every attempt:
     * 194,558 "passed" against the 153,796 requests the DDR pool and the link carried (migration study).
     */
    @Test
    void passedCountsAcceptedRequestsOnceNotRefusedAttempts() {
        CacheabilityPolicy cacheAll = (level, r) -> true;
        RefusingMemory memory = new RefusingMemory(3);
        GpuClientPort port = new GpuClientPort("cpu_mc.ddr", memory, cacheAll, engine, requests, 714, 128);
        StatsRegistry stats = new StatsRegistry();
        port.registerStats(stats);
        MemClient gpu = new MemClient() {
            @Override
            public void onResponse(MemRequest r) {}
        };
        MemRequest read = request(AccessKind.READ, 4096), write = request(AccessKind.WRITE, 8192);
        // each is refused, then offered again until taken, as the link port does
        int attempts = 0;
        while (!port.tryAccept(read, gpu)) attempts++;
        while (!port.tryAccept(write, gpu)) attempts++;
        assertEquals(3, attempts, "the memory refused three offers");
        assertEquals(2, memory.accepted);
        assertEquals(2.0, stats.value("cpu_mc.ddr.passed"), "two requests passed to memory, each counted once");
    }
}
