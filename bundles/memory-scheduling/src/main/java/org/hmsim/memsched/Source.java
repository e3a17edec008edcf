package org.hmsim.memsched;

import org.hmsim.api.mem.MemRequest;

/** Who sent a request, as the memory controller can tell: the CPU side or a GPU. */
final class Source {
    private Source() {}

    /** The CPU side's requests carry no GPU: its caches' misses and write-backs. */
    static boolean cpu(MemRequest r) { return r.gpu < 0; }

    /** 0 for the CPU side, 1 + g for GPU g: an index into per-source counters. */
    static int index(MemRequest r) { return r.gpu < 0 ? 0 : 1 + r.gpu; }
}
