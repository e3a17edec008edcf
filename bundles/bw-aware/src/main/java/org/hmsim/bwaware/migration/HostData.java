package org.hmsim.bwaware.migration;

import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;

/**
 * The Ch. 5 start state (seed 000 §2.5): "all pages are physically allocated in CPU DDR" before the
 * first kernel, as a host program that initialises its data leaves them. Maps every page of every
 * allocation in the given pool through {@link MemoryManager#map}; pages already mapped stay where they are.
 */
final class HostData {
    private HostData() {}

    static long mapAll(MemoryManager memory, int pool) {
        long pageBytes = memory.pageBytes(), n = 0;
        for (Allocation a : memory.allocations()) {
            long first = a.baseVa() / pageBytes, last = (a.endVa() - 1) / pageBytes;
            for (long vpn = first; vpn <= last; vpn++) if (memory.map(vpn, pool) >= 0) n++;
        }
        return n;
    }
}
