package org.hmsim.selectivecaching;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.Params;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.junit.jupiter.api.Test;

/**
 * The policy's decisions, on a fake machine (one GPU with pool 0 = GDDR on gpu0, pool 1 = DDR on the CPU node),
 * rule by rule. The machine-level checks (SelectiveCachingChecksTest) run GPU-only workloads, so the CPU never
 * reads a GPU-homed line there and nothing else exercises the remote directory; and read-only caching is checked
 * there only by throughput, which a page left cacheable after its fault would improve, not break.
 */
class PolicyRulesTest {
    static final int LINE = 128;
    static final long PAGE = 4096;
    static final int GDDR = 0, DDR = 1;

    /** An engine whose clock the test sets; the policy only reads it. */
    static final class Clock implements Engine {
        long now;
        @Override public long now() { return now; }
        @Override public void schedule(long timePs, EventTarget target, int kind, long payload) { throw new UnsupportedOperationException(); }
        @Override public long eventsHandled() { return 0; }
    }

    /** Counters and gauges by name, read when the test asks. */
    static final class Registry implements Stats {
        final Map<String, LongSupplier> counters = new HashMap<>();
        final Map<String, DoubleSupplier> gauges = new HashMap<>();
        @Override public void counter(String name, String doc, LongSupplier reader) { counters.put(name, reader); }
        @Override public void gauge(String name, String doc, DoubleSupplier reader) { gauges.put(name, reader); }
        @Override public Histogram histogram(String name, String doc, long maxValue) { throw new UnsupportedOperationException(); }
        @Override public Stats scope(String prefix) { return this; }
        @Override public void sampleEachEpoch(String name) {}

        long get(String name) {
            LongSupplier s = counters.get(name);
            if (s == null) throw new AssertionError("no counter " + name + " (have " + counters.keySet() + ")");
            return s.getAsLong();
        }
    }

    final Clock clock = new Clock();
    final Registry stats = new Registry();

