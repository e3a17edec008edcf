package org.hmsim.platform.machine.multigpu;

import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * The fabric's entry for spread-space (fine-grained page) addresses of one GPU: finds the 128 B
 * block's home memory and sends the request there, over the local path or the link to the home GPU.
 * The request's address is rewritten in place to the home's local address, as the home's memory
 * controller sees it; requesters match responses by {@code tag}, never by address, so nothing above
 * notices. A refused request stays rewritten, and its retry goes straight to the home.
 */
final class SpreadRouter implements MemSink {
    private final GpuMemories memories;
    private final MemSink[] route;

    /** @param route this GPU's route per real pool (possibly with traffic counters in front) */
    SpreadRouter(GpuMemories memories, MemSink[] route) {
        this.memories = memories;
        this.route = route;
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        long o = PhysicalAddress.offset(r.paddr);
        int pool = memories.pool(memories.home(o));
        r.paddr = PhysicalAddress.make(pool, memories.local(o));
        r.pool = pool;
        return route[pool].tryAccept(r, from);
    }
}
