package org.hmsim.platform.cpu;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.engine.PhysicalAddress;

/** A CPU side on a fake memory (fixed latency, bounded queue) with a fixed-path coherence policy. */
final class Rig {
    final EventQueue engine = new EventQueue();
    final RequestPool pool = new RequestPool();
    final Memory memory = new Memory();
    final CpuSide cpu;
    final List<Long> shotDown = new ArrayList<>();
    final long[] gpuStallPs = new long[1];
    int path;
    long faultCycles;

    Rig(CpuConfig cfg, int path) {
        this.path = path;
        CoherencePolicy policy = new CoherencePolicy() {
            @Override public int missPath(int agent, long page) { return Rig.this.path; }
            @Override public long checkAccess(int agent, long page, boolean write) { return faultCycles; }
        };
        GpuControl gpus = new GpuControl() {
            @Override public void stall(int gpu, long ps) { gpuStallPs[0] += ps; }
            @Override public void shootdown(long vpn) { shotDown.add(vpn); }
        };
        cpu = new CpuSide(cfg, engine, pool, policy, va -> PhysicalAddress.make(0, va), gpus,
                new MemSink[] {memory}, memory, 64, 4096);
    }

    static CpuConfig small(DirectoryConfig d) {
        return new CpuConfig(2, 2000, 8, new CacheGeometry(4 << 10, 4, 2), new CacheGeometry(16 << 10, 4, 8),
                new CacheGeometry(64 << 10, 8, 20), 16, d, CpuConfig.GpuFaultStall.GPU);
    }

    static DirectoryConfig dir(int entries, int ways, int banks, int mshrs) {
        return new DirectoryConfig(entries, ways, banks, mshrs, 10, 4, 40, 200);
    }

    /** A GPU L2 request to the directory that records its answer time. */
    final class GpuL2 implements MemClient {
        final List<Long> answeredPs = new ArrayList<>();
        int spaceSignals;

        boolean read(long paddr) {
            MemRequest r = pool.take();
            r.kind = AccessKind.READ;
            r.paddr = paddr;
            r.size = 64;
            r.gpu = 0;
            r.pool = 0;
            r.replyTo = this;
            boolean ok = cpu.directory().tryAccept(r, this);
            if (!ok) pool.give(r);
            return ok;
        }

        boolean writeback(long paddr) {
            MemRequest r = pool.take();
            r.kind = AccessKind.WRITEBACK;
            r.paddr = paddr;
            r.size = 64;
            r.gpu = 0;
            r.pool = 0;
            boolean ok = cpu.directory().tryAccept(r, this);
            if (!ok) pool.give(r);
            return ok;
        }

        @Override public void onResponse(MemRequest r) {
            answeredPs.add(engine.now());
            pool.give(r);
        }

        @Override public void onSpaceAvailable(MemSink s) { spaceSignals++; }
    }

    /** Memory answering reads after 50 ns; counts reads and write-backs. */
    final class Memory implements MemSink, EventTarget {
        long reads, writebacks;

        @Override
        public boolean tryAccept(MemRequest r, MemClient from) {
            if (r.kind == AccessKind.WRITEBACK || r.replyTo == null) {
                writebacks++;
                pool.give(r);
                return true;
            }
            reads++;
            pending.add(r);
            engine.schedule(engine.now() + 50_000, this, 0, 0);
            return true;
        }

        private final java.util.ArrayDeque<MemRequest> pending = new java.util.ArrayDeque<>();

        @Override
        public void handle(int kind, long payload) {
            MemRequest r = pending.poll();
            r.replyTo.onResponse(r);
        }
    }
}
