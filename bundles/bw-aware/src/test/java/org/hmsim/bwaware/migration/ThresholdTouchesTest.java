package org.hmsim.bwaware.migration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.junit.jupiter.api.Test;

/**
 * The meaning of the migration threshold (seed 000 §2.5, the {@code threshold} parameter): a page in CPU memory becomes
 * a migration candidate on its N-th GPU touch (last-level TLB miss), not before and not one later. The machine-level
 * checks compare TH(1) with TH(32) only by run time, which an off-by-one (triggering on touch N+1) leaves unchanged, so
 * this drives {@link PageMigrator} directly: a fake machine (GDDR on gpu0, DDR on the CPU node), a fake memory manager
 * that records migrations, and an event loop the test runs.
 */
class ThresholdTouchesTest {
    static final long PAGE = 4096;
    static final int GDDR = 0, DDR = 1;
    static final int PAGES = 16;
    static final long BASE_VPN = 0x100;

    /** A minimal discrete-event loop: (time, order of scheduling) ordered. */
    static final class Loop implements Engine {
        record Ev(long t, long seq, EventTarget target, int kind, long payload) {}
        final PriorityQueue<Ev> q = new PriorityQueue<>((a, b) -> a.t != b.t ? Long.compare(a.t, b.t) : Long.compare(a.seq, b.seq));
        long now, seq, handled;
        @Override public long now() { return now; }
        @Override public void schedule(long timePs, EventTarget target, int kind, long payload) {
            if (timePs < now) throw new IllegalArgumentException("event in the past");
            q.add(new Ev(timePs, seq++, target, kind, payload));
        }
        @Override public long eventsHandled() { return handled; }

        void run() {
            for (int guard = 0; !q.isEmpty(); guard++) {
                if (guard > 1_000_000) throw new AssertionError("event loop does not settle");
                Ev e = q.poll();
                now = e.t;
                handled++;
                e.target.handle(e.kind, e.payload);
            }
        }
    }

    static final class Registry implements Stats {
        final Map<String, LongSupplier> counters = new HashMap<>();
        @Override public void counter(String name, String doc, LongSupplier reader) { counters.put(name, reader); }
        @Override public void gauge(String name, String doc, DoubleSupplier reader) {}
        @Override public Histogram histogram(String name, String doc, long maxValue) { throw new UnsupportedOperationException(); }
        @Override public Stats scope(String prefix) { return this; }
        @Override public void sampleEachEpoch(String name) {}
        long get(String name) { return counters.get(name).getAsLong(); }
    }

    final Loop loop = new Loop();
    final Registry stats = new Registry();
    final Map<Long, Integer> poolOf = new HashMap<>();
    final List<Long> migrated = new ArrayList<>();
    final Allocation alloc = new Allocation(0, "data", BASE_VPN * PAGE, PAGES * PAGE, AllocationHint.NONE, false);

    @SuppressWarnings("unchecked")
    static <T> T fake(Class<T> type, Map<String, java.util.function.Function<Object[], Object>> methods) {
        return (T) Proxy.newProxyInstance(ThresholdTouchesTest.class.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) -> {
            var f = methods.get(m.getName());
            if (f == null) throw new UnsupportedOperationException("fake " + type.getSimpleName() + ": " + m.getName());
            return f.apply(args);
        });
    }

    /** The migrator as the threshold provider builds it: threshold N, no range expansion, no balancing, polls at once. */
    PageMigrator migrator(int threshold) {
        List<PoolInfo> pools = List.of(new PoolInfo(GDDR, "gddr", "GDDR5", 0, 8, 200e9, 1L << 32),
                new PoolInfo(DDR, "ddr", "DDR4", 1, 4, 80e9, 1L << 34));
        MachineView machine = fake(MachineView.class, Map.of(
                "engine", a -> loop, "gpuClock", a -> ClockDomain.ofMHz("gpu", 1400), "pools", a -> pools, "gpuCount", a -> 1,
                "pageBytes", a -> PAGE, "lineBytes", a -> 128));
        MemoryManager memory = fake(MemoryManager.class, Map.of(
                "pageBytes", a -> PAGE,
                "allocations", a -> List.of(alloc),
                "allocationOf", a -> alloc.contains((Long) a[0]) ? alloc : null,
                "poolOf", a -> poolOf.getOrDefault((Long) a[0], -1),
                "map", a -> poolOf.putIfAbsent((Long) a[0], (Integer) a[1]) == null ? a[1] : -1,
                "migrate", a -> {
                    long vpn = (Long) a[0];
                    migrated.add(vpn);
                    poolOf.put(vpn, (Integer) a[1]);
                    Runnable done = (Runnable) a[2];
                    loop.scheduleIn(1000, (k, p) -> done.run(), 0, 0);
                    return true;
                }));
        PolicyContext ctx = fake(PolicyContext.class, Map.of("machine", a -> machine, "memory", a -> memory, "stats", a -> stats));
        ThresholdProvider p = new ThresholdProvider();
        return (PageMigrator) p.create(ctx, Params.validate(p.parameters(), Map.of("threshold", threshold, "range", 0, "poll_cycles", 0)));
    }

    /** {@code n} GPU TLB misses on page {@code i} of the allocation, then the runtime drains the ring buffer. */
    void touch(PageMigrator m, int i, int n) {
        for (int k = 0; k < n; k++) m.onTlbMiss(0, BASE_VPN + i);
        loop.run();
    }

    @Test
    void aPageBecomesACandidateOnItsNthTouchNotBefore() {
        for (int n : new int[] {1, 2, 3, 8}) {
            poolOf.clear();
            migrated.clear();
            PageMigrator m = migrator(n);
            m.onKernelLaunch(0, () -> {});
            assertEquals(PAGES, stats.get("host_mapped"), "the case: every page starts in CPU memory");
            assertEquals(DDR, poolOf.get(BASE_VPN + 3));

            // touched one at a time: nothing until the N-th touch, which triggers and migrates the page to GDDR
            for (int t = 1; t < n; t++) {
                touch(m, 3, 1);
                assertEquals(0, stats.get("triggers"), "N=" + n + ": " + t + " touch(es) do not make a candidate");
            }
            assertTrue(migrated.isEmpty(), "N=" + n + ": nothing migrated before the N-th touch");
            touch(m, 3, 1);
            assertEquals(1, stats.get("triggers"), "N=" + n + ": the N-th touch makes the page a candidate");
            assertEquals(List.of(BASE_VPN + 3), migrated, "N=" + n + ": and it is migrated");
            assertEquals(GDDR, poolOf.get(BASE_VPN + 3));

            // touches arriving together in one poll of the ring buffer count the same: N-1 do not trigger, the N-th does
            if (n > 1) {
                touch(m, 5, n - 1);
                assertEquals(1, stats.get("triggers"), "N=" + n + ": N-1 touches in one poll do not make a candidate");
            }
            touch(m, 5, 1);
            assertEquals(2, stats.get("triggers"), "N=" + n + ": the N-th touch in a later poll does");
            assertEquals(List.of(BASE_VPN + 3, BASE_VPN + 5), migrated);

            // a page touched once more per page than it needs triggers once (it is queued, then in GDDR)
            touch(m, 7, n + 1);
            assertEquals(3, stats.get("triggers"), "N=" + n + ": N+1 touches in one poll make one candidate");
        }
    }
}
