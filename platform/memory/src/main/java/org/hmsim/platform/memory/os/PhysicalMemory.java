package org.hmsim.platform.memory.os;

import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;

/**
 * The port through which the OS's page-copy engine reaches physical memory: the machine wires it to
 * its fabric, which routes each request by {@code r.pool} to the local controller or through a link.
 * A copy request carries in {@code r.gpu} the node whose copy engine moves the page (the destination
 * pool's node): a machine with several GPUs sends it from that GPU, so the copy crosses one link.
 * Copy traffic has no priority over demand traffic (seed 000 §2.5).
 */
@FunctionalInterface
public interface PhysicalMemory {
    /**
     * Offers a request; false = refused now (queue full), and the receiver then calls
     * {@code from.onSpaceAvailable(..)} once when space frees (the {@link org.hmsim.api.mem.MemSink}
     * contract).
     */
    boolean send(MemRequest r, MemClient from);
}