    /** Only what the policy asks of the machine; anything else fails the test loudly. */
    MachineView machine() {
        List<PoolInfo> pools = List.of(new PoolInfo(GDDR, "gddr", "GDDR5", 0, 8, 336e9, 1L << 32),
                new PoolInfo(DDR, "ddr", "DDR4", 1, 4, 80e9, 1L << 34));
        return (MachineView) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {MachineView.class}, (proxy, m, args) ->
                switch (m.getName()) {
                    case "engine" -> clock;
                    case "pools" -> pools;
                    case "gpuCount" -> 1;
                    case "lineBytes" -> LINE;
                    case "pageBytes" -> PAGE;
                    default -> throw new UnsupportedOperationException("fake machine: " + m.getName());
                });
    }

    /** The policy as the provider builds it, with the given parameters over the defaults. */
    SelectiveCachingPolicy policy(Object... params) {
        SelectiveCachingProvider p = new SelectiveCachingProvider();
        Map<String, Object> given = new HashMap<>();
        for (int i = 0; i < params.length; i += 2) given.put((String) params[i], params[i + 1]);
        Params valid = Params.validate(p.parameters(), given);
        org.hmsim.api.policy.PolicyContext ctx = (org.hmsim.api.policy.PolicyContext) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {org.hmsim.api.policy.PolicyContext.class}, (proxy, m, args) -> switch (m.getName()) {
                    case "machine" -> machine();
                    case "stats" -> stats;
                    default -> throw new UnsupportedOperationException("fake context: " + m.getName());
                });
        return (SelectiveCachingPolicy) p.create(ctx, valid);
    }

    static MemRequest req(AccessKind kind, int pool, long paddr) {
        MemRequest r = new MemRequest();
        r.kind = kind;
        r.pool = pool;
        r.paddr = paddr;
        r.size = LINE;
        return r;
    }

    /**
     * Seed 000 §6.2.1: a GPU-homed line the CPU has read may be in the CPU's caches, so the GPU must not cache it
     * (it is routed to the CPU instead); lines the CPU never read stay cacheable. A policy that let every
     * GPU-homed line allocate would pass every GPU-only run.
     */
    @Test
    void gpuHomedLinesTheCpuReadAreNotCachedOnTheGpu() {
        SelectiveCachingPolicy p = policy();
        long base = 1L << 20; // some GDDR address, page-aligned
        int read = 64;        // lines the CPU reads: far below the directory's capacity, so no flush resets it
        for (int i = 0; i < read; i++) assertTrue(p.mayAllocate(2, req(AccessKind.READ, GDDR, base + (long) i * LINE)),
                "before the CPU reads anything, GPU-homed lines are cacheable");
        for (int i = 0; i < read; i++) p.onCpuAccess(req(AccessKind.READ, GDDR, base + (long) i * LINE));
        assertEquals(read, stats.get("remote_dir_inserts"), "each line the CPU read entered the remote directory once");
        assertEquals(0, stats.get("remote_dir_flushes"));
        // a second CPU read of a line already there is not a new insertion (no second probe of the GPU caches)
        p.onCpuAccess(req(AccessKind.READ, GDDR, base));
        assertEquals(read, stats.get("remote_dir_inserts"), "a line already in the directory is not inserted again");

        for (int i = 0; i < read; i++) {
            long pa = base + (long) i * LINE;
            assertFalse(p.mayAllocate(1, req(AccessKind.READ, GDDR, pa)), "line " + i + " the CPU read: not cached in the GPU L1");
            assertFalse(p.mayAllocate(2, req(AccessKind.READ, GDDR, pa)), "line " + i + " the CPU read: not cached in the GPU L2");
        }
        // hits are counted once per request, at the L2, where the request is sent to the CPU
        assertEquals(read, stats.get("remote_dir_hits"), "every GPU request to a line the CPU read was a directory hit");
        assertEquals(0, stats.get("remote_dir_false_positives"), "those lines were really read by the CPU: no NACK");

        // GPU-homed lines the CPU did not read stay cacheable (a cuckoo filter may report a few as false positives,
        // which are counted as such): most of a far-away range must allocate
        int cacheable = 0, others = 1024;
        for (int i = 0; i < others; i++) if (p.mayAllocate(2, req(AccessKind.READ, GDDR, (1L << 28) + (long) i * LINE))) cacheable++;
        assertTrue(cacheable > others * 0.9, "lines the CPU never read stay cacheable: " + cacheable + " of " + others);
        assertEquals(others - cacheable, stats.get("remote_dir_false_positives"), "each refused unread line is a counted false positive");
    }

    /** The CPU's stores and write-backs do not enter the directory (§6.2.1 tracks lines the CPU read); CPU-homed lines never do. */
    @Test
    void onlyCpuReadsOfGpuHomedLinesEnterTheDirectory() {
        SelectiveCachingPolicy p = policy();
        p.onCpuAccess(req(AccessKind.WRITEBACK, GDDR, 0));
        p.onCpuAccess(req(AccessKind.READ, DDR, 4 * LINE));
        assertEquals(0, stats.get("remote_dir_inserts"));
        assertTrue(p.mayAllocate(2, req(AccessKind.READ, GDDR, 0)));
    }

    /**
     * Seed 000 §6.2.3: with read-only caching a CPU page is cacheable until the GPU's first store to it faults; from then
     * on the page is read-write and uncacheable (the fault's shootdown dropped its cached copies; a new copy would be
     * stale after the next store) until the next kernel launch marks every CPU page read-only again. Other CPU pages
     * stay cacheable.
     */
    @Test
    void aPageTheGpuFaultedToReadWriteIsUncacheableUntilTheNextLaunch() {
        long faultPs = 20 * SelectiveCachingProvider.US;
        SelectiveCachingPolicy p = policy("read_only", true, "gpu_fault", faultPs);
        long page = 7 * PAGE, other = 9 * PAGE;
        p.onKernelLaunch(0);
        assertTrue(p.mayAllocate(1, req(AccessKind.READ, DDR, page)), "a CPU page is read-only and cacheable at the launch");
        assertTrue(p.mayAllocate(2, req(AccessKind.READ, DDR, page + LINE)));
        long before = stats.get("ro_cached_reads");

        clock.now = 1_000_000;
        assertEquals(faultPs, p.storeFaultPs(req(AccessKind.WRITE, DDR, page + 3 * LINE)), "the first GPU store to it faults");
        assertEquals(1, stats.get("gpu_faults"));
        // during the fault and long after it, in the same kernel: reads of any line of the page are not cacheable
        for (long t : new long[] {clock.now + 1, clock.now + faultPs, clock.now + 100 * faultPs}) {
            clock.now = t;
            for (int l = 0; l < PAGE / LINE; l++) {
                assertFalse(p.mayAllocate(1, req(AccessKind.READ, DDR, page + l * LINE)), "faulted page, line " + l + " at " + t + " ps: L1");
                assertFalse(p.mayAllocate(2, req(AccessKind.READ, DDR, page + l * LINE)), "faulted page, line " + l + " at " + t + " ps: L2");
            }
        }
        assertEquals(before, stats.get("ro_cached_reads"), "no read of the faulted page was let allocate after its fault");
        assertEquals(0, p.storeFaultPs(req(AccessKind.WRITE, DDR, page)), "a read-write page takes no second fault");
        assertTrue(p.mayAllocate(1, req(AccessKind.READ, DDR, other)), "a page never written stays read-only and cacheable");

        p.onKernelLaunch(1);
        assertTrue(p.mayAllocate(1, req(AccessKind.READ, DDR, page)), "the next launch makes the page read-only (cacheable) again");
        assertEquals(faultPs, p.storeFaultPs(req(AccessKind.WRITE, DDR, page)), "and its next store faults again");
    }

    /** The same for a page a CPU write made read-write (§6.2.3: the CPU's handler makes it GPU-uncacheable). */
    @Test
    void aPageTheCpuWroteIsUncacheableUntilTheNextLaunch() {
        SelectiveCachingPolicy p = policy("read_only", true);
        long page = 3 * PAGE;
        p.onKernelLaunch(0);
        assertTrue(p.mayAllocate(1, req(AccessKind.READ, DDR, page)));
        p.onCpuAccess(req(AccessKind.WRITE, DDR, page + LINE));
        assertEquals(1, stats.get("cpu_faults"));
        assertFalse(p.mayAllocate(1, req(AccessKind.READ, DDR, page)), "after the CPU's write the page is not cacheable");
        p.onKernelLaunch(1);
        assertTrue(p.mayAllocate(1, req(AccessKind.READ, DDR, page)));
    }
}
