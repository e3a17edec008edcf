package org.hmsim.platform.cpu;

import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;

/**
 * The directory's in-order output port to memory: requests wait here when a memory sink refuses them
 * and leave when it signals space. A growable ring (grows only while the run warms up).
 */
final class Outbound {
    private MemRequest[] req = new MemRequest[64];
    private MemSink[] sink = new MemSink[64];
    private int head, size;
    private final MemClient owner;
    long maxQueued;

    Outbound(MemClient owner) { this.owner = owner; }

    /** Sends {@code r} to {@code s} now if nothing waits before it and {@code s} accepts it, else queues it. */
    void send(MemRequest r, MemSink s) {
        if (size == 0 && s.tryAccept(r, owner)) return;
        if (size == req.length) grow();
        int i = (head + size) % req.length;
        req[i] = r;
        sink[i] = s;
        size++;
        if (size > maxQueued) maxQueued = size;
    }

    /** Sends what the sinks accept, in order. */
    void drain() {
        while (size > 0) {
            if (!sink[head].tryAccept(req[head], owner)) return;
            req[head] = null;
            sink[head] = null;
            head = (head + 1) % req.length;
            size--;
        }
    }

    int size() { return size; }

    private void grow() {
        MemRequest[] r = new MemRequest[req.length * 2];
        MemSink[] s = new MemSink[req.length * 2];
        for (int k = 0; k < size; k++) {
            r[k] = req[(head + k) % req.length];
            s[k] = sink[(head + k) % req.length];
        }
        req = r;
        sink = s;
        head = 0;
    }
}
