package org.hmsim.platform.memory.dram;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.DramSchedulerPolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.memory.DramEnergy;
import org.hmsim.platform.memory.DramTiming;
import org.hmsim.platform.memory.Fixtures.FineInterleave;
import org.hmsim.platform.memory.PoolConfig;
import org.junit.jupiter.api.Test;

/** The dram-scheduler slot as the channel runs it: ranked path, built-in paths, a live change of policy. */
class DramSchedulerSlotTest {
    private static final int BANKS = 8, ROW = 2048;
    /** Every channel-wide constraint on, so the ranked path meets turnarounds, ACT pacing and refresh. */
    private static final DramTiming FULL = new DramTiming(12, 12, 12, 28, 40, 12, 4, 20, 6, 2, 60, 3000);

    private final RequestPool requests = new RequestPool();

    /** FR-FCFS's own ranks: hits 0, others 1. */
    private static final DramSchedulerPolicy RANKED_FR_FCFS = (pool, channel, banks) -> (r, bank, rowHit) -> rowHit ? 0 : 1;

    private static DramSchedulerPolicy builtIn(int rule) {
        return new DramSchedulerPolicy() {
            @Override public int builtIn() { return rule; }

            @Override public State forChannel(int pool, int channel, int banks) { throw new AssertionError("a built-in rule asks no state"); }
        };
    }

    /** A pool whose machine file fixes no scheduler ({@code fixed} null), so the slot's policy reaches it. */
    private static PoolConfig config(String fixed) {
        return new PoolConfig("g", "GDDR5", 0, 2, 50e9, 1L << 30, BANKS, ROW, 1000, FULL, 32, fixed, new DramEnergy(1000, 10, 12));
    }

    /**
     * HBM's split command buses on a fast data bus (a 128 B line in 320 ps, under the 1 ns command cycle), where a row
     * command and a column command often want the same cycle.
     */
    private static PoolConfig splitFast() {
        return new PoolConfig("g", "HBM2", 0, 2, 800e9, 1L << 30, BANKS, ROW, 1000, FULL, 32, null, new DramEnergy(1000, 10, 12),
                0, false, 0, 0, true);
    }

    /** One run's completions: tag and time, in completion order. */
    private final class Run implements MemClient {
        final EventQueue engine = new EventQueue();
        final List<long[]> done = new ArrayList<>();
        final DramPool pool;

        Run(PoolConfig cfg, DramSchedulerPolicy p) { pool = new DramPool(cfg, 0, engine, new FineInterleave(256), p, requests, null); }

        @Override public void onResponse(MemRequest r) {
            done.add(new long[] {r.tag, engine.now()});
            requests.give(r);
        }

        /**
         * Seeded traffic from a CPU and a GPU: bursts of reads and writes over a few rows of each bank (hits, misses and
         * conflicts mixed), sent at random times; a refused request is sent again 1 ns later.
         */
        void traffic(long seed, int n) {
            SplittableRandom rnd = new SplittableRandom(seed);
            long t = 0;
            for (int i = 0; i < n; i++) {
                t += rnd.nextInt(4) == 0 ? rnd.nextLong(20_000) : rnd.nextLong(500);
                long row = rnd.nextInt(3), bank = rnd.nextInt(BANKS), column = rnd.nextInt(ROW / 128) * 128L;
                long channelAddress = (row * BANKS + bank) * ROW + column;
                long paddr = (channelAddress / 256) * 512 + rnd.nextInt(2) * 256 + channelAddress % 256; // FineInterleave(256), 2 channels
                AccessKind kind = rnd.nextInt(3) == 0 ? AccessKind.WRITE : AccessKind.READ;
                int gpu = rnd.nextInt(4) == 0 ? -1 : 0;
                send(t, i, paddr, kind, gpu);
            }
        }

        void send(long at, long tag, long paddr, AccessKind kind, int gpu) {
            engine.schedule(at, (k, p) -> {
                MemRequest r = requests.take();
                r.paddr = paddr;
                r.size = 128;
                r.kind = kind;
                r.gpu = gpu;
                r.tag = tag;
                r.replyTo = this;
                if (!pool.sink().tryAccept(r, null)) {
                    requests.give(r);
                    send(engine.now() + 1000, tag, paddr, kind, gpu);
                }
            }, 0, 0);
        }
    }

    /** The ranked path with FR-FCFS's ranks is FR-FCFS event for event: it may serve in any rule a policy ranks. */
    @Test
    void rankedPathWithFrFcfsRanksIsTheBuiltInFrFcfs() {
        for (long seed = 1; seed <= 10; seed++) {
            PoolConfig cfg = seed <= 5 ? config(null) : splitFast(); // a shared command bus, then split ones
            Run builtIn = new Run(cfg, builtIn(DramSchedulerPolicy.BUILT_IN_FR_FCFS));
            Run ranked = new Run(cfg, RANKED_FR_FCFS);
            builtIn.traffic(seed, 3000);
            ranked.traffic(seed, 3000);
            builtIn.engine.run();
            ranked.engine.run();
            assertEquals(3000, builtIn.done.size());
            assertEquals(times(builtIn.done), times(ranked.done), "seed " + seed);
            assertEquals(builtIn.pool.rowHits(), ranked.pool.rowHits());
            assertEquals(builtIn.pool.activates(), ranked.pool.activates());
        }
    }

