package org.hmsim.platform.gpu.xbar;

import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.Component;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.gpu.CrossbarConfig;

/**
 * The SM-to-L2 crossbar, both directions. Every port (SM side and L2-slice side, per direction) moves
 * {@code bytesPerCycle} bytes per GPU cycle; a packet occupies its source port and then, after the
 * traversal latency, its destination port for {@code ceil(bytes / bytesPerCycle)} cycles each
 * (cut-through: the unloaded time is latency + one serialisation). Requests without data cost an
 * {@value #HEADER_BYTES} B header, data packets their size.
 *
 * <p>Back-pressure (request direction): a port may have at most {@code queueDepth} packets in the
 * network (a credit returns when the packet is delivered), and at most {@code queueDepth} packets may be
 * in flight or held towards one slice. A slice that refuses a packet holds the whole port's FIFO until it
 * calls {@link #onSpaceAvailable}. The response direction never refuses: responses are bounded by the
 * L1 MSHRs and write acknowledgements by the store credits, and an L1 always sinks a fill.
 *
 * <p>Slice selection: the 128 B line number is XOR-folded before the modulo so that power-of-two
 * strides do not camp on one slice: {@code x = paddr >>> 7; slice = (x ^ x>>>11 ^ x>>>22 ^ x>>>33) mod slices}.
 * A slice's set index then leaves out the low bits of {@code x} that chose it (as GPGPU-Sim indexes an L2
 * bank with the address its partition bits removed): {@link #withinHashedSlice}.
 */
public final class Crossbar implements Component, MemSink, MemClient, EventTarget {
    public static final int HEADER_BYTES = 8;
    /** The lowest address bit a hashed slice selection uses (128 B blocks go round the slices). */
    public static final int HASHED_SLICE_LOW_BIT = 7;
    private static final int EV_REQ = 0, EV_RESP = 1, EV_INV_AT_L1 = 2, EV_INV_ACKED = 3;

    private final String name;
    private final Engine engine;
    private final long periodPs, latencyPs;
    private final int bytesPerCycle, depth;
    private final int smPorts, slicePorts;
    /** slicePorts - 1 when it is a power of two, else -1. */
    private final int sliceMask;
    private MemSink[] slices;

    // request direction
    private final long[] reqSrcFree, reqDstFree;
    private final int[] srcInFlight;
    private final Fifo[] toSlice;
    private final boolean[] sliceBlocked;
    private final MemClient[] waiting;
    /** The slice each waiting SM port was refused for (its retry goes to the same slice). */
    private final int[] waitingFor;
    private int waitingCount;
    // response direction
    private final long[] respSrcFree, respDstFree;
    private final Fifo[] toSm;
    private int respInFlight;

    /** log2 of the plain slice-interleave chunk, or -1 for hashed slice selection. */
    private final int interleaveShift;
    private long reqPackets, reqBytes, respPackets, respBytes, refusals, sliceRefusals, invalidationMessages;
    /** Port time the packets took, summed over the ports they arrive at (slices for requests, SMs for responses). */
    private long reqPortBusyPs, respPortBusyPs, lastDeliveryPs;

    // invalidations in flight (gpu.l2.invalidation: crossbar), by id: the slice's transaction, the SM, the line
    private L1Side l1Side;
    private long l1ProcessPs;
    private long[] invLine = new long[16];
    private int[] invDirty = new int[16], invSm = new int[16], invSlice = new int[16], invTx = new int[16], invFree = new int[16];
    private InvalidationAcks[] invAcks = new InvalidationAcks[16];
    private int invFreeCount, invNext;

