package org.hmsim.platform.machine.uvm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import static org.junit.jupiter.api.Assertions.assertEquals;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.memory.DramEnergy;
import org.hmsim.platform.memory.DramTiming;
import org.hmsim.platform.memory.PoolConfig;
import org.hmsim.platform.memory.dram.DramPool;
import org.junit.jupiter.api.Test;

/**
 * With every frame compressed, every metadata look-up a hit and no codec latency, the compressed-access stage must be
 * invisible to the DRAM: the same requests accepted at the same times in the same order as without it (with it as
 * the controllers' one client, compression with nothing to pay ran 5-14 % off the baseline). From a review.
 */
class CompressedAccessDelayTransparencyTest {
    EventQueue engine;
    List<String> log;

    final class Slice implements MemClient, EventTarget {
        final MemSink sink; final int id; final long[] addrs; int next, out; final int window; final boolean defer;
        final ArrayDeque<MemRequest> q = new ArrayDeque<>();
        Slice(MemSink s, int id, long[] a, int window, boolean defer) { sink = s; this.id = id; addrs = a; this.window = window; this.defer = defer; }
        void pump() {
            while (next < addrs.length && out < window) {
                MemRequest r = new MemRequest();
                r.id = (long) id << 32 | next;
                r.kind = (addrs[next] & 1) != 0 ? AccessKind.WRITEBACK : AccessKind.READ;
                r.paddr = PhysicalAddress.make(0, addrs[next] & ~127L);
                r.pool = 0; r.size = 128; r.replyTo = this;
                next++; out++;
                if (q.isEmpty() && sink.tryAccept(r, this)) continue;
                q.add(r);
            }
        }
        void drain() { while (!q.isEmpty() && sink.tryAccept(q.peek(), this)) q.poll(); }
        @Override public void onResponse(MemRequest r) { out--; pump(); }
        @Override public void onSpaceAvailable(MemSink s) { if (defer) engine.scheduleIn(0, this, 0, 0); else drain(); }
        @Override public void handle(int k, long p) { drain(); }
    }

    List<String> run(long seed, boolean stage) {
        engine = new EventQueue();
        log = new ArrayList<>();
        RequestPool pool = new RequestPool();
        Random rnd = new Random(seed);
        int depth = 1 + rnd.nextInt(8);
        PoolConfig cfg = new PoolConfig("gddr", "GDDR5", 0, 4, 100e9, 1L << 30, 8, 2048, 1500, new DramTiming(12, 12, 12, 28, 40, 12),
                depth, "fr-fcfs", new DramEnergy(1000, 10, 12));
        DramPool dram = new DramPool(cfg, 0, engine, new CompressedAccessDelayStressTest.Fine(256), pool);
        MemSink rec = (r, from) -> {
            boolean ok = dram.tryAccept(r, from);
            if (ok) log.add(engine.now() + ":" + Long.toHexString(r.id));
            return ok;
        };
        MemSink front = rec;
        if (stage) {
            CompressedFrames frames = new CompressedFrames() {
                @Override public boolean compressedFrame(long paddr) { return true; }
                @Override public long metadataReadPa(long paddr, boolean write) { return -1; }
                @Override public long compressedAccessPs(long paddr) { return 0; }
            };
            front = new CompressedAccessDelay(frames, rec, engine, pool);
        }
        int n = 2 + rnd.nextInt(8);
        List<Slice> slices = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long[] a = new long[300];
            for (int k = 0; k < a.length; k++) a[k] = (long) rnd.nextInt(1 << 14) * 128 + (rnd.nextInt(4) == 0 ? 1 : 0);
            slices.add(new Slice(front, i, a, 1 + rnd.nextInt(32), false));
        }
        for (Slice s : slices) s.pump();
        engine.run();
        return log;
    }

    @Test
    void aStageWithNothingToPayChangesNoAcceptance() {
        for (long seed = 0; seed < 200; seed++) assertEquals(run(seed, false), run(seed, true), "seed " + seed + ": DRAM acceptances (time:request) with and without the stage");
    }
}
