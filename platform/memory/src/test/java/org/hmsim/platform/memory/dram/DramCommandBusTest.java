package org.hmsim.platform.memory.dram;

import static org.junit.jupiter.api.Assertions.*;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.memory.DramEnergy;
import org.hmsim.platform.memory.DramTiming;
import org.hmsim.platform.memory.Fixtures.FineInterleave;
import org.hmsim.platform.memory.PoolConfig;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

/**
 * One shared command bus (DDR, GDDR) against HBM's split row and column command buses, on a channel whose data bus moves
 * a 128 B line in 320 ps, under its 1 ns command cycle: there a column command is ready every cycle, and on a shared bus
 * FR-FCFS's ready row hits take every slot while ACTs and PREs wait for a gap.
 */
class DramCommandBusTest {
    private static final long TCK = 1000;
    private static final int BANKS = 16, ROW = 2048, ROWS = 4, N = 256;

    private final EventQueue engine = new EventQueue();
    private final RequestPool requests = new RequestPool();
    private final StatsRegistry stats = new StatsRegistry();
    private long lastDone;

    private static PoolConfig config(double bytesPerSecond, boolean split, String scheduler) {
        return new PoolConfig("g", "HBM2", 0, 1, bytesPerSecond, 1L << 30, BANKS, ROW, 1000, new DramTiming(12, 12, 12, 28, 40, 12),
                N, scheduler, new DramEnergy(1000, 10, 12), 0, false, 0, 0, split);
    }

    private long run(boolean split, String scheduler) { return run(config(400e9, split, scheduler)); }

    /** 256 reads at time 0, request i to bank i % 16 and row (i / 16) % 4: each bank opens four rows in turn, four hits each. */
    private long run(PoolConfig cfg) {
        DramPool p = new DramPool(cfg, 0, engine, new FineInterleave(1L << 40), requests);
        p.registerStats(stats);
        MemClient c = new MemClient() {
            @Override public void onResponse(MemRequest r) { lastDone = engine.now(); }
        };
        for (int i = 0; i < N; i++) {
            MemRequest r = requests.take();
            r.kind = AccessKind.READ;
            r.paddr = ((long) ((i / BANKS) % ROWS) * BANKS + i % BANKS) * ROW + (i / (BANKS * ROWS)) * 128L;
            r.size = 128;
            r.replyTo = c;
            assertTrue(p.sink().tryAccept(r, c));
        }
        engine.run();
        return lastDone;
    }

    private double commands() {
        return stats.value("pool.g.ch0.reads") + stats.value("pool.g.ch0.activates") + stats.value("pool.g.ch0.row_conflicts");
    }

    @Test
    void aSharedBusIssuesOneCommandPerCycleSplitBusesOverlapRowCommandsWithTheStream() {
        long shared = run(false, "fr-fcfs");
        double sharedCommands = commands();
        DramCommandBusTest other = new DramCommandBusTest();
        long split = other.run(true, "fr-fcfs");
        // every request reads; each bank opens four rows (ACT each, PRE for three): the same commands on both
        assertEquals(N + BANKS * ROWS + BANKS * (ROWS - 1), sharedCommands);
        assertEquals(sharedCommands, other.commands());
        assertTrue(shared >= sharedCommands * TCK, "a shared bus: one command per cycle, " + shared + " ps for " + sharedCommands);
        // the column bus alone bounds the split run; its row commands hide under the stream
        assertTrue(split >= N * TCK, "one column command per cycle still: " + split);
        assertTrue(split < N * TCK + 60 * TCK, "split buses: " + split + " ps, column-bound at " + N * TCK);
        assertTrue(split < 0.85 * shared, "split " + split + " vs shared " + shared);
    }

    @Test
    void fcfsTooIssuesARowCommandBesideAColumnCommandOnSplitBuses() {
        long shared = run(false, "fcfs");
        long split = new DramCommandBusTest().run(true, "fcfs");
        assertTrue(split < shared, "split " + split + " vs shared " + shared);
    }

    /** Where a line takes longer on the data bus than a command cycle, columns leave cycles free: the buses hardly differ. */
    @Test
    void aSlowDataBusLeavesRowCommandsTheirSlotsEitherWay() {
        long shared = run(config(25e9, false, "fr-fcfs")), split = new DramCommandBusTest().run(config(25e9, true, "fr-fcfs"));
        assertTrue(split <= shared, split + " vs " + shared);
        assertTrue(split > 0.97 * shared, "split " + split + " vs shared " + shared);
    }

}