    public Crossbar(String name, CrossbarConfig cfg, ClockDomain clock, Engine engine, int smPorts, int slicePorts) {
        if (cfg.bytesPerCycle() <= 0 || cfg.queueDepth() <= 0) throw new IllegalArgumentException(name + ": bytesPerCycle and queueDepth must be > 0");
        this.name = name;
        this.engine = engine;
        this.periodPs = clock.periodPs();
        this.latencyPs = clock.ps(cfg.latencyCycles());
        this.bytesPerCycle = cfg.bytesPerCycle();
        this.depth = cfg.queueDepth();
        this.smPorts = smPorts;
        this.slicePorts = slicePorts;
        this.sliceMask = Integer.bitCount(slicePorts) == 1 ? slicePorts - 1 : -1;
        int chunk = cfg.sliceInterleaveBytes();
        if (chunk < 0 || (chunk > 0 && Integer.bitCount(chunk) != 1)) throw new IllegalArgumentException(name + ": slice interleave must be 0 (hashed) or a power of two, was " + chunk);
        this.interleaveShift = chunk == 0 ? -1 : Integer.numberOfTrailingZeros(chunk);
        for (int b = 0; b < serPs.length; b++) serPs[b] = ((b + bytesPerCycle - 1) / bytesPerCycle) * periodPs;
        reqSrcFree = new long[smPorts];
        reqDstFree = new long[slicePorts];
        srcInFlight = new int[smPorts];
        toSlice = new Fifo[slicePorts];
        for (int i = 0; i < slicePorts; i++) toSlice[i] = new Fifo(depth);
        sliceBlocked = new boolean[slicePorts];
        waiting = new MemClient[smPorts];
        waitingFor = new int[smPorts];
        respSrcFree = new long[slicePorts];
        respDstFree = new long[smPorts];
        toSm = new Fifo[smPorts];
        for (int i = 0; i < smPorts; i++) toSm[i] = new Fifo(64);
    }

    /** A slice that keeps which L1s hold its lines (to invalidate them when it evicts one): told when an L1 drops one. */
    public interface SharerTracking {
        void l1Dropped(long line, int lineBytes, int sm);

        /** A write-back L1's flush hands the slice {@code sectors} of dirty data of {@code line} (after the slice's own flush). */
        void l1Flushed(long line, int sectors);
    }

    /**
     * SM {@code sm}'s L1 replaced {@code line} (of {@code lineBytes}): its slice forgets that the SM holds it, as a
     * directory notified of the eviction would. Untimed: it stands for the notification, not a modelled packet.
     */
    public void l1Dropped(long line, int lineBytes, int sm) {
        if (slices[sliceOf(line)] instanceof SharerTracking s) s.l1Dropped(line, lineBytes, sm);
    }

    /** The L1s at the SM ports, as an invalidation message finds them. */
    @FunctionalInterface
    public interface L1Side {
        /** Drops {@code line} from SM {@code sm}'s L1; returns the dirty sectors it held (a write-back L1's). */
        int invalidate(int sm, long line);
    }

    /** An L2 slice waiting for its invalidations' acknowledgements. */
    @FunctionalInterface
    public interface InvalidationAcks { void invalidationAcked(int tx, int dirtySectors); }

    /** Who takes invalidation messages at the SM ports, and how long an L1 takes to look one up and answer. */
    public void setL1Side(L1Side side, long processPs) {
        this.l1Side = side;
        this.l1ProcessPs = processPs;
    }

    /**
     * Slice {@code slice} invalidates {@code line} in every L1 whose bit is set in {@code sharers}: a header packet
     * to each, queued behind the slice's responses on its port and the SM's on its own (seed 003 §7: under load the
     * invalidation waits where the fills wait), the L1's lookup, and a header acknowledgement back, queued behind
     * the SM's requests, carrying the line's dirty sectors if the L1 held any (Multi2Sim's NMOESI: a block of N, M or
     * O state answers with its data). {@code acks} is told once per acknowledgement, with {@code tx} and those
     * sectors. Returns how many were sent.
     *
     * <p>Acknowledgements take port time but no credit and are never refused: a slice waits for them with its
     * input queue possibly full, so sharing the requests' credits could deadlock (protocols give them a virtual
     * network of their own for the same reason).
     */
    public int invalidate(int slice, long line, long sharers, InvalidationAcks acks, int tx) {
        if (l1Side == null) throw new IllegalStateException(name + ": no L1s to invalidate");
        long now = engine.now();
        int sent = 0;
        for (long b = sharers; b != 0; b &= b - 1) {
            for (int sm = Long.numberOfTrailingZeros(b); sm < smPorts; sm += 64) {
                long deliver = bookResponse(slice, sm, HEADER_BYTES, now);
                int id = newInvalidation(line, sm, slice, acks, tx);
                engine.schedule(deliver + l1ProcessPs, this, EV_INV_AT_L1, id);
                sent++;
            }
        }
        invalidationMessages += sent;
        return sent;
    }

