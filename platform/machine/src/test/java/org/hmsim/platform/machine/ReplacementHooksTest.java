package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.hmsim.api.policy.LruState;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.junit.jupiter.api.Test;

/** What a replacement policy is told, and what it may answer (a replacement-policy trial's findings). */
class ReplacementHooksTest {

    private static Workload bfs() { return TestMachines.workload("bfs", 1, "nodes", 4096); }

    /** LRU, with {@code victim} and {@code onFill} seen first by the test. */
    private static class Lru implements ReplacementPolicy.State {
        final LruState lru;
        final String cache;
        final int ways;

        Lru(String cache, int sets, int ways) {
            this.lru = new LruState(sets, ways);
            this.cache = cache;
            this.ways = ways;
        }

        @Override
        public void onHit(int set, int way) { lru.onHit(set, way); }

        @Override
        public void onFill(int set, int way) { lru.onFill(set, way); }

        @Override
        public int victim(int set, long candidates) { return lru.victim(set, candidates); }
    }

    /**
     * A way outside the candidates is the policy's bug, at the L1 too: a way of {@code ways} there installed the line in
     * the next set and the run went on "ok" with hits it could not have had.
     */
    @Test
    void aVictimOutsideTheCandidatesFailsTheRunNamingTheCache() {
        ReplacementPolicy outOfRange = (cache, sets, ways) -> new Lru(cache, sets, ways) {
            @Override
            public int victim(int set, long candidates) { return cache.contains("l1") ? ways : super.victim(set, candidates); }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TestMachines.run(TestMachines.machine("small"), bfs(), new OnePolicy(Slot.REPLACEMENT, outOfRange)));
        assertTrue(e.getMessage().contains(".l1: the replacement policy (slot replacement) chose way ") && e.getMessage().contains("not one of its candidate ways"),
                e.getMessage());
    }

    /**
     * More sectors of a line a way holds re-reference it (onHit); only a new line is a fill: RRIP-like policies re-inserted
     * hot lines at every sector miss (51,385 of kmeans' 69,340 L2 "fills" in a trial).
     */
    @Test
    void onlyANewLineIsAFill() {
        AtomicLong refills = new AtomicLong(), fills = new AtomicLong();
        ReplacementPolicy counting = (cache, sets, ways) -> new Lru(cache, sets, ways) {
            final long[] held = new long[sets * ways];

            @Override
            public void onFill(int set, int way, long line, org.hmsim.api.mem.AccessKind kind) {
                fills.incrementAndGet();
                if (held[set * ways + way] == line + 1) refills.incrementAndGet(); // +1: 0 is no line
                held[set * ways + way] = line + 1;
                onFill(set, way);
            }
        };
        MachineConfig m = TestMachines.machine("small");
        RunResult r = TestMachines.run(m, bfs(), new OnePolicy(Slot.REPLACEMENT, counting));
        assertTrue(fills.get() > 1000, "the L2 filled lines: " + fills);
        assertEquals(0, refills.get(), "fills of the line the way already held, of " + fills);
        RunResult lru = TestMachines.run(m, bfs(), new ClasspathPolicies());
        assertEquals(lru.simTimePs(), r.simTimePs(), "LRU told a refill as a hit moves the line to MRU as a fill did: the same run");
    }

    /**
     * A line that leaves without a victim choice is told (api.policy 1.22.0): an L1 copy the L2 invalidated when it
     * evicted the line was dropped unseen, and a dead-block predictor could not train on it (a replacement trial).
     */
    @Test
    void aLineThatLeavesWithoutAVictimIsTold() {
        AtomicLong l1Invalidated = new AtomicLong();
        ReplacementPolicy counting = (cache, sets, ways) -> new Lru(cache, sets, ways) {
            @Override
            public void onInvalidate(int set, int way) {
                if (cache.contains("l1")) l1Invalidated.incrementAndGet();
            }
        };
        MachineConfig m = TestMachines.machine("small", "gpu.l2.size", "64KB");
        RunResult r = TestMachines.run(m, TestMachines.workload("stream", 1, "elements", 65536, "iterations", 2), new OnePolicy(Slot.REPLACEMENT, counting));
        double dropped = r.stats().entrySet().stream().filter(e -> e.getKey().matches("gpu0\\.sm\\d+\\.l1\\.invalidations")).mapToDouble(e -> e.getValue()).sum();
        assertTrue(dropped > 100, "the small L2 evicted lines the L1s held: " + dropped);
        assertEquals((long) dropped, l1Invalidated.get(), "each L1 copy the L2 invalidated is told");
    }
}
