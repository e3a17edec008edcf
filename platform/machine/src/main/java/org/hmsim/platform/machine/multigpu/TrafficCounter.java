package org.hmsim.platform.machine.multigpu;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.platform.engine.EvictNotice;

/**
 * Counts what one GPU sends to one pool (requests and bytes; reads and writes apart) in front of the
 * route to it. Whether that is local or remote traffic is fixed by the route (seed 004 Fig. 10 counts
 * remote accesses: L2 misses and write-backs that cross the inter-GPU network).
 */
final class TrafficCounter implements MemSink {
    private final MemSink inner;
    final boolean remote;
    long reads, writes, readBytes, writeBytes;

    TrafficCounter(MemSink inner, boolean remote) {
        this.inner = inner;
        this.remote = remote;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (EvictNotice.is(r)) return inner.tryAccept(r, from); // no access: not counted as remote traffic
        int size = r.size; // read first: an accepted request may be finished and recycled at once
        boolean write = r.kind == AccessKind.WRITE || r.kind == AccessKind.WRITEBACK;
        if (!inner.tryAccept(r, from)) return false;
        if (write) {
            writes++;
            writeBytes += size;
        } else {
            reads++;
            readBytes += size;
        }
        return true;
    }

    long requests() { return reads + writes; }

    long bytes() { return readBytes + writeBytes; }
}
