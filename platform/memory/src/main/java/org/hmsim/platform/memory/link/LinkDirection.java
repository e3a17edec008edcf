package org.hmsim.platform.memory.link;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.memory.Rates;

/**
 * One direction of a link: packets serialised onto the wire at the direction's bandwidth, each arriving
 * {@code latency} after its last byte left. Because latency is fixed, packets arrive in the order they
 * were serialised; the in-flight packets are a ring and every arrival event pops its head (no
 * per-packet objects).
 *
 * <p><b>Two virtual channels.</b> A direction carries requests from its near side and responses to
 * the requests its far side sent the other way. They wait in separate queues (virtual channels, as
 * real links keep separate credits for requests and completions: PCIe posted/non-posted/completion
 * classes, NVLink's virtual channels) and the wire takes one packet from each in turn when both have
 * some. Only the request channel is bounded ({@code depth} packets accepted but not yet fully
 * serialised; new requests are refused beyond it); responses always enter (each was reserved by the
 * request that caused it, so they are bounded by the requests in flight). A single shared FIFO with
 * that admission rule is unfair when both sides request over one link (several GPUs reading each
 * other's memory, seed 004): the side whose responses fill a direction keeps the other side's
 * requests out of it, gets still more responses back and starves the other side.
 * With traffic of one kind per direction (a GPU reading host memory) both rules are the same.
 *
 * <p>Bytes, packets and busy time are counted when a packet's last byte leaves the wire; the queue
 * delay is the time a packet waited for the wire.
 */
final class LinkDirection implements EventTarget {
    private static final int SER_DONE = 0, ARRIVE = 1;
    static final byte REQUEST = 0, RESPONSE = 1;

    private final Engine engine;
    private final int dir;
    private final double psPerByte;
    private final long latencyPs;
    private final int depth;

    /** Packets waiting for the wire, per virtual channel (REQUEST, RESPONSE). */
    private final Ring[] vc = {new Ring(), new Ring()};
    /** Packets serialised (or serialising), in wire order, waiting to arrive. */
    private final Ring flight = new Ring();
    private boolean wireBusy;
    private int curWire, curPayload;
    private byte curType;
    /** The channel the wire served last (round-robin between the two). */
    private byte lastVc = RESPONSE;
    /** Requests accepted but not yet fully serialised: what the bounded request channel holds. */
    private int requestsUnserialised;

    private MemClient[] waiters = new MemClient[4];
    private LinkPort[] waitPorts = new LinkPort[4];
    private int nWaiters;

    long wireBytes, payloadBytes, packets, busyPs;
    /** Bytes a copy engine moves across this direction outside the packet model (unified memory's page copies), if any. */
    java.util.function.LongSupplier copyBytes;

    long copyBytes() { return copyBytes == null ? 0 : copyBytes.getAsLong(); }
    /** When the wire last finished serialising a packet. */
    long lastBusyEndPs;
    private Histogram queueDelay;

    LinkDirection(Engine engine, int dir, double bytesPerSecond, long latencyPs, int depth) {
        this.engine = engine;
        this.dir = dir;
        this.psPerByte = 1e12 / bytesPerSecond;
        this.latencyPs = latencyPs;
        this.depth = depth;
    }

    long serialisationPs(int wire) { return (long) Math.ceil(wire * psPerByte); }

    /** Whether the request channel is full (new requests are refused). */
    boolean full() { return requestsUnserialised >= depth; }

    /** Queues a packet of {@code wire} bytes ({@code payload} of them data) for the wire. */
    void send(MemRequest r, LinkPort port, byte type, int wire, int payload) {
        if (type == REQUEST) requestsUnserialised++;
        vc[type].push(r, port, type, wire, payload, engine.now());
        if (!wireBusy) startNext();
    }