    /** The L1 has looked the line up and dropped it: its acknowledgement leaves for the slice. */
    private void invalidateAtL1(int id) {
        int sm = invSm[id], slice = invSlice[id];
        int dirty = invDirty[id] = l1Side.invalidate(sm, invLine[id]);
        long deliver = bookRequest(sm, slice, HEADER_BYTES + 32 * Integer.bitCount(dirty), engine.now());
        engine.schedule(deliver, this, EV_INV_ACKED, id);
    }

    private void invalidationAcked(int id) {
        InvalidationAcks acks = invAcks[id];
        int tx = invTx[id];
        invAcks[id] = null;
        invFree[invFreeCount++] = id;
        acks.invalidationAcked(tx, invDirty[id]);
    }

    private int newInvalidation(long line, int sm, int slice, InvalidationAcks acks, int tx) {
        int id;
        if (invFreeCount > 0) id = invFree[--invFreeCount];
        else {
            id = invNext++;
            if (id == invLine.length) {
                int n = id * 2;
                invLine = java.util.Arrays.copyOf(invLine, n);
                invSm = java.util.Arrays.copyOf(invSm, n);
                invDirty = java.util.Arrays.copyOf(invDirty, n);
                invSlice = java.util.Arrays.copyOf(invSlice, n);
                invTx = java.util.Arrays.copyOf(invTx, n);
                invFree = java.util.Arrays.copyOf(invFree, n);
                invAcks = java.util.Arrays.copyOf(invAcks, n);
            }
        }
        invLine[id] = line;
        invSm[id] = sm;
        invSlice[id] = slice;
        invTx[id] = tx;
        invAcks[id] = acks;
        return id;
    }

    /** A write-back L1's flush: {@code line}'s dirty {@code sectors} go to its slice, untimed (as the flush is). */
    public void l1Flushed(long line, int sectors) {
        if (slices[sliceOf(line)] instanceof SharerTracking s) s.l1Flushed(line, sectors);
    }

    public void setSlices(MemSink[] sinks) {
        if (sinks.length != slicePorts) throw new IllegalArgumentException("expected " + slicePorts + " slices");
        this.slices = sinks.clone();
    }

    /** The L2 slice that holds byte address {@code paddr}. */
    public static int sliceOf(long paddr, int slices) {
        long x = paddr >>> HASHED_SLICE_LOW_BIT;
        long h = x ^ (x >>> 11) ^ (x >>> 22) ^ (x >>> 33);
        return (int) Long.remainderUnsigned(h, slices);
    }

    public int sliceOf(long paddr) {
        if (interleaveShift >= 0) { // plain interleave (seed 003: 256 B chunks over the banks)
            long c = paddr >>> interleaveShift;
            return sliceMask >= 0 ? (int) (c & sliceMask) : (int) Long.remainderUnsigned(c, slicePorts);
        }
        if (sliceMask < 0) return sliceOf(paddr, slicePorts);
        long x = paddr >>> HASHED_SLICE_LOW_BIT; // as sliceOf(paddr, slices), with a mask for a power-of-two slice count
        return (int) (x ^ (x >>> 11) ^ (x >>> 22) ^ (x >>> 33)) & sliceMask;
    }

    /**
     * How many slices a hash of the address chooses among (the slice count), or 0 with a plain interleave or
     * one slice. An L2 slice leaves that choice out of its set index ({@link #withinHashedSlice}): every line
     * it holds has the same hash, so indexing with the hashed bits would use only the sets that hash matches.
     */
    public int hashedSlices() {
        return interleaveShift < 0 && slicePorts > 1 ? slicePorts : 0;
    }

    /**
     * How many slices a plain interleave spreads the chunks over (the slice count), or 0 with a hashed selection or
     * one slice. An L2 slice then indexes its sets with the line number divided by it, as Multi2Sim's banks do
     * (mod_find_block: set = block / modules mod sets, seed 003's simulator), whatever the chunk size: the slice-select
     * bits are not stripped, so a bank reaches sets / (lines per chunk) ... all of its sets depending on the chunk.
     */
    public int plainSlices() {
        return interleaveShift >= 0 && slicePorts > 1 ? slicePorts : 0;
    }

