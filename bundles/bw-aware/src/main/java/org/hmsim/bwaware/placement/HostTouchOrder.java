package org.hmsim.bwaware.placement;

import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;

/**
 * Placement in the order the host touches the data (parameter {@code touch_order: host}): a CUDA
 * program copies its inputs to the device (cudaMemcpy) before the first kernel, so the OS allocates
 * physical pages in allocation and address order, not in the order the GPU's kernels first touch them.
 * It matters only when a pool fills (seed 000 Ch. 4.3, 10 % capacity): with GPU touch order the pages a
 * kernel reaches first — often the hottest — get the fast pool's frames, which makes a hotness-blind
 * policy look like a partial oracle. Implemented lazily: at each first-touch fault every still-unmapped
 * page that precedes the faulting one is mapped first (through {@link MemoryManager#map}, which spills
 * as first touch does), each with the policy's own choice, so frames are handed out in address order.
 */
final class HostTouchOrder {
    /** The placement decision for one page. */
    interface Choice {
        int choose(long vpn, Allocation allocation);
    }

    private final MemoryManager memory;
    private int alloc;   // cursor: allocation index
    private long page;   // cursor: page within that allocation

    HostTouchOrder(MemoryManager memory) { this.memory = memory; }

    /** Maps every unmapped page before {@code vpn} of {@code allocation} (in address order), then steps over {@code vpn}. */
    void catchUp(long vpn, Allocation allocation, Choice choice) {
        List<Allocation> allocs = memory.allocations();
        long pb = memory.pageBytes();
        while (alloc < allocs.size()) {
            Allocation a = allocs.get(alloc);
            long base = a.baseVa() / pb, pages = (a.endVa() - 1) / pb - base + 1;
            if (page >= pages) {
                alloc++;
                page = 0;
                continue;
            }
            long v = base + page;
            if (a.id() == allocation.id() && v >= vpn) {
                if (v == vpn) page++;
                return;
            }
            if (a.baseVa() > allocation.baseVa()) return; // the faulting page's allocation lies before the cursor
            if (memory.poolOf(v) < 0) memory.map(v, choice.choose(v, a));
            page++;
        }
    }
}
