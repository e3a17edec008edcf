package org.hmsim.platform.gpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.gpu.sm.Sm;
import org.junit.jupiter.api.Test;

/**
 * What a warp scheduler is told beyond its ready set (api.policy 1.21.0), as a cache-conscious scheduler (CCWS) needs it:
 * L1 look-ups and evictions, warp exits, which ready warps would issue a memory instruction, and that it may hold the
 * pipelines back. A trial found CCWS could not be written without them.
 */
class WarpSchedulerHooksTest {
    static final int CTAS = 12, THREADS = 128, ROUNDS = 8;

    /** Each warp re-reads its own 1 KB, round after round: 24 warps per SM hold 24 KB against a 16 KB L1, so lines are evicted and lost. */
    static Kernel rereads() {
        return TestSupport.kernel("rereads", CTAS, THREADS, (cta, warp) -> new WarpProgram() {
            int i;

            @Override
            public boolean next(WarpInstruction in) {
                if (i == ROUNDS * 64 * 2) return false;
                long base = 0x1000000L + ((long) cta * 4 + warp) * 1024;
                if (i++ % 2 == 0) TestSupport.strided(in, WarpInstruction.Kind.LOAD, base + ((i / 2) % 8) * 128L, 4, 4, false);
                else in.compute(2, true);
                return true;
            }
        });
    }

    /** Oldest-first, counting what it is told; {@code holdEvery} > 0 answers NONE on that share of its calls. */
    static final class Observing implements WarpSchedulerPolicy {
        long hits, notHits, evictions, exits, nones, memoryOutsideReady;
        final Set<Long> evicted = new HashSet<>();
        final int holdEvery;
        final boolean observes;

        Observing(boolean observes, int holdEvery) {
            this.observes = observes;
            this.holdEvery = holdEvery;
        }

        @Override
        public State forSm(int gpu, int sm, int slots) {
            long[] age = new long[slots];
            return new State() {
                long calls, live;

                @Override public void onWarpStart(int slot, long a) {
                    age[slot] = a;
                    live |= 1L << slot;
                }

                @Override public int pick(long ready) { throw new AssertionError("the SM asks pick(ready, memory)"); }

                @Override public int pick(long ready, long memory) {
                    if ((memory & ~ready) != 0) memoryOutsideReady++;
                    if ((ready & ~live) != 0) throw new AssertionError("an exited warp is ready");
                    if (holdEvery > 0 && ++calls % holdEvery == 0) {
                        nones++;
                        return NONE;
                    }
                    int best = -1;
                    for (long m = ready; m != 0; m &= m - 1) {
                        int w = Long.numberOfTrailingZeros(m);
                        if (best < 0 || age[w] < age[best]) best = w;
                    }
                    return best;
                }

                @Override public void onWarpExit(int slot) {
                    exits++;
                    live &= ~(1L << slot);
                }

                @Override public boolean observesL1() { return observes; }

                @Override public void onL1Access(int slot, long line, boolean hit) {
                    if ((live & (1L << slot)) == 0) throw new AssertionError("an access of a warp not live");
                    if (hit) hits++;
                    else notHits++;
                }

                @Override public void onL1Eviction(long line) {
                    evictions++;
                    evicted.add(line);
                }
            };
        }
    }

    private static TestSupport.Rig rig(WarpSchedulerPolicy ws) {
        return new TestSupport.Rig(TestSupport.config(2, 64), TestSupport.policies(ws, (l, r) -> true, new TestSupport.RoundRobinCta()), 100_000);
    }

    @Test
    void aSchedulerThatObservesTheL1IsToldOfEveryLoadLookUpEvictionAndExit() {
        Observing o = new Observing(true, 0);
        TestSupport.Rig r = rig(o);
        r.run(rereads());
        long hits = 0, misses = 0, merges = 0;
        for (Sm sm : r.gpu.sms()) {
            hits += sm.l1().hits(); // read through CoreView.l1() as a policy would (api.machine 1.7.0)
            misses += sm.l1().misses();
            merges += sm.l1().mshrMerges();
        }
        assertEquals(hits, o.hits, "hits told");
        assertEquals(misses + merges, o.notHits, "misses and merges told");
        assertTrue(hits > 1000 && misses > 500, "the kernel both reuses and thrashes: " + hits + " hits, " + misses + " misses");
        assertTrue(o.evictions > 100 && o.evictions <= misses, "evictions told: " + o.evictions);
        assertEquals((long) CTAS * THREADS / 32, o.exits, "every warp's exit");
        assertEquals(0, o.memoryOutsideReady, "the memory set is a subset of the ready set");
    }

    @Test
    void aSchedulerThatDoesNotObserveIsToldNothingAndTheRunIsTheSame() {
        Observing quiet = new Observing(false, 0), loud = new Observing(true, 0);
        long a = rig(quiet).run(rereads()), b = rig(loud).run(rereads());
        assertEquals(0, quiet.hits + quiet.notHits + quiet.evictions);
        assertEquals(a, b, "observing changes no timing");
    }

    @Test
    void aSchedulerMayHoldThePipelinesBackAndTheKernelStillCompletes() {
        long free = rig(new Observing(false, 0)).run(rereads());
        Observing holding = new Observing(false, 2);
        TestSupport.Rig r = rig(holding);
        long held = r.run(rereads());
        assertEquals(1, r.completions);
        assertEquals((long) CTAS * THREADS / 32 * ROUNDS * 64 * 2, r.gpu.sms().stream().mapToLong(Sm::issued).sum(), "every instruction issued");
        assertTrue(holding.nones > 1000, "NONE answered " + holding.nones + " times");
        assertTrue(held > free, "holding back every second pick is slower: " + held + " vs " + free + " ps");
    }

    @Test
    void aPickOutsideTheReadySetSaysWhichSlotsWereReady() {
        WarpSchedulerPolicy wrong = (gpu, sm, slots) -> new WarpSchedulerPolicy.State() {
            @Override public void onWarpStart(int slot, long age) { }

            @Override public int pick(long ready) { return 63 - Long.numberOfLeadingZeros(ready) + 1; } // one above the highest ready
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> rig(wrong).run(rereads()));
        assertTrue(e.getMessage().matches("gpu0\\.sm\\d at [0-9.]+ ns: the warp scheduler \\(.*\\) picked slot \\d+, which is not ready "
                + "\\(ready slots: [0-9, ]+\\); pick must return a slot of its ready bitmask \\(bit i = slot i\\) or WarpSchedulerPolicy.State.NONE"), e.getMessage());
    }
}