    /** Puts the next packet on the idle wire: the other channel's turn when both have packets waiting. */
    private void startNext() {
        boolean req = vc[REQUEST].count > 0, resp = vc[RESPONSE].count > 0;
        if (!req && !resp) return;
        byte v = req && resp ? (byte) (1 - lastVc) : req ? REQUEST : RESPONSE;
        lastVc = v;
        Ring q = vc[v];
        int h = q.head;
        long now = engine.now();
        if (queueDelay != null) queueDelay.record(now - q.time[h]);
        curWire = q.wire[h];
        curPayload = q.payload[h];
        curType = v;
        flight.push(q.req[h], q.port[h], v, 0, 0, 0);
        q.pop();
        wireBusy = true;
        long end = now + serialisationPs(curWire);
        engine.schedule(end, this, SER_DONE, 0);
        engine.schedule(end + latencyPs, this, ARRIVE, 0);
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == SER_DONE) {
            // the packet on the wire has left it: count it now, not when queued
            wireBytes += curWire;
            payloadBytes += curPayload;
            busyPs += serialisationPs(curWire);
            lastBusyEndPs = engine.now();
            packets++;
            if (curType == REQUEST) requestsUnserialised--;
            wireBusy = false;
            startNext();
            notifyWaiters();
        } else {
            Ring f = flight;
            int h = f.head;
            MemRequest r = f.req[h];
            LinkPort p = f.port[h];
            byte t = f.type[h];
            f.pop();
            if (t == REQUEST) p.arrive(r);
            else p.answered(r);
        }
    }

    void addWaiter(MemClient c, LinkPort port) {
        for (int k = 0; k < nWaiters; k++) if (waiters[k] == c && waitPorts[k] == port) return;
        if (nWaiters == waiters.length) {
            waiters = java.util.Arrays.copyOf(waiters, nWaiters * 2);
            waitPorts = java.util.Arrays.copyOf(waitPorts, nWaiters * 2);
        }
        waiters[nWaiters] = c;
        waitPorts[nWaiters++] = port;
    }

    /** Wakes refused senders in the order they were refused; one that is refused again re-registers. */
    private void notifyWaiters() {
        int n = nWaiters;
        for (int k = 0; k < n && !full(); k++) {
            MemClient c = waiters[0];
            LinkPort p = waitPorts[0];
            System.arraycopy(waiters, 1, waiters, 0, nWaiters - 1);
            System.arraycopy(waitPorts, 1, waitPorts, 0, nWaiters - 1);
            nWaiters--;
            waiters[nWaiters] = null;
            waitPorts[nWaiters] = null;
            c.onSpaceAvailable(p);
        }
    }

    int inFlight() { return vc[REQUEST].count + vc[RESPONSE].count + flight.count; }

    int direction() { return dir; }

    /** Registers this direction's statistics with the suffix {@code _down} (0) or {@code _up} (1). */
    void registerStats(Stats s, double pjPerByte) {
        String x = dir == 0 ? "_down" : "_up";
        // "down" is A to B as the machine file's between: lists them, whatever PCIe calls downstream (a trial read
        // the GPU-to-host copies of between: [gpu0, cpu] as host-to-device)
        String d = dir == 0 ? " (direction 0: from the first node of the link's between: to the second)"
                : " (direction 1: from the second node of the link's between: to the first)";
        s.counter("wire_bytes" + x, "bytes on the wire, headers and flit padding included" + d, () -> wireBytes);
        s.counter("payload_bytes" + x, "data bytes carried" + d, () -> payloadBytes);
        s.counter("packets" + x, "packets sent" + d, () -> packets);
        s.counter("busy_ps" + x, "time the wire was serialising, ps" + d, () -> busyPs);
        s.gauge("utilisation" + x, "busy time / elapsed time (to the last packet if later)" + d, () -> Rates.ratio(busyPs, Rates.window(s, engine, lastBusyEndPs)));
        if (copyBytes != null) {
            s.counter("copy_bytes" + x, "bytes of unified memory's page copies (their own copy channels, not the packets above)" + d, this::copyBytes);
            s.gauge("energy_pj" + x, "(wire bytes + copy bytes) x pJ per byte" + d, () -> (wireBytes + copyBytes()) * pjPerByte);
        } else s.gauge("energy_pj" + x, "wire bytes x pJ per byte" + d, () -> wireBytes * pjPerByte);
        queueDelay = s.histogram("queue_delay_ps" + x, "time a packet waited for the wire, ps" + d, 1_000_000_000L);
    }

    /** A FIFO of packets as parallel arrays (power-of-two capacity, grows on demand). */
    private static final class Ring {
        MemRequest[] req = new MemRequest[32];
        LinkPort[] port = new LinkPort[32];
        byte[] type = new byte[32];
        int[] wire = new int[32], payload = new int[32];
        long[] time = new long[32];
        int head, count;

        void push(MemRequest r, LinkPort p, byte t, int w, int pl, long at) {
            if (count == req.length) grow();
            int i = (head + count) & (req.length - 1);
            req[i] = r;
            port[i] = p;
            type[i] = t;
            wire[i] = w;
            payload[i] = pl;
            time[i] = at;
            count++;
        }

        void pop() {
            req[head] = null;
            port[head] = null;
            head = (head + 1) & (req.length - 1);
            count--;
        }

        private void grow() {
            int n = req.length * 2;
            MemRequest[] r = new MemRequest[n];
            LinkPort[] p = new LinkPort[n];
            byte[] t = new byte[n];
            int[] w = new int[n], pl = new int[n];
            long[] tm = new long[n];
            for (int k = 0; k < count; k++) {
                int i = (head + k) & (req.length - 1);
                r[k] = req[i];
                p[k] = port[i];
                t[k] = type[i];
                w[k] = wire[i];
                pl[k] = payload[i];
                tm[k] = time[i];
            }
            req = r;
            port = p;
            type = t;
            wire = w;
            payload = pl;
            time = tm;
            head = 0;
        }
    }
}