    /**
     * {@code paddr} without the {@code k} bits from bit {@value #HASHED_SLICE_LOW_BIT} up that a hashed
     * selection of 2^k slices takes: every line of one slice has the same hash of them, and together with
     * the slice the rest still names the line.
     */
    public static long withoutHashedSliceBits(long paddr, int k) {
        return ((paddr >>> (HASHED_SLICE_LOW_BIT + k)) << HASHED_SLICE_LOW_BIT) | (paddr & ((1L << HASHED_SLICE_LOW_BIT) - 1));
    }

    /**
     * {@code paddr} with the choice among {@code slices} hashed slices taken out, for a slice's set index: for a
     * power of two the hashed bits ({@link #withoutHashedSliceBits}); otherwise the block's hash divided by the
     * slice count, the quotient of what {@link #sliceOf(long, int)} takes the remainder of (the block number
     * itself would keep its residue mod the slice count, so a slice of 3 with 192 sets reached a third of them).
     */
    public static long withinHashedSlice(long paddr, int slices) {
        if (Integer.bitCount(slices) == 1) return withoutHashedSliceBits(paddr, Integer.numberOfTrailingZeros(slices));
        long x = paddr >>> HASHED_SLICE_LOW_BIT;
        long h = x ^ (x >>> 11) ^ (x >>> 22) ^ (x >>> 33);
        return (Long.divideUnsigned(h, slices) << HASHED_SLICE_LOW_BIT) | (paddr & ((1L << HASHED_SLICE_LOW_BIT) - 1));
    }

    /**
     * The byte address {@code paddr} as seen inside its slice: with a plain interleave the slice-select
     * chunk bits are removed (the chunks of one slice are then consecutive); with hashed slices the bits the
     * hash selects the slice by ({@link #withinHashedSlice}), unchanged with one slice.
     * Seed 003: an FRC indexed with this does not alias with the bank bits.
     */
    public long addressWithinSlice(long paddr) {
        if (interleaveShift < 0) return slicePorts > 1 ? withinHashedSlice(paddr, slicePorts) : paddr;
        long low = paddr & ((1L << interleaveShift) - 1), c = paddr >>> interleaveShift;
        long local = sliceMask >= 0 ? c >>> Integer.bitCount(sliceMask) : Long.divideUnsigned(c, slicePorts);
        return (local << interleaveShift) | low;
    }

    /** Serialisation time of a packet of {@code bytes} on one port. */
    public long serialisationPs(int bytes) {
        return bytes >= 0 && bytes < serPs.length ? serPs[bytes] : ((bytes + bytesPerCycle - 1) / bytesPerCycle) * periodPs;
    }

    /** Serialisation times of packets up to 1 KB, precomputed: an integer division per packet and port otherwise. */
    private final long[] serPs = new long[1025];

    /** Unloaded traversal time of a packet of {@code bytes}: latency plus one serialisation. */
    public long unloadedPs(int bytes) { return latencyPs + serialisationPs(bytes); }

    private static int requestBytes(MemRequest r) {
        return r.kind == AccessKind.READ ? HEADER_BYTES : Math.max(HEADER_BYTES, r.size);
    }

    private static int responseBytes(MemRequest r) {
        if (r.nacked) return HEADER_BYTES; // an L2 NACK carries no data (seed 003 §M1)
        return (r.kind == AccessKind.READ || r.kind == AccessKind.ATOMIC) ? Math.max(HEADER_BYTES, r.size) : HEADER_BYTES;
    }

    /** Whether SM port {@code sm} can send a packet to {@code slice} now. */
    public boolean hasRoom(int sm, int slice) {
        return srcInFlight[sm] < depth && toSlice[slice].size < depth;
    }

    /** As {@link #hasRoom}, and if not, {@code from} is called back once room frees. */
    public boolean reserveOrWait(int sm, int slice, MemClient from) {
        if (hasRoom(sm, slice)) return true;
        refusals++;
        if (waiting[sm] == null) waitingCount++;
        waiting[sm] = from;
        waitingFor[sm] = slice;
        return false;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) { return tryAcceptAt(r, from, engine.now()); }

    /** Takes a request from SM port {@code r.sm} that is ready to leave at {@code readyPs} (&gt;= now). */
    public boolean tryAcceptAt(MemRequest r, MemClient from, long readyPs) {
        int src = r.sm, dst = sliceOf(r.paddr);
        if (!reserveOrWait(src, dst, from)) return false;
        long deliver = bookRequest(src, dst, requestBytes(r), readyPs);
        srcInFlight[src]++;
        Fifo f = toSlice[dst];
        f.push(r, deliver);
        // One event per port at a time, for the head packet: delivery times per port never decrease,
        // and a small event heap is what keeps the engine fast.
        if (!f.eventPending && !sliceBlocked[dst]) {
            f.eventPending = true;
            engine.schedule(deliver, this, EV_REQ, dst);
        }
        return true;
    }

