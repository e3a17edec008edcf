package org.hmsim.platform.traces.importer;

import java.util.Map;
import java.util.TreeMap;
import org.hmsim.platform.traces.TraceAllocation;
import org.hmsim.platform.traces.TraceSink;

/**
 * The address ranges a foreign trace touches, which become the allocations of the hmsim trace (a
 * simulated run needs every address inside an allocation). Addresses are counted in 64 KiB chunks;
 * chunks less than 1 MiB apart are merged into one range, so memory grows with the number of separate
 * regions, not with the trace. Explicit ranges (Accel-Sim's MemcpyHtoD) are added the same way.
 */
final class Footprint {
    static final int CHUNK_SHIFT = 16;
    static final long MERGE_GAP_CHUNKS = 16;
    private final TreeMap<Long, Long> ranges = new TreeMap<>(); // first chunk -> last chunk (inclusive)
    private long lastChunk = -1;

    /** Records an access of {@code size} bytes at {@code address}. */
    void touch(long address, int size) {
        long c = address >>> CHUNK_SHIFT;
        long e = (address + Math.max(1, size) - 1) >>> CHUNK_SHIFT;
        if (c == lastChunk && e == c) return;
        add(c, e);
        lastChunk = e;
    }

    /** Records the range [address, address + bytes). */
    void range(long address, long bytes) {
        if (bytes > 0) add(address >>> CHUNK_SHIFT, (address + bytes - 1) >>> CHUNK_SHIFT);
    }

    private void add(long first, long last) {
        Map.Entry<Long, Long> lo = ranges.floorEntry(first);
        if (lo != null && lo.getValue() + MERGE_GAP_CHUNKS >= first) {
            if (lo.getValue() >= last) return;
            first = lo.getKey();
            last = Math.max(last, lo.getValue());
        }
        for (Map.Entry<Long, Long> hi = ranges.ceilingEntry(first); hi != null && hi.getKey() <= last + MERGE_GAP_CHUNKS;
             hi = ranges.ceilingEntry(first)) {
            last = Math.max(last, hi.getValue());
            ranges.remove(hi.getKey());
        }
        ranges.put(first, last);
    }

    /** Sends the ranges to {@code sink} as allocations {@code prefix0, prefix1, ...} in address order. */
    void emit(TraceSink sink, String prefix) {
        int i = 0;
        for (Map.Entry<Long, Long> r : ranges.entrySet()) {
            long base = r.getKey() << CHUNK_SHIFT;
            long bytes = (r.getValue() - r.getKey() + 1) << CHUNK_SHIFT;
            sink.allocation(new TraceAllocation(prefix + i++, bytes, null, false, base));
        }
    }

    int regions() { return ranges.size(); }
}
