package org.hmsim.platform.engine;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemRequest;

/**
 * An L2's eviction notice ({@code gpu.l2.evict_notice}): a write-back that carries no data, acknowledged by the
 * memory controller without a DRAM access. What counts accesses, frames or compressed data lets it pass uncounted.
 */
public final class EvictNotice {
    private EvictNotice() {}

    public static boolean is(MemRequest r) { return r.kind == AccessKind.WRITEBACK && r.size == 0; }
}
