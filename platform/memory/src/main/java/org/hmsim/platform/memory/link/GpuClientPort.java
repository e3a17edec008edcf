package org.hmsim.platform.memory.link;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.stats.Stats;

/**
 * Where GPU requests that crossed the link enter the CPU's memory controller (seed 000 Ch. 6, Fig. 6.2).
 * What happens here is hardware the cacheability policy configures:
 * <ul>
 *   <li>With a cache-everything policy and no client cache, every request passes straight to memory (the
 *   GPU's L2 asked for what it needs; nothing changes).</li>
 *   <li>A read the GPU may not cache (selective caching) is served at line granularity: the memory
 *   controller reads the whole 128 B line from DRAM (the DRAM's minimum transfer, §6.2.2.3) and the link
 *   carries back what the request asked for (its sector mask: all of the line with line-sized transfers,
 *   only the requested 32 B sub-blocks with variable-size transfers).</li>
 *   <li>The <b>CPU-side GPU client cache</b> (§6.2.2.2) when the policy gives it a capacity: set-associative,
 *   LRU, 128 B lines, allocating only for these GPU reads, write-through with no write-allocate (a write
 *   passes on and leaves a present line valid), an atomic (performed at memory) drops a present line. A hit
 *   answers after the cache's latency; misses to a line being fetched merge into its MSHR (which keeps the
 *   requesters' masks, so each gets its own sub-blocks); a miss reads the line from DRAM and allocates it.
 *   The tag lookup of a miss overlaps the memory controller's queue (no added latency).</li>
 * </ul>
 * The client cache's geometry follows the policy whenever no fetch is in flight (a swap replaces it empty).
 */
public final class GpuClientPort implements MemSink, MemClient, EventTarget {
    /** Line fetches the memory controller keeps in flight for GPU reads before it refuses more. */
    public static final int MSHRS = 256;

    private final String name;
    private final MemSink memory;
    private final CacheabilityPolicy policy;
    private final Engine engine;
    private final RequestPool pool;
    private final long periodPs;
    private final int lineBytes, fullMask;

    // the client cache (null: none)
    private long cacheBytes = -1;
    private int ways, sets, latencyCycles;
    private long latencyPs;
    private long[] tag;
    private long[] lru;
    private long stamp;

    // line fetches in flight: by line (mergeable, with a client cache) and by slot
    private final Map<Long, Integer> byLine = new HashMap<>();
    private final List<List<MemRequest>> waiters = new ArrayList<>();
    private final long[] slotLine = new long[MSHRS];
    private final boolean[] slotAllocates = new boolean[MSHRS];
    private final int[] freeSlot = new int[MSHRS];
    private int freeSlots;
    private final List<MemClient> refused = new ArrayList<>();

    // hits waiting out the cache latency (constant: a FIFO with one event at its head)
    private MemRequest[] hitQ = new MemRequest[64];
    private long[] hitT = new long[64];
    private int hqHead, hqSize;

    private long hits, misses, merges, lineReads, bytesToGpu, passed;

    public GpuClientPort(String name, MemSink memory, CacheabilityPolicy policy, Engine engine, RequestPool pool,
                         long gpuPeriodPs, int lineBytes) {
        this.name = name;
        this.memory = memory;
        this.policy = policy;
        this.engine = engine;
        this.pool = pool;
        this.periodPs = gpuPeriodPs;
        this.lineBytes = lineBytes;
        this.fullMask = (1 << (lineBytes / 32)) - 1;
        for (int i = 0; i < MSHRS; i++) {
            freeSlot[freeSlots++] = MSHRS - 1 - i;
            waiters.add(new ArrayList<>(4));
        }
    }

