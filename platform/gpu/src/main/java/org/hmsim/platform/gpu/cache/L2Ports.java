package org.hmsim.platform.gpu.cache;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.platform.gpu.xbar.Crossbar;

/**
 * An L2 slice's outgoing queues: requests to the fabric (delayed ones, and those the fabric refused, held and
 * retried in order) and hit responses to the crossbar. The slice stays the event target and the fabric's client;
 * it hands the queues' events here.
 */
final class L2Ports {
    private final L2Slice slice;
    private final Engine engine;
    private final Crossbar xbar;
    private final int index;
    private final L2Stats st;
    private final L2Transactions tx;
    MemSink fabric;

    // delayed and refused sends to the fabric
    private MemRequest[] sendSlot = new MemRequest[64];
    private int[] freeSend = new int[64];
    private int freeSends;
    private int pendingSends;
    // hit responses wait out the hit latency here and reach the crossbar port in time order, so that a
    // response still in the tag pipeline does not hold the port against fills that are ready earlier
    private MemRequest[] respQ = new MemRequest[64];
    private long[] respT = new long[64];
    private int rqHead, rqSize;
    // sends in time order (the common case: constant tag latency) wait in a FIFO with one event
    private MemRequest[] delayQ = new MemRequest[64];
    private long[] delayT = new long[64];
    private int dqHead, dqSize;
    private MemRequest[] fabricQ = new MemRequest[64];
    private int fqHead, fqSize;

    L2Ports(L2Slice slice, Engine engine, Crossbar xbar, int index, L2Stats st, L2Transactions tx) {
        this.slice = slice;
        this.engine = engine;
        this.xbar = xbar;
        this.index = index;
        this.st = st;
        this.tx = tx;
        for (int i = 0; i < 64; i++) freeSend[freeSends++] = 63 - i;
    }

    /** Requests and responses waiting here. */
    int inFlight() { return pendingSends + dqSize + fqSize + rqSize; }

    /** {@code i mod n} for 0 &lt;= i &lt; 2n (ring indices: head &lt; n plus at most n): no integer division on the hot path. */
    static int wrap(int i, int n) { return i >= n ? i - n : i; }

    void sendAt(MemRequest d, long timePs) {
        if (timePs <= engine.now()) {
            sendNow(d);
            return;
        }
        if (dqSize == 0 || timePs >= delayT[wrap(dqHead + dqSize - 1, delayT.length)]) {
            if (dqSize == delayQ.length) growDelayed();
            int k = wrap(dqHead + dqSize, delayQ.length);
            delayQ[k] = d;
            delayT[k] = timePs;
            if (dqSize++ == 0) engine.schedule(timePs, slice, L2Slice.EV_SEND_FIFO, 0);
            return;
        }
        if (freeSends == 0) growSends();
        int s = freeSend[--freeSends];
        sendSlot[s] = d;
        pendingSends++;
        engine.schedule(timePs, slice, L2Slice.EV_SEND, s);
    }

    /** An out-of-order delayed send's time has come. */
    void sendSlotDue(int s) {
        MemRequest d = sendSlot[s];
        sendSlot[s] = null;
        freeSend[freeSends++] = s;
        pendingSends--;
        sendNow(d);
    }

    void respondAt(MemRequest r, long t) {
        if (rqSize == respQ.length) {
            int n = respQ.length;
            MemRequest[] q = new MemRequest[n * 2];
            long[] tt = new long[n * 2];
            for (int k = 0; k < rqSize; k++) {
                q[k] = respQ[(rqHead + k) % n];
                tt[k] = respT[(rqHead + k) % n];
            }
            respQ = q;
            respT = tt;
            rqHead = 0;
        }
        int k = wrap(rqHead + rqSize, respQ.length);
        respQ[k] = r;
        respT[k] = t;
        if (rqSize++ == 0) engine.schedule(t, slice, L2Slice.EV_RESPOND, 0);
    }

    void drainResponses() {
        long now = engine.now();
        while (rqSize > 0 && respT[rqHead] <= now) {
            MemRequest r = respQ[rqHead];
            respQ[rqHead] = null;
            rqHead = wrap(rqHead + 1, respQ.length);
            rqSize--;
            xbar.respond(index, r, now);
        }
        if (rqSize > 0) engine.schedule(respT[rqHead], slice, L2Slice.EV_RESPOND, 0);
    }

    void drainDelayed() {
        long now = engine.now();
        while (dqSize > 0 && delayT[dqHead] <= now) {
            MemRequest d = delayQ[dqHead];
            delayQ[dqHead] = null;
            dqHead = wrap(dqHead + 1, delayQ.length);
            dqSize--;
            sendNow(d);
        }
        if (dqSize > 0) engine.schedule(delayT[dqHead], slice, L2Slice.EV_SEND_FIFO, 0);
    }

    private void growDelayed() {
        int n = delayQ.length;
        MemRequest[] q = new MemRequest[n * 2];
        long[] tt = new long[n * 2];
        for (int k = 0; k < dqSize; k++) {
            q[k] = delayQ[(dqHead + k) % n];
            tt[k] = delayT[(dqHead + k) % n];
        }
        delayQ = q;
        delayT = tt;
        dqHead = 0;
    }

    void sendNow(MemRequest d) {
        if (fqSize == 0 && fabric.tryAccept(d, slice)) {
            tx.left(d, slice);
            return;
        }
        st.fabricRefusals++;
        if (fqSize == fabricQ.length) {
            MemRequest[] q = new MemRequest[fqSize * 2];
            for (int k = 0; k < fqSize; k++) q[k] = fabricQ[(fqHead + k) % fabricQ.length];
            fabricQ = q;
            fqHead = 0;
        }
        fabricQ[wrap(fqHead + fqSize, fabricQ.length)] = d;
        fqSize++;
    }

    /** The fabric has room again: the refused sends go, in order, while it takes them. */
    void onSpaceAvailable() {
        while (fqSize > 0 && fabric.tryAccept(fabricQ[fqHead], slice)) {
            tx.left(fabricQ[fqHead], slice);
            fabricQ[fqHead] = null;
            fqHead = wrap(fqHead + 1, fabricQ.length);
            fqSize--;
        }
    }

    private void growSends() {
        int n = sendSlot.length;
        sendSlot = java.util.Arrays.copyOf(sendSlot, n * 2);
        freeSend = java.util.Arrays.copyOf(freeSend, n * 2);
        for (int k = n * 2 - 1; k >= n; k--) freeSend[freeSends++] = k;
    }
}
