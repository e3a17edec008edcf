package org.hmsim.platform.machine;

import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * Where one node's requests to physical memory go: straight to a pool attached to the same node, or
 * into the link that reaches the pool's node. The route is a table indexed by pool, built once, so
 * routing a request is an array load.
 */
final class Fabric implements MemSink {
    private final MemSink[] route;

    Fabric(MemSink[] route) {
        this.route = route;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        int pool = PhysicalAddress.pool(r.paddr);
        r.pool = pool;
        return route[pool].tryAccept(r, from);
    }
}
