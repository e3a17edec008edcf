package org.hmsim.platform.machine.uvm;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;

/**
 * In front of a GPU's fabric: an L2 miss to a compressed page of GPU memory pays the compression slot's
 * extra latency (decompression in the memory controller and its metadata lookup, seed 002 §4.3) before it
 * reaches the memory controller. Requests to uncompressed pages pass straight through. A delayed request
 * waits in a slot array (nothing allocated per request); when it is due and the controller refuses, it
 * joins a FIFO that drains when the controller has space again.
 */
final class CompressedAccessDelay implements MemSink, MemClient, EventTarget {
    private final UvmDriver driver;
    private final MemSink inner;
    private final Engine engine;
    private MemRequest[] slots = new MemRequest[64];
    private int[] free = new int[64];
    private int nFree;
    private int[] blocked = new int[64];
    private int bHead, bSize;

    CompressedAccessDelay(UvmDriver driver, MemSink inner, Engine engine) {
        this.driver = driver;
        this.inner = inner;
        this.engine = engine;
        for (int i = 63; i >= 0; i--) free[nFree++] = i;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        long extra = driver.compressedAccessPs(r.paddr);
        if (extra <= 0) return inner.tryAccept(r, from);
        if (nFree == 0) grow();
        int s = free[--nFree];
        slots[s] = r;
        engine.scheduleIn(extra, this, 0, s);
        return true;
    }

    @Override
    public void handle(int kind, long payload) {
        int s = (int) payload;
        if (bSize == 0 && inner.tryAccept(slots[s], this)) {
            release(s);
            return;
        }
        if (bSize == blocked.length) {
            int[] b = new int[blocked.length * 2];
            for (int i = 0; i < bSize; i++) b[i] = blocked[(bHead + i) % blocked.length];
            blocked = b;
            bHead = 0;
        }
        blocked[(bHead + bSize++) % blocked.length] = s;
    }

    @Override
    public void onSpaceAvailable(MemSink sink) {
        while (bSize > 0) {
            int s = blocked[bHead];
            if (!inner.tryAccept(slots[s], this)) return;
            bHead = (bHead + 1) % blocked.length;
            bSize--;
            release(s);
        }
    }

    @Override
    public void onResponse(MemRequest request) {
        throw new IllegalStateException("responses go to the request's replyTo, not the compression delay");
    }

    int held() { return slots.length - nFree; }

    private void release(int s) {
        slots[s] = null;
        free[nFree++] = s;
    }

    private void grow() {
        int n = slots.length;
        slots = java.util.Arrays.copyOf(slots, n * 2);
        free = java.util.Arrays.copyOf(free, n * 2);
        for (int i = n * 2 - 1; i >= n; i--) free[nFree++] = i;
    }
}