    /** Follows the policy's client-cache geometry while nothing is in flight. */
    private void configure() {
        long bytes = policy.clientCacheBytes();
        int w = Math.max(1, policy.clientCacheWays()), lat = policy.clientCacheLatencyCycles();
        if (bytes == cacheBytes && w == ways && lat == latencyCycles) return;
        if (freeSlots != MSHRS || hqSize > 0) return;
        cacheBytes = bytes;
        ways = w;
        latencyCycles = lat;
        latencyPs = lat * periodPs;
        if (bytes <= 0) {
            tag = null;
            sets = 0;
            return;
        }
        long s = bytes / ((long) w * lineBytes);
        if (s < 1 || Long.bitCount(s) != 1 || s * w * lineBytes != bytes)
            throw new IllegalArgumentException(name + ": client cache of " + bytes + " B, " + w + " ways: size / (ways x " + lineBytes + " B) must be a power of two");
        sets = (int) s;
        tag = new long[sets * ways];
        lru = new long[sets * ways];
        java.util.Arrays.fill(tag, -1);
    }

    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        if (r.kind != AccessKind.READ) {
            if (tag != null && r.kind == AccessKind.ATOMIC) drop(r.line(lineBytes));
            return pass(r, from); // write-through, no write-allocate
        }
        configure();
        boolean uncached = !policy.mayAllocate(2, r);
        if (tag == null && !uncached) return pass(r, from);
        long line = r.line(lineBytes);
        if (tag != null) {
            int i = find(line);
            if (i >= 0) {
                hits++;
                lru[i] = ++stamp;
                respondAfterLatency(r);
                return true;
            }
            Integer m = byLine.get(line);
            if (m != null) {
                merges++;
                waiters.get(m).add(r);
                return true;
            }
        }
        if (freeSlots == 0) return refuse(from);
        MemRequest d = pool.take();
        d.kind = AccessKind.READ;
        d.paddr = line;
        d.size = lineBytes;
        d.sectorMask = fullMask;
        d.pool = r.pool;
        d.gpu = r.gpu;
        d.sm = r.sm;
        d.createdPs = engine.now();
        d.replyTo = this;
        int m = freeSlot[freeSlots - 1];
        d.tag = m;
        if (!memory.tryAccept(d, this)) {
            pool.give(d);
            return refuse(from);
        }
        freeSlots--;
        misses++;
        lineReads++;
        slotLine[m] = line;
        slotAllocates[m] = tag != null;
        waiters.get(m).add(r);
        if (tag != null) byLine.put(line, m);
        return true;
    }

    /**
     * Hands {@code r} to memory unchanged; counted once, when memory takes it (a refused request is offered again, and
     * counting each attempt made {@code passed} exceed the requests the pool served: found by a statistics review).
     */
    private boolean pass(MemRequest r, MemClient from) {
        if (!memory.tryAccept(r, from)) return false;
        passed++;
        return true;
    }

    private boolean refuse(MemClient from) {
        if (from != null && !refused.contains(from)) refused.add(from);
        return false;
    }

    /** A line arrived from DRAM: allocate it (client cache) and answer every waiter with its own sub-blocks. */
    @Override
    public void onResponse(MemRequest d) {
        int m = (int) d.tag;
        pool.give(d);
        long line = slotLine[m];
        if (slotAllocates[m]) {
            byLine.remove(line);
            if (tag != null) install(line);
        }
        List<MemRequest> w = waiters.get(m);
        freeSlot[freeSlots++] = m;
        for (MemRequest r : w) answer(r);
        w.clear();
        if (!refused.isEmpty()) wakeRefused();
    }

    @Override
    public void onSpaceAvailable(MemSink sink) { wakeRefused(); }

    private void wakeRefused() {
        List<MemClient> c = new ArrayList<>(refused);
        refused.clear();
        for (MemClient x : c) x.onSpaceAvailable(this);
    }

    private void answer(MemRequest r) {
        bytesToGpu += r.size;
        r.replyTo.onResponse(r);
    }

    private int find(long line) {
        int base = (int) ((line / lineBytes) & (sets - 1)) * ways;
        for (int k = 0; k < ways; k++) if (tag[base + k] == line) return base + k;
        return -1;
    }

    private void install(long line) {
        if (find(line) >= 0) return;
        int base = (int) ((line / lineBytes) & (sets - 1)) * ways, v = base;
        for (int k = 0; k < ways; k++) {
            if (tag[base + k] == -1) {
                v = base + k;
                break;
            }
            if (lru[base + k] < lru[v]) v = base + k;
        }
        tag[v] = line;
        lru[v] = ++stamp;
    }

    private void drop(long line) {
        int i = find(line);
        if (i >= 0) tag[i] = -1;
    }

    private void respondAfterLatency(MemRequest r) {
        if (hqSize == hitQ.length) {
            int n = hitQ.length;
            MemRequest[] q = new MemRequest[n * 2];
            long[] t = new long[n * 2];
            for (int k = 0; k < hqSize; k++) {
                q[k] = hitQ[(hqHead + k) % n];
                t[k] = hitT[(hqHead + k) % n];
            }
            hitQ = q;
            hitT = t;
            hqHead = 0;
        }
        int k = (hqHead + hqSize) % hitQ.length;
        hitQ[k] = r;
        hitT[k] = engine.now() + latencyPs;
        if (hqSize++ == 0) engine.schedule(hitT[k], this, 0, 0);
    }

    @Override
    public void handle(int kind, long payload) {
        long now = engine.now();
        while (hqSize > 0 && hitT[hqHead] <= now) {
            MemRequest r = hitQ[hqHead];
            hitQ[hqHead] = null;
            hqHead = (hqHead + 1) % hitQ.length;
            hqSize--;
            answer(r);
        }
        if (hqSize > 0) engine.schedule(hitT[hqHead], this, 0, 0);
    }

    /** Requests accepted and not yet answered. */
    public int inFlight() {
        int n = hqSize;
        for (int m = 0; m < MSHRS; m++) n += waiters.get(m).size();
        return n;
    }

    public String name() { return name; }

    public long hits() { return hits; }

    public long misses() { return misses; }

    /** Registers {@code <name>.hits} etc. on {@code root}. */
    public void registerStats(Stats root) {
        Stats s = root.scope(name);
        s.counter("client_cache_hits", "GPU reads served by the CPU-side client cache (seed 000 §6.2.2.2)", () -> hits);
        s.counter("client_cache_merges", "GPU reads merged into a line fetch in flight at the CPU side", () -> merges);
        s.counter("line_reads", "128 B DRAM line reads for GPU reads served at line granularity (uncached or client-cache misses)", () -> lineReads);
        s.counter("passed", "GPU requests passed to memory unchanged (writes, atomics, cacheable reads without a client cache)", () -> passed);
        s.counter("bytes_to_gpu", "data bytes answered to line-granular GPU reads (what the link carries back)", () -> bytesToGpu);
        s.gauge("client_cache_hit_rate", "hits / (hits + merges + misses) of GPU reads at the client cache", () -> {
            long a = hits + merges + misses;
            return a == 0 ? 0 : (double) hits / a;
        });
    }
}