    /**
     * A packet of {@code bytes} from SM port {@code src} to slice port {@code dst}, ready at {@code readyPs}: it occupies
     * its source port, then after the traversal its destination port (cut-through). Returns when it is delivered.
     */
    private long bookRequest(int src, int dst, int bytes, long readyPs) {
        reqPackets++;
        reqBytes += bytes;
        long ser = serialisationPs(bytes);
        reqPortBusyPs += ser;
        return book(reqSrcFree, src, reqDstFree, dst, ser, readyPs);
    }

    /** As {@link #bookRequest}, the other way: from slice port {@code src} to SM port {@code dst}. */
    private long bookResponse(int src, int dst, int bytes, long readyPs) {
        respPackets++;
        respBytes += bytes;
        long ser = serialisationPs(bytes);
        respPortBusyPs += ser;
        return book(respSrcFree, src, respDstFree, dst, ser, readyPs);
    }

    /**
     * Occupies port {@code src} of {@code srcFree} for {@code ser}, then after the traversal port {@code dst} of
     * {@code dstFree}.
     */
    private long book(long[] srcFree, int src, long[] dstFree, int dst, long ser, long readyPs) {
        long depart = Math.max(readyPs, srcFree[src]);
        srcFree[src] = depart + ser;
        long deliver = Math.max(depart + latencyPs, dstFree[dst]) + ser;
        dstFree[dst] = deliver;
        lastDeliveryPs = Math.max(lastDeliveryPs, deliver);
        return deliver;
    }

    /** L2 slice {@code slice} answers {@code r} (to SM {@code r.sm}) once {@code readyPs} is reached. */
    public void respond(int slice, MemRequest r, long readyPs) {
        int dst = r.sm;
        long deliver = bookResponse(slice, dst, responseBytes(r), readyPs);
        Fifo f = toSm[dst];
        f.push(r, deliver);
        respInFlight++;
        if (!f.eventPending) {
            f.eventPending = true;
            engine.schedule(deliver, this, EV_RESP, dst);
        }
    }

    @Override
    public void handle(int kind, long payload) {
        int port = (int) payload;
        switch (kind) {
            case EV_REQ -> {
                toSlice[port].eventPending = false;
                deliverRequests(port);
            }
            case EV_RESP -> {
                toSm[port].eventPending = false;
                deliverResponses(port);
            }
            case EV_INV_AT_L1 -> invalidateAtL1(port);
            default -> invalidationAcked(port);
        }
    }

    private void deliverRequests(int slice) {
        if (sliceBlocked[slice]) return;
        Fifo f = toSlice[slice];
        long now = engine.now();
        boolean freed = false;
        while (f.size > 0 && f.headTime() <= now) {
            MemRequest r = f.head();
            if (!slices[slice].tryAccept(r, this)) {
                sliceBlocked[slice] = true;
                sliceRefusals++;
                break;
            }
            f.pop();
            srcInFlight[r.sm]--;
            freed = true;
        }
        if (f.size > 0 && !sliceBlocked[slice] && !f.eventPending) {
            f.eventPending = true;
            engine.schedule(Math.max(now, f.headTime()), this, EV_REQ, slice);
        }
        if (freed && waitingCount > 0) wakeWaiters();
    }

    private void deliverResponses(int sm) {
        Fifo f = toSm[sm];
        long now = engine.now();
        while (f.size > 0 && f.headTime() <= now) {
            MemRequest r = f.pop();
            respInFlight--;
            r.replyTo.onResponse(r);
        }
        if (f.size > 0 && !f.eventPending) {
            f.eventPending = true;
            engine.schedule(Math.max(now, f.headTime()), this, EV_RESP, sm);
        }
    }