    private static List<String> times(List<long[]> done) {
        List<String> out = new ArrayList<>();
        for (long[] d : done) out.add(d[0] + "@" + d[1]);
        return out;
    }

    /**
     * Ranks may close a row queued requests still hit: a CPU request ranked first goes before the GPU's younger row hit,
     * where FR-FCFS serves the hit first.
     */
    @Test
    void aRankedMissMayCloseARowThatQueuedRequestsStillHit() {
        DramSchedulerPolicy cpuFirst = (pool, channel, banks) -> (r, bank, rowHit) -> (r.gpu < 0 ? 0 : 2) + (rowHit ? 0 : 1);
        assertEquals(List.of(2L, 1L), order(RANKED_FR_FCFS), "FR-FCFS: the GPU's row hit (2) overtakes the CPU's conflict (1)");
        assertEquals(List.of(1L, 2L), order(cpuFirst), "the CPU's conflict goes first");
        assertEquals(List.of(1L, 2L), order(builtIn(DramSchedulerPolicy.BUILT_IN_FCFS)), "FCFS through the slot");
    }

    private List<Long> order(DramSchedulerPolicy p) {
        Run run = new Run(config(null), p);
        run.send(0, 0, 0, AccessKind.READ, 0); // opens row 0 of bank 0 (channel 0)
        long conflict = (long) ROW * BANKS / 256 * 512; // channel 0, bank 0, row 1
        run.send(1_000_000, 1, conflict, AccessKind.READ, -1);
        run.send(1_000_000, 2, 512, AccessKind.READ, 0); // channel 0, bank 0, row 0: a hit, arriving at the same time (younger)
        run.engine.run();
        List<Long> order = new ArrayList<>();
        for (long[] d : run.done.subList(1, run.done.size())) order.add(d[0]);
        return order;
    }

    /** A state made at a swap hears of the queue it inherits: every request it is told of arrives once and is served once. */
    @Test
    void aStateMadeAtASwapIsToldOfTheQueuedRequests() {
        Run run = new Run(config(null), builtIn(DramSchedulerPolicy.BUILT_IN_FR_FCFS));
        run.traffic(11, 2000);
        java.util.Set<MemRequest> told = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        long[] served = {0, 0}; // served, served without having been told
        DramSchedulerPolicy counting = (pool, channel, banks) -> new DramSchedulerPolicy.State() {
            @Override public long rank(MemRequest r, int bank, boolean rowHit) { return rowHit ? 0 : 1; }

            @Override public void onArrival(MemRequest r, int bank) { assertTrue(told.add(r), "told twice"); }

            @Override public void onColumn(MemRequest r, int bank) {
                served[0]++;
                if (!told.remove(r)) served[1]++;
            }
        };
        int[] queuedAtSwap = {0};
        run.engine.schedule(300_000, (k, p) -> {
            queuedAtSwap[0] = run.pool.inFlight();
            assertTrue(run.pool.setScheduler(counting));
            assertTrue(told.size() > 0 && told.size() <= queuedAtSwap[0], "told of the queue: " + told.size());
        }, 0, 0);
        run.engine.run();
        assertTrue(queuedAtSwap[0] > 10, "the case: a queue at the swap, " + queuedAtSwap[0]);
        assertEquals(2000, run.done.size());
        assertEquals(0, served[1], "a request served that the state was never told of");
        assertTrue(told.isEmpty(), told.size() + " requests told of and never served");
    }

    /** A live change of policy keeps every queued request (none lost, none served twice); a pool that fixes its own keeps it. */
    @Test
    void aLiveChangeKeepsTheQueueAndAFixedPoolKeepsItsScheduler() {
        Run run = new Run(config(null), builtIn(DramSchedulerPolicy.BUILT_IN_FR_FCFS));
        run.traffic(7, 2000);
        DramSchedulerPolicy oldestFirst = (pool, channel, banks) -> (r, bank, rowHit) -> 0;
        DramSchedulerPolicy[] turns = {oldestFirst, builtIn(DramSchedulerPolicy.BUILT_IN_FCFS), RANKED_FR_FCFS, builtIn(DramSchedulerPolicy.BUILT_IN_FR_FCFS)};
        for (int k = 0; k < 40; k++) {
            DramSchedulerPolicy next = turns[k % turns.length];
            run.engine.schedule(25_000L * (k + 1), (kind, p) -> assertTrue(run.pool.setScheduler(next)), 0, 0);
        }
        run.engine.run();
        assertEquals(2000, run.done.size());
        assertEquals(2000, run.done.stream().mapToLong(d -> d[0]).distinct().count());
        assertEquals(0, run.pool.inFlight());

        Run fixed = new Run(config("fcfs"), RANKED_FR_FCFS);
        assertTrue(fixed.pool.schedulerFixed());
        assertFalse(fixed.pool.setScheduler(RANKED_FR_FCFS), "the machine file's fcfs stays");
    }
}
