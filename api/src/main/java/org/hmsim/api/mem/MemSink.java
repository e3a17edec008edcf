package org.hmsim.api.mem;

/**
 * The input port of a component that accepts memory requests: a cache, a crossbar port, a link, a memory
 * controller. Back-pressure is explicit: a full queue is a modelled fact, answered with {@code false},
 * never an exception.
 */
public interface MemSink {

    /**
     * Offers a request. Returns {@code true} if the sink took it (it now owns it); {@code false} if its
     * input queue is full. After a refusal the sink calls {@code from.onSpaceAvailable(this)} once when
     * space frees, so the sender needs no polling.
     */
    boolean tryAccept(MemRequest request, MemClient from);
}
