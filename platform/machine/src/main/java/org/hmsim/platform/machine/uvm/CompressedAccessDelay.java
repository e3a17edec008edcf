package org.hmsim.platform.machine.uvm;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.EvictNotice;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * In front of a GPU's fabric: what an L2 miss (or write-back) to a compressed page of GPU memory costs under
 * LCP (seed 002 §4.3). If the compression slot's metadata cache misses, the page's 64 B metadata block is
 * first read from GPU memory (a real request through the memory controllers: it takes a DRAM slot and
 * bandwidth, the cost Fig 8 attributes LCP's 13 % to); when it is back, or at once on a hit, the access waits
 * the slot's codec latency and then goes to the memory controller. Requests to uncompressed pages pass
 * straight through. A held request waits in a slot array (nothing allocated per request); a send the
 * controller refuses joins a FIFO that drains when the controller has space again.
 */
final class CompressedAccessDelay implements MemSink, MemClient, EventTarget {
    /** A FIFO entry with this bit set sends slot s's metadata read; without it, slot s's access. */
    private static final int META = 1 << 30;
    private static final int METADATA_BYTES = 64;

    private final UvmDriver driver;
    private final MemSink inner;
    private final Engine engine;
    private final RequestPool pool;
    private MemRequest[] slots = new MemRequest[64], meta = new MemRequest[64];
    private long[] codecPs = new long[64];
    private int[] free = new int[64];
    private int nFree;
    private int[] blocked = new int[64];
    private int bHead, bSize;

    CompressedAccessDelay(UvmDriver driver, MemSink inner, Engine engine, RequestPool pool) {
        this.driver = driver;
        this.inner = inner;
        this.engine = engine;
        this.pool = pool;
        for (int i = 63; i >= 0; i--) free[nFree++] = i;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (EvictNotice.is(r) || !driver.compressedFrame(r.paddr)) return inner.tryAccept(r, from); // a notice reads no data
        if (nFree == 0) grow();
        int s = free[--nFree];
        slots[s] = r;
        codecPs[s] = driver.compressedAccessPs(r.paddr);
        boolean write = r.kind == AccessKind.WRITE || r.kind == AccessKind.WRITEBACK;
        long mpa = driver.metadataReadPa(r.paddr, write);
        if (mpa < 0) {
            engine.scheduleIn(codecPs[s], this, 0, s);
            return true;
        }
        MemRequest m = pool.take();
        m.kind = AccessKind.READ;
        m.paddr = mpa & ~(long) (METADATA_BYTES - 1);
        m.size = METADATA_BYTES;
        m.sectorMask = 0b11 << (int) ((m.paddr & 127) >>> 5); // two 32 B sectors of the 128 B line
        m.pool = PhysicalAddress.pool(m.paddr);
        m.gpu = r.gpu;
        m.replyTo = this;
        m.tag = s;
        m.createdPs = engine.now();
        meta[s] = m;
        send(s | META);
        return true;
    }

    /** Slot s's access is due (after its metadata and codec latency): to the memory controller. */
    @Override
    public void handle(int kind, long payload) { send((int) payload); }

    /** The metadata block of slot s's access is back: the access follows after the codec latency. */
    @Override
    public void onResponse(MemRequest m) {
        int s = (int) m.tag;
        if (meta[s] != m) throw new IllegalStateException("compression metadata response for slot " + s + " that did not send it: " + m);
        meta[s] = null;
        pool.give(m);
        engine.scheduleIn(codecPs[s], this, 0, s);
    }

    private void send(int code) {
        if (bSize == 0 && trySend(code)) return;
        if (bSize == blocked.length) {
            int[] b = new int[blocked.length * 2];
            for (int i = 0; i < bSize; i++) b[i] = blocked[(bHead + i) % blocked.length];
            blocked = b;
            bHead = 0;
        }
        blocked[(bHead + bSize++) % blocked.length] = code;
    }

    private boolean trySend(int code) {
        int s = code & ~META;
        if ((code & META) != 0) return inner.tryAccept(meta[s], this);
        if (!inner.tryAccept(slots[s], this)) return false;
        release(s);
        return true;
    }

    @Override
    public void onSpaceAvailable(MemSink sink) {
        while (bSize > 0) {
            if (!trySend(blocked[bHead])) return;
            bHead = (bHead + 1) % blocked.length;
            bSize--;
        }
    }

    int held() { return slots.length - nFree; }

    private void release(int s) {
        slots[s] = null;
        free[nFree++] = s;
    }

    private void grow() {
        int n = slots.length;
        slots = java.util.Arrays.copyOf(slots, n * 2);
        meta = java.util.Arrays.copyOf(meta, n * 2);
        codecPs = java.util.Arrays.copyOf(codecPs, n * 2);
        free = java.util.Arrays.copyOf(free, n * 2);
        for (int i = n * 2 - 1; i >= n; i--) free[nFree++] = i;
    }
}