    /**
     * Calls back the refused SM ports that now have room towards the slice they were refused for, in
     * port order. A port without room stays registered: waking it would only make it retry, be refused
     * and register again, and the delivery that does free its room calls this again.
     */
    private void wakeWaiters() {
        for (int i = 0; i < smPorts && waitingCount > 0; i++) {
            MemClient c = waiting[i];
            if (c != null && hasRoom(i, waitingFor[i])) {
                waiting[i] = null;
                waitingCount--;
                c.onSpaceAvailable(this);
            }
        }
    }

    /** A slice that refused a packet has room again. */
    @Override
    public void onSpaceAvailable(MemSink sink) {
        for (int i = 0; i < slicePorts; i++) {
            if (slices[i] == sink && sliceBlocked[i]) {
                sliceBlocked[i] = false;
                deliverRequests(i);
            }
        }
    }

    @Override
    public void onResponse(MemRequest request) {
        throw new IllegalStateException(name + ": responses travel through respond()");
    }

    @Override
    public String name() { return name; }

    @Override
    public int inFlight() {
        int n = respInFlight + invNext - invFreeCount;
        for (Fifo f : toSlice) n += f.size;
        return n;
    }

    @Override
    public void registerStats(Stats s) {
        s.counter("req_packets", "packets SM->L2", () -> reqPackets);
        s.counter("req_bytes", "bytes SM->L2 (headers " + HEADER_BYTES + " B, data packets their size)", () -> reqBytes);
        s.counter("resp_packets", "packets L2->SM", () -> respPackets);
        s.counter("resp_bytes", "bytes L2->SM", () -> respBytes);
        s.counter("refusals", "requests refused for lack of port credits (back-pressure to the L1)", () -> refusals);
        s.counter("invalidation_messages", "L2 victims' invalidations sent to L1s as packets (l2.invalidation: crossbar), each acknowledged; counted in the packets and bytes both ways", () -> invalidationMessages);
        s.counter("slice_refusals", "deliveries refused by a full L2 slice input queue", () -> sliceRefusals);
        // the response ports never refuse (an SM takes what it asked for), so their saturation shows only here
        s.gauge("resp_port_utilisation", "mean busy share of the SM ports' L2->SM side (responses), over the run", () -> portShare(respPortBusyPs, smPorts, s));
        s.gauge("req_port_utilisation", "mean busy share of the slice ports' SM->L2 side (requests), over the run", () -> portShare(reqPortBusyPs, slicePorts, s));
    }

    private double portShare(long busyPs, int ports, Stats s) { return portShare(busyPs, ports, s.elapsedPs() >= 0 ? s.elapsedPs() : engine.now()); }

    private double portShare(long busyPs, int ports, long endPs) {
        long t = Math.max(endPs, lastDeliveryPs);
        return t <= 0 || ports == 0 ? 0 : (double) busyPs / ((double) ports * t);
    }

    /** Mean busy share of the SM ports' response side over a run ending at {@code endPs} (deliveries after it count). */
    public double responsePortShare(long endPs) { return portShare(respPortBusyPs, smPorts, endPs); }

    /**
     * A FIFO of packets with their delivery times (delivery times per port are non-decreasing). Its
     * storage is a power of two (indices wrap with a mask); the port's limits are enforced by the callers.
     */
    private static final class Fifo {
        MemRequest[] req;
        long[] time;
        int head, size, mask;
        boolean eventPending;

        Fifo(int cap) {
            int n = Integer.highestOneBit(Math.max(1, cap - 1)) << 1;
            req = new MemRequest[n];
            time = new long[n];
            mask = n - 1;
        }

        void push(MemRequest r, long t) {
            if (size == req.length) grow();
            int i = (head + size) & mask;
            req[i] = r;
            time[i] = t;
            size++;
        }

        MemRequest head() { return req[head]; }

        long headTime() { return time[head]; }

        MemRequest pop() {
            MemRequest r = req[head];
            req[head] = null;
            head = (head + 1) & mask;
            size--;
            return r;
        }

        private void grow() {
            int n = req.length * 2;
            MemRequest[] r2 = new MemRequest[n];
            long[] t2 = new long[n];
            for (int i = 0; i < size; i++) {
                r2[i] = req[(head + i) & mask];
                t2[i] = time[(head + i) & mask];
            }
            req = r2;
            time = t2;
            head = 0;
            mask = n - 1;
        }
    }

    /** Bytes carried both ways (requests SM to L2 and responses back, headers included): what the crossbar's energy is per. */
    public long bytesCarried() { return reqBytes + respBytes; }
}
