package org.hmsim.platform.traces.replay;

import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.platform.gpu.CacheConfig;
import org.hmsim.platform.gpu.cache.SectorTags;

/**
 * One level of the replay hierarchy: the simulator's tag store ({@link SectorTags}) and a replacement
 * policy's per-cache state ({@link ReplacementPolicy.State}), driven directly without the event engine
 * (the GPU L1/L2 classes are built around MSHRs, crossbar credits and timed events, which a functional
 * replay does not have). Lines are filled whole. Counts demand fetches and misses per kind, as Dinero does.
 */
final class ReplayCache {
    static final int IFETCH = 0, READ = 1, WRITE = 2;

    final CacheSpec spec;
    private final SectorTags t;
    private final ReplacementPolicy.State repl;
    private final long lineMask;
    private final int lineShift;
    ReplayCache next; // null: memory
    private final Memory memory;

    final long[] fetches = new long[3], misses = new long[3];
    long writebacks, writeThroughs, evictions;

    /** Counts what reaches memory. */
    static final class Memory {
        long reads, writes, readBytes, writeBytes;
    }

    ReplayCache(CacheSpec spec, ReplacementPolicy policy, Memory memory) {
        this.spec = spec;
        this.t = new SectorTags(spec.name(), new CacheConfig(spec.sizeBytes(), spec.ways(), spec.lineBytes(), 1, 1, 1, spec.lineBytes(), 1));
        this.repl = policy.forCache(spec.name(), t.sets, t.ways);
        this.lineMask = ~((long) spec.lineBytes() - 1);
        this.lineShift = Integer.numberOfTrailingZeros(spec.lineBytes());
        this.memory = memory;
    }

    /** An access of {@code size} bytes at {@code addr}: one demand access per line it touches. */
    void access(int kind, long addr, int size) {
        long first = addr & lineMask, last = (addr + Math.max(1, size) - 1) & lineMask;
        for (long line = first; ; line += spec.lineBytes()) {
            line(kind, line);
            if (line == last) break;
        }
    }

    private int setOf(long line) {
        return spec.moduloIndex() ? (int) Long.remainderUnsigned(line >>> lineShift, t.sets) : t.setOf(line);
    }

    void line(int kind, long line) {
        fetches[kind]++;
        int set = setOf(line);
        int way = t.find(set, line);
        boolean write = kind == WRITE;
        if (way >= 0) {
            repl.onHit(set, way);
            if (write) written(set * t.ways + way, line);
            return;
        }
        misses[kind]++;
        if (write && !spec.writeAllocate()) {
            below(WRITE, line);
            writeThroughs++;
            return;
        }
        int w = t.freeWay(set);
        if (w < 0) {
            long cand = t.candidates(set);
            w = org.hmsim.platform.gpu.cache.VictimChoice.checked(spec.name(), set, repl.victim(set, cand), t.ways, cand);
            int v = set * t.ways + w;
            evictions++;
            if (t.dirty[v] != 0) {
                writebacks++;
                below(WRITE, t.tag[v]);
            }
            t.invalidate(v);
        }
        below(kind == IFETCH ? IFETCH : READ, line);
        int i = set * t.ways + w;
        t.tag[i] = line;
        t.valid[i] = t.fullMask;
        t.dirty[i] = 0;
        repl.onFill(set, w);
        if (write) written(i, line);
    }

    private void written(int i, long line) {
        if (spec.writeBack()) t.dirty[i] = t.fullMask;
        else {
            writeThroughs++;
            below(WRITE, line);
        }
    }

    /** A line-sized request to the next level (or memory). */
    private void below(int kind, long line) {
        if (next != null) {
            next.access(kind, line, spec.lineBytes());
            return;
        }
        if (kind == WRITE) {
            memory.writes++;
            memory.writeBytes += spec.lineBytes();
        } else {
            memory.reads++;
            memory.readBytes += spec.lineBytes();
        }
    }

    long totalFetches() { return fetches[0] + fetches[1] + fetches[2]; }

    long totalMisses() { return misses[0] + misses[1] + misses[2]; }
}
