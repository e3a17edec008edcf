package org.hmsim.platform.memory.link;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;

/**
 * One direction of a link: a FIFO of packets serialised onto the wire at the direction's bandwidth,
 * each arriving {@code latency} after its last byte left. Because serialisation is FIFO and latency
 * fixed, packets arrive in the order they were sent; the in-flight packets are a ring and every event
 * pops its head (no per-packet objects).
 *
 * <p>The bounded queue counts packets accepted but not yet fully serialised. Only new requests are
 * refused when it is full; responses always enter (each was reserved by the request that caused it,
 * so they are bounded by the requests in flight). Bytes, packets and busy time are counted when a
 * packet's last byte leaves the wire.
 */
final class LinkDirection implements EventTarget {
    private static final int SER_DONE = 0, ARRIVE = 1;
    static final byte REQUEST = 0, RESPONSE = 1;

    private final Engine engine;
    private final int dir;
    private final double psPerByte;
    private final long latencyPs;
    private final int depth;

    private long wireFreeAt;
    private int unserialised;

    private MemRequest[] pktReq = new MemRequest[32];
    private LinkPort[] pktPort = new LinkPort[32];
    private byte[] pktType = new byte[32];
    private int[] pktWire = new int[32], pktPayload = new int[32];
    private int head, count;

    private MemClient[] waiters = new MemClient[4];
    private LinkPort[] waitPorts = new LinkPort[4];
    private int nWaiters;

    long wireBytes, payloadBytes, packets, busyPs;
    private Histogram queueDelay;

    LinkDirection(Engine engine, int dir, double bytesPerSecond, long latencyPs, int depth) {
        this.engine = engine;
        this.dir = dir;
        this.psPerByte = 1e12 / bytesPerSecond;
        this.latencyPs = latencyPs;
        this.depth = depth;
    }

    long serialisationPs(int wire) { return (long) Math.ceil(wire * psPerByte); }

    boolean full() { return unserialised >= depth; }

    /** Queues a packet of {@code wire} bytes ({@code payload} of them data) for the wire. */
    void send(MemRequest r, LinkPort port, byte type, int wire, int payload) {
        long now = engine.now();
        long start = Math.max(now, wireFreeAt);
        long ser = serialisationPs(wire);
        long end = start + ser;
        wireFreeAt = end;
        unserialised++;
        if (queueDelay != null) queueDelay.record(start - now);
        push(r, port, type, wire, payload);
        engine.schedule(end, this, SER_DONE, 0);
        engine.schedule(end + latencyPs, this, ARRIVE, 0);
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == SER_DONE) {
            // the oldest packet still serialising has left the wire: count it now, not when queued
            int i = (head + count - unserialised) & (pktReq.length - 1);
            unserialised--;
            wireBytes += pktWire[i];
            payloadBytes += pktPayload[i];
            busyPs += serialisationPs(pktWire[i]);
            packets++;
            notifyWaiters();
        } else {
            MemRequest r = pktReq[head];
            LinkPort p = pktPort[head];
            byte t = pktType[head];
            pktReq[head] = null;
            pktPort[head] = null;
            head = (head + 1) & (pktReq.length - 1);
            count--;
            if (t == REQUEST) p.arrive(r);
            else p.answered(r);
        }
    }

    private void push(MemRequest r, LinkPort port, byte type, int wire, int payload) {
        if (count == pktReq.length) grow();
        int i = (head + count) & (pktReq.length - 1);
        pktReq[i] = r;
        pktPort[i] = port;
        pktType[i] = type;
        pktWire[i] = wire;
        pktPayload[i] = payload;
        count++;
    }

    private void grow() {
        int n = pktReq.length * 2;
        MemRequest[] r = new MemRequest[n];
        LinkPort[] p = new LinkPort[n];
        byte[] t = new byte[n];
        int[] w = new int[n], pl = new int[n];
        for (int k = 0; k < count; k++) {
            int i = (head + k) & (pktReq.length - 1);
            r[k] = pktReq[i];
            p[k] = pktPort[i];
            t[k] = pktType[i];
            w[k] = pktWire[i];
            pl[k] = pktPayload[i];
        }
        pktReq = r;
        pktPort = p;
        pktType = t;
        pktWire = w;
        pktPayload = pl;
        head = 0;
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

    int inFlight() { return count; }

    int direction() { return dir; }

    /** Registers this direction's statistics with the suffix {@code _down} (0) or {@code _up} (1). */
    void registerStats(Stats s, double pjPerByte) {
        String x = dir == 0 ? "_down" : "_up";
        String d = dir == 0 ? " (direction 0, node A to node B)" : " (direction 1, node B to node A)";
        s.counter("wire_bytes" + x, "bytes on the wire, headers and flit padding included" + d, () -> wireBytes);
        s.counter("payload_bytes" + x, "data bytes carried" + d, () -> payloadBytes);
        s.counter("packets" + x, "packets sent" + d, () -> packets);
        s.counter("busy_ps" + x, "time the wire was serialising, ps" + d, () -> busyPs);
        s.gauge("utilisation" + x, "busy time / elapsed time" + d, () -> engine.now() <= 0 ? 0 : (double) busyPs / engine.now());
        s.gauge("energy_pj" + x, "wire bytes x pJ per byte" + d, () -> wireBytes * pjPerByte);
        queueDelay = s.histogram("queue_delay_ps" + x, "time a packet waited for the wire, ps" + d, 1_000_000_000L);
    }
}
