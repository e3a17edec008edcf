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
import org.hmsim.platform.memory.Fixtures.Streamer;
import org.hmsim.platform.memory.PoolConfig;
import org.hmsim.platform.stats.StatsRegistry;
import org.junit.jupiter.api.Test;

/** The channel-wide constraints of DRAMSim2 (tRRD, tFAW, bus turnaround, refresh): each off at 0, each costs time when set. */
class DramChannelConstraintsTest {
    private static final double MHZ = 1500;
    private static final long TCK = Math.round(1_000_000.0 / MHZ);
    private static final int BANKS = 16, ROW = 2048;

    private final EventQueue engine = new EventQueue();
    private final RequestPool requests = new RequestPool();
    private final StatsRegistry stats = new StatsRegistry();
    private long lastDone;

    private static DramTiming timing(int rrd, int faw, int wtr, int rtrs, int rfc, int refi) {
        return new DramTiming(12, 12, 12, 28, 40, 12, rrd, faw, wtr, rtrs, rfc, refi);
    }

    private DramPool pool(DramTiming t, String scheduler) {
        PoolConfig cfg = new PoolConfig("g", "GDDR5", 0, 1, 100e9, 1L << 30, BANKS, ROW, MHZ, t, 64, scheduler,
                new DramEnergy(1000, 10, 12));
        DramPool p = new DramPool(cfg, 0, engine, new FineInterleave(256), requests);
        p.registerStats(stats);
        return p;
    }

    /** Queues {@code n} 128 B requests at time 0, request i at {@code addr(i)}, writes where {@code write(i)}; returns the last completion, ps. */
    private long burst(DramPool p, int n, java.util.function.IntToLongFunction addr, java.util.function.IntPredicate write) {
        MemClient c = new MemClient() {
            @Override
            public void onResponse(MemRequest r) { lastDone = engine.now(); }
        };
        for (int i = 0; i < n; i++) {
            MemRequest r = requests.take();
            r.kind = write.test(i) ? AccessKind.WRITE : AccessKind.READ;
            r.paddr = addr.applyAsLong(i);
            r.size = 128;
            r.replyTo = c;
            assertTrue(p.sink().tryAccept(r, c));
        }
        engine.run();
        return lastDone;
    }

    /** 64 reads, each opening a row of its own, in banks taken in turn: every one needs an ACT. */
    private long rowMisses(DramTiming t) {
        return burst(pool(t, "fr-fcfs"), 64, i -> (long) i * ROW, i -> false);
    }

    @Test
    void activatesArePacedByTrrdAcrossBanks() {
        long free = rowMisses(timing(0, 0, 0, 0, 0, 0));
        long paced = new DramChannelConstraintsTest().rowMisses(timing(20, 0, 0, 0, 0, 0));
        // 64 ACTs at least 20 cycles apart: the last one no earlier than 63 x 20 cycles, then tRCD + tCL + the burst
        long floor = 63 * 20 * TCK + 24 * TCK;
        assertTrue(paced >= floor, "paced " + paced + " < " + floor);
        assertTrue(paced < floor + 40 * TCK, "paced " + paced + " far above the tRRD floor " + floor);
        assertTrue(free < paced / 2, "bank parallelism alone: " + free + " vs " + paced);
    }

    @Test
    void noMoreThanFourActivatesInATfawWindow() {
        long paced = rowMisses(timing(0, 60, 0, 0, 0, 0));
        // 64 ACTs, four per 60-cycle window: the last in the 16th window
        long floor = 15 * 60 * TCK + 24 * TCK;
        assertTrue(paced >= floor, "paced " + paced + " < " + floor);
        assertTrue(paced < floor + 60 * TCK, "paced " + paced + " far above the tFAW floor " + floor);
    }

    /** 32 requests over 16 banks (two rows each): even banks read, odd banks write, arriving alternately. */
    private long mixed(String scheduler, DramTiming t) {
        return burst(pool(t, scheduler), 32, i -> (long) i * ROW, i -> i % 2 == 1);
    }

