package org.hmsim.api.mem;

/** The requester side of a port: receives responses and is told when a refusing sink has room again. */
public interface MemClient {

    /** The answer to a request this client sent (data for reads, acknowledgement for writes). */
    void onResponse(MemRequest request);

    /** A sink that refused this client earlier has space again. */
    default void onSpaceAvailable(MemSink sink) {}
}
