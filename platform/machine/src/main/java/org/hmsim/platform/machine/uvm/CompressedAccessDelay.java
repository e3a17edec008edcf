package org.hmsim.platform.machine.uvm;

import java.util.Arrays;
import java.util.IdentityHashMap;
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
 * straight through. A held request waits in a slot array (nothing allocated per request).
 *
 * <p><b>Queueing as without the stage.</b> The stage must not change how the controllers share their queues among
 * the L2 slices, or compression's cost would be an arbitration artefact. So each slice (sender) has its own proxy
 * client: the stage sends a slice's accesses and metadata reads as that proxy, and a controller that refuses one
 * registers the proxy and serves it in its turn among the other slices, as it would the slice. A refused send is held
 * in the slice's own queue here, and the slice's later sends stay behind it (the slice itself is refused until its
 * queue has drained, then called back), as its own queue to the controllers would hold them. An access with nothing
 * to wait for (a metadata hit and no codec latency) is sent at once. Found by reviews: one FIFO for every sender let
 * one full channel hold back every slice's sends to the others (SRAD, data resident: CC +110 %), and with the stage as
 * the controllers' one client, compression with a perfect metadata cache and no latency ran 5-14 % off the baseline.
 */
final class CompressedAccessDelay implements MemSink, MemClient, EventTarget {
    /** A queued code with this bit set sends slot s's metadata read; without it, slot s's access. */
    private static final int META = 1 << 30;
    private static final int METADATA_BYTES = 64;

    private final CompressedFrames driver;
    private final MemSink inner;
    private final Engine engine;
    private final RequestPool pool;
    private MemRequest[] slots = new MemRequest[64], meta = new MemRequest[64];
    private long[] codecPs = new long[64];
    private int[] slotSender = new int[64];
    private int[] free = new int[64];
    private int nFree;
    /** Sends held after a refusal, over every sender. */
    private int heldTotal;
    private final IdentityHashMap<MemClient, Integer> senderIds = new IdentityHashMap<>();
    private Sender[] senders = new Sender[0];

    CompressedAccessDelay(CompressedFrames driver, MemSink inner, Engine engine, RequestPool pool) {
        this.driver = driver;
        this.inner = inner;
        this.engine = engine;
        this.pool = pool;
        for (int i = 63; i >= 0; i--) free[nFree++] = i;
    }

    /** One L2 slice as the controllers see it: its held sends (oldest first) and whether it waits to be called back. */
    private final class Sender implements MemClient {
        final MemClient slice;
        int[] queue = new int[16];
        int head, size;
        boolean waiting;

        Sender(MemClient slice) { this.slice = slice; }

        @Override public void onResponse(MemRequest r) { throw new IllegalStateException("responses go to the request's replyTo: " + r); }

        /** A controller that refused this sender has room: its held sends go in order until one is refused again. */
        @Override
        public void onSpaceAvailable(MemSink sink) {
            while (size > 0 && trySend(queue[head], this)) {
                head = (head + 1) % queue.length;
                size--;
                heldTotal--;
            }
            if (size == 0 && waiting) {
                waiting = false;
                slice.onSpaceAvailable(CompressedAccessDelay.this);
            }
        }

        void hold(int code) {
            if (size == queue.length) {
                int[] q = new int[queue.length * 2];
                for (int k = 0; k < size; k++) q[k] = queue[(head + k) % queue.length];
                queue = q;
                head = 0;
            }
            queue[(head + size++) % queue.length] = code;
            heldTotal++;
        }
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (heldTotal > 0 && behindRefusal(from)) return false;
        if (EvictNotice.is(r) || !driver.compressedFrame(r.paddr)) return inner.tryAccept(r, from); // a notice reads no data
        if (nFree == 0) grow();
        int s = free[--nFree];
        slots[s] = r;
        slotSender[s] = senderId(from);
        codecPs[s] = driver.compressedAccessPs(r.paddr);
        boolean write = r.kind == AccessKind.WRITE || r.kind == AccessKind.WRITEBACK;
        long mpa = driver.metadataReadPa(r.paddr, write);
        if (mpa < 0) {
            if (codecPs[s] == 0) send(s);
            else engine.scheduleIn(codecPs[s], this, 0, s);
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
        if (codecPs[s] == 0) send(s);
        else engine.scheduleIn(codecPs[s], this, 0, s);
    }

    /** Sends now, as its slice's proxy, unless that slice has a send held here (its sends keep their order). */
    private void send(int code) {
        Sender p = senders[slotSender[code & ~META]];
        if (p.size == 0 && trySend(code, p)) return;
        p.hold(code);
    }

    /** A slice with a send held here is refused until its queue has drained, and then called back. */
    private boolean behindRefusal(MemClient from) {
        int id = senderId(from); // first: it may grow the array
        Sender p = senders[id];
        if (p.size == 0) return false;
        p.waiting = true;
        return true;
    }

    private int senderId(MemClient from) {
        Integer id = senderIds.get(from);
        if (id != null) return id;
        int c = senders.length;
        senderIds.put(from, c);
        senders = Arrays.copyOf(senders, c + 1);
        senders[c] = new Sender(from);
        return c;
    }

    private boolean trySend(int code, Sender as) {
        int s = code & ~META;
        if ((code & META) != 0) return inner.tryAccept(meta[s], as);
        if (!inner.tryAccept(slots[s], as)) return false;
        release(s);
        return true;
    }

    /** Not called by the controllers (they call the senders' proxies); kept so the stage is a well-formed client. */
    @Override
    public void onSpaceAvailable(MemSink sink) {
        for (Sender p : senders) p.onSpaceAvailable(sink);
    }

    int held() { return slots.length - nFree; }

    private void release(int s) {
        slots[s] = null;
        free[nFree++] = s;
    }

    private void grow() {
        int n = slots.length;
        slots = Arrays.copyOf(slots, n * 2);
        meta = Arrays.copyOf(meta, n * 2);
        codecPs = Arrays.copyOf(codecPs, n * 2);
        slotSender = Arrays.copyOf(slotSender, n * 2);
        free = Arrays.copyOf(free, n * 2);
        for (int i = n * 2 - 1; i >= n; i--) free[nFree++] = i;
    }
}