    @Test
    void busTurnaroundsCostTimeAndFrFcfsBatchesDirections() {
        DramTiming turn = timing(0, 0, 8, 2, 0, 0);
        long fcfsFree = mixed("fcfs", timing(0, 0, 0, 0, 0, 0));
        DramChannelConstraintsTest t2 = new DramChannelConstraintsTest();
        long fcfsTurn = t2.mixed("fcfs", turn);
        double fcfsTurns = t2.stats.value("pool.g.ch0.turnarounds");
        DramChannelConstraintsTest t3 = new DramChannelConstraintsTest();
        t3.mixed("fr-fcfs", turn);
        double frTurns = t3.stats.value("pool.g.ch0.turnarounds");
        assertTrue(fcfsTurns >= 24, "FCFS follows the arrivals' alternation: " + fcfsTurns);
        assertTrue(frTurns <= fcfsTurns / 3, "FR-FCFS takes ready hits of the bus's direction first: " + frTurns + " vs FCFS " + fcfsTurns);
        // each read after a write waits tWTR after the write's data, then tCL for its own
        assertTrue(fcfsTurn - fcfsFree >= (long) (fcfsTurns / 2) * 8 * TCK, "turnarounds cost " + (fcfsTurn - fcfsFree) + " ps");
        assertFalse(stats.has("pool.g.ch0.turnarounds"), "not counted where not modelled");
    }

    @Test
    void refreshTakesItsShareOfAStream() {
        long plain = stream(timing(0, 0, 0, 0, 0, 0));
        DramChannelConstraintsTest t2 = new DramChannelConstraintsTest();
        long refreshed = t2.stream(timing(0, 0, 0, 0, 200, 2000));
        double refreshes = t2.stats.value("pool.g.ch0.refreshes");
        double slowdown = (double) refreshed / plain;
        // tRFC / tREFI = 10 % of the time, plus reopening the stream's row after each refresh
        assertTrue(slowdown > 1.08 && slowdown < 1.25, "refresh slowdown " + slowdown);
        double expected = refreshed / (2000.0 * TCK);
        assertTrue(Math.abs(refreshes - expected) <= 1.5, refreshes + " refreshes in " + refreshed + " ps, expected ~" + expected);
    }

    /**
     * A refresh period just long enough for an ACT and its use (MachineConfig's bound: rfc + ras + rp + rcd + cl + wr < refi)
     * still serves every request, even when each needs its own row in one bank. Just below it, each refresh closed
     * the row opened after the last before its column command could go, and the channel never served (a review).
     */
    @Test
    @org.junit.jupiter.api.Timeout(20)
    void aRefreshPeriodJustLongEnoughForOneActStillServesEveryRequest() {
        int rfc = 60, bound = rfc + 28 + 12 + 12 + 12 + 12;
        long end = burst(pool(timing(0, 0, 0, 0, rfc, bound + 1), "fr-fcfs"), 64, i -> (long) i * ROW * BANKS, i -> i % 3 == 0);
        assertTrue(end > 0 && engine.isEmpty(), "the channel stopped serving");
        assertEquals(64, stats.value("pool.g.ch0.reads") + stats.value("pool.g.ch0.writes"));
        // refreshes come every period, busy or idle
        assertEquals(end < 1 ? 0 : (end - (bound + 1) * TCK) / ((bound + 1) * TCK) + 1, (long) stats.value("pool.g.ch0.refreshes"));
    }

    /**
     * {@code refreshes} counts the refreshes due by the run's end (or the channel's last data, if later), not by the
     * engine's clock when stats.json is written, which has run on to the next epoch boundary: a statistics review found
     * 8 refreshes in a 60.2 us run with tREFI 7.8 us (7 due; 8 by the 70 us epoch end).
     */
    @Test
    void refreshesCountToTheRunsEndNotToTheEnginesClock() {
        int refi = 2000;
        long end = burst(pool(timing(0, 0, 0, 0, 200, refi), "fr-fcfs"), 64, i -> (long) i * ROW * BANKS, i -> false);
        long period = refi * TCK, dueByEnd = end < period ? 0 : (end - period) / period + 1;
        // the epoch clock runs on past the run's end (here by ten periods), then the run's end is recorded
        engine.schedule(end + 10 * period, (k, x) -> {}, 0, 0);
        engine.run();
        stats.endAt(end);
        assertEquals(dueByEnd, (long) stats.value("pool.g.ch0.refreshes"), "due by the end at " + end + " ps");
    }

    @Test
    void aRefreshPeriodWithNoRoomForAnActIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool(timing(0, 0, 0, 0, 60, 136), "fr-fcfs"));
        assertTrue(e.getMessage().contains("refresh period tREFI 136 leaves no time to open a row and use it"), e.getMessage());
    }

    private long stream(DramTiming t) {
        Streamer s = new Streamer(pool(t, "fr-fcfs").sink(), requests, engine, 0, 128, 64, 20_000, AccessKind.READ);
        s.pump();
        engine.run();
        assertEquals(20_000, s.done);
        return s.lastDonePs;
    }
}
