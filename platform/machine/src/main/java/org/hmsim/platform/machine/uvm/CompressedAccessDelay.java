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
 * straight through. A held request waits in a slot array (nothing allocated per request). A send a controller
 * refuses is held and tried again whenever a controller has space; held sends keep their sender's order, but one
 * sender's refusal does not hold back another's (the sends go to different channels).
 */
final class CompressedAccessDelay implements MemSink, MemClient, EventTarget {
    /** A FIFO entry with this bit set sends slot s's metadata read; without it, slot s's access. */
    private static final int META = 1 << 30;
    private static final int METADATA_BYTES = 64;

    private final CompressedFrames driver;
    private final MemSink inner;
    private final Engine engine;
    private final RequestPool pool;
    private MemRequest[] slots = new MemRequest[64], meta = new MemRequest[64];
    private long[] codecPs = new long[64];
    private int[] free = new int[64];
    private int nFree;
    private int[] blocked = new int[64];
    private int bSize;
    private boolean retrying;
    // the senders (L2 slices), by first appearance: sends held per sender, and who waits to be called back
    private final java.util.IdentityHashMap<MemClient, Integer> clientIds = new java.util.IdentityHashMap<>();
    private MemClient[] clients = new MemClient[0];
    private int[] blockedOf = new int[0];
    private boolean[] waiting = new boolean[0], refusedNow = new boolean[0];
    private int[] slotClient = new int[64];

    CompressedAccessDelay(CompressedFrames driver, MemSink inner, Engine engine, RequestPool pool) {
        this.driver = driver;
        this.inner = inner;
        this.engine = engine;
        this.pool = pool;
        for (int i = 63; i >= 0; i--) free[nFree++] = i;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (bSize > 0 && behindRefusal(from)) return false;
        if (EvictNotice.is(r) || !driver.compressedFrame(r.paddr)) return inner.tryAccept(r, from); // a notice reads no data
        if (nFree == 0) grow();
        int s = free[--nFree];
        slots[s] = r;
        slotClient[s] = clientId(from);
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

    /** Sends now unless the access's sender has a send held here (its sends keep their order, as its own queue would). */
    private void send(int code) {
        int c = slotClient[code & ~META];
        if (blockedOf[c] == 0 && trySend(code)) return;
        if (bSize == blocked.length) blocked = java.util.Arrays.copyOf(blocked, blocked.length * 2);
        blocked[bSize++] = code;
        blockedOf[c]++;
    }

    /**
     * A sender with a send held here is refused anything else until it has drained, and is then called back: under
     * the baseline its queue to the controllers would hold its later requests behind the refused one (an L2 slice
     * sends in order), and an unbounded stage that took them instead made CC faster than no compression.
     */
    private boolean behindRefusal(MemClient from) {
        int c = clientId(from);
        if (blockedOf[c] == 0) return false;
        waiting[c] = true;
        return true;
    }

    private int clientId(MemClient from) {
        Integer id = clientIds.get(from);
        if (id != null) return id;
        int c = clients.length;
        clientIds.put(from, c);
        clients = java.util.Arrays.copyOf(clients, c + 1);
        clients[c] = from;
        blockedOf = java.util.Arrays.copyOf(blockedOf, c + 1);
        waiting = java.util.Arrays.copyOf(waiting, c + 1);
        refusedNow = java.util.Arrays.copyOf(refusedNow, c + 1);
        return c;
    }

    private boolean trySend(int code) {
        int s = code & ~META;
        if ((code & META) != 0) return inner.tryAccept(meta[s], this);
        if (!inner.tryAccept(slots[s], this)) return false;
        release(s);
        return true;
    }

    /**
     * Some controller has room again: every held send is tried, oldest first, and those still refused stay in order.
     * Not a FIFO that stops at its first refusal: the sends go to different channels, and one full channel must not
     * hold the others' requests back (it did, and doubled SRAD's time under compression).
     */
    @Override
    public void onSpaceAvailable(MemSink sink) {
        if (retrying) return; // a controller answering within the scan below: the scan tries everything anyway
        retrying = true;
        java.util.Arrays.fill(refusedNow, false);
        int kept = 0;
        for (int k = 0; k < bSize; k++) {
            int code = blocked[k], c = slotClient[code & ~META];
            if (!refusedNow[c] && trySend(code)) {
                blockedOf[c]--;
                continue;
            }
            refusedNow[c] = true; // the sender's later sends stay behind this one
            blocked[kept++] = code;
        }
        bSize = kept;
        retrying = false;
        for (int c = 0; c < clients.length; c++) {
            if (!waiting[c] || blockedOf[c] > 0) continue;
            waiting[c] = false;
            clients[c].onSpaceAvailable(this);
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
        slotClient = java.util.Arrays.copyOf(slotClient, n * 2);
        free = java.util.Arrays.copyOf(free, n * 2);
        for (int i = n * 2 - 1; i >= n; i--) free[nFree++] = i;
    }
}
