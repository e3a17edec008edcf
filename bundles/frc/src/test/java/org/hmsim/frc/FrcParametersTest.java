package org.hmsim.frc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.machine.MachineConfig;
import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * The {@code frc} policy's parameters reach the L2 and act as the thesis describes them: each is checked by its
 * direction and rough size on the read-modify-write stream of {@link FrcChecksTest} (64 KB banks, dirty victims,
 * no reuse), where FRC entries are what bounds the misses in flight. A mutation review found that
 * {@code swap_cycles} could be dropped without any other test noticing.
 */
class FrcParametersTest {
    private static final MachineConfig SMALL = FrcChecksTest.SMALL;

    private static RunResult frc(int entries, Object... more) {
        Object[] p = new Object[2 + more.length];
        p[0] = "entries";
        p[1] = entries;
        System.arraycopy(more, 0, p, 2, more.length);
        return new Sim().with(Slot.L2_MISS_PATH, "frc", p).run(SMALL, FrcChecksTest.stream());
    }

    private static double stat(RunResult r, String name) { return FrcChecksTest.stat(r, name); }

    /**
     * Each fallback is one miss the conventional path took: with the misses the FRC took they are at most the slices'
     * misses (a trial found 72,564 fallbacks for 24,576 misses: every NACKed re-send had counted again).
     */
    private static void assertFallbacksAreMisses(RunResult r, String what) {
        double fallbacks = stat(r, "frc_fallbacks"), viaFrc = stat(r, "frc_misses") + stat(r, "frc_store_allocs");
        double misses = stat(r, "misses") + stat(r, "write_misses") + stat(r, "vc_hits");
        assertTrue(fallbacks + viaFrc <= misses, what + ": " + fallbacks + " fallbacks + " + viaFrc + " FRC misses > " + misses + " misses");
    }

    /** The mean over the two slices of a per-slice mean (each slice serves half the lines). */
    private static double meanNs(RunResult r, String gauge) { return stat(r, gauge) / 2 / 1000; }

    /**
     * {@code swap_cycles} (thesis: 3) is the time an FRC entry and its L2 victim take to swap after the block has
     * arrived. The requesters are answered from the entry at arrival (§M7 step 4), so the swap is not on their path:
     * what it costs is entry occupancy. Each entry is held for fetch + swap + the victim's eviction, so a longer swap
     * leaves fewer entries free, more misses find their FRC set full and take the conventional evict-then-fetch path,
     * and OPC falls. With 64 entries per bank the entries bind on this stream (most misses already fall back at 3
     * cycles), and 300 cycles (250 ns at 1.2 GHz, about as long as a fetch) roughly doubles an entry's occupancy.
     * Measured: OPC -13 %, FRC misses 2259 -> 1076, fallbacks 8171 -> 10110 (each miss once), fetch part 238 -> 228 ns, mean miss
     * latency 304 -> 299 ns.
     */
    @Test
    void aLongerSwapHoldsFrcEntriesLongerAndCostsOpcButNotLatency() {
        int entries = 64;
        RunResult[] r = Sim.parallel(() -> frc(entries, "swap_cycles", 3), () -> frc(entries, "swap_cycles", 300));
        FrcChecksTest.print("frc swap", new String[] {"swap 3", "swap 300"}, r);
        RunResult fast = r[0], slow = r[1];
        assertFallbacksAreMisses(fast, "swap 3");
        assertFallbacksAreMisses(slow, "swap 300");
        double swapNs = 300 * 1000.0 / SMALL.gpu().clockMHz();
        // the direction and rough size: a swap as long as a fetch costs clearly more than noise
        assertTrue(FrcChecksTest.opc(slow) < 0.95 * FrcChecksTest.opc(fast),
                "a 300-cycle swap did not cost OPC: " + FrcChecksTest.opc(slow) + " vs " + FrcChecksTest.opc(fast));
        // where: entries are held longer, so fewer misses get one and more fall back to the conventional path
        assertTrue(stat(slow, "frc_misses") < 0.75 * stat(fast, "frc_misses"),
                "the FRC took as many misses with a 300-cycle swap: " + stat(slow, "frc_misses") + " vs " + stat(fast, "frc_misses"));
        assertTrue(stat(slow, "frc_fallbacks") > stat(fast, "frc_fallbacks"),
                "no more misses fell back with a 300-cycle swap: " + stat(slow, "frc_fallbacks") + " vs " + stat(fast, "frc_fallbacks"));
        // every swap holds its entry for the swap time at least: the entries' time bounds the swaps (Little's law)
        double entryNs = entries * 2 * slow.simTimeNs();
        assertTrue(stat(slow, "frc_swaps") * swapNs <= entryNs, "more swap time than the entries had: " + stat(slow, "frc_swaps") * swapNs + " vs " + entryNs);
        // and where not: the requesters were answered before the swap, so neither the fetch part nor the mean miss
        // latency grows by anything near the swap's 250 ns
        double fetchNs = stat(slow, "fetch_latency_ps") / 1000 / stat(slow, "fetches"), fetchNs0 = stat(fast, "fetch_latency_ps") / 1000 / stat(fast, "fetches");
        assertTrue(fetchNs < fetchNs0 + 0.25 * swapNs, "the swap appeared in the fetch part: " + fetchNs + " vs " + fetchNs0 + " ns");
        assertTrue(meanNs(slow, "avg_miss_latency_ps") < meanNs(fast, "avg_miss_latency_ps") + 0.25 * swapNs,
                "the swap appeared in the requesters' miss latency: " + meanNs(slow, "avg_miss_latency_ps") + " vs " + meanNs(fast, "avg_miss_latency_ps") + " ns");
    }

    /**
     * {@code ways} (thesis: 8): an FRC set-associative like a cache falls back to the conventional path when the miss's
     * set is full even if other sets have free entries; a fully associative FRC of the same size ({@code ways: 0}) only
     * when every entry is busy. With 512 entries per bank on this stream the entries as a whole are rarely all busy, but
     * the line index (line / banks mod sets, Multi2Sim's) leaves half the 64 sets of 8 to each bank's lines, so 8-way
     * sets fill; one-way sets fill more still. Measured fallbacks 0 / 2075 / 6229 (each miss once) and OPC 15.15 / 14.41 / 12.86 for
     * fully associative / 8-way / direct-mapped. A mutation review found every FRC fully associative (ways not passed)
     * passing the other checks, which bound gains from below only.
     */
    @Test
    void fewerWaysMeanMoreFallbacksAndNoMoreOpc() {
        int entries = 512;
        RunResult[] r = Sim.parallel(() -> frc(entries, "ways", 0), () -> frc(entries, "ways", 8), () -> frc(entries, "ways", 1));
        FrcChecksTest.print("frc ways", new String[] {"fully assoc", "8-way", "direct"}, r);
        double fa = stat(r[0], "frc_fallbacks"), eight = stat(r[1], "frc_fallbacks"), direct = stat(r[2], "frc_fallbacks");
        String fb = "fallbacks FA / 8-way / direct-mapped " + fa + " / " + eight + " / " + direct;
        for (RunResult x : r) assertFallbacksAreMisses(x, fb);
        // set conflicts exist at 8 ways (else the check is vacuous), a fully associative FRC has far fewer, one way far more
        assertTrue(eight > 100, "an 8-way FRC hardly fell back: " + fb);
        assertTrue(fa < 0.25 * eight, "a fully associative FRC fell back as an 8-way one: " + fb);
        assertTrue(direct > 2 * eight, "a direct-mapped FRC did not fall back more than an 8-way one: " + fb);
        // the fallbacks cost: the same entries with fewer ways take no more misses and give no more OPC (1 % for timing noise)
        assertTrue(stat(r[0], "frc_misses") > stat(r[1], "frc_misses") && stat(r[1], "frc_misses") > stat(r[2], "frc_misses"),
                "FRC misses do not fall with the ways");
        double opcFa = FrcChecksTest.opc(r[0]), opc8 = FrcChecksTest.opc(r[1]), opcDm = FrcChecksTest.opc(r[2]);
        assertTrue(opcFa >= 0.99 * opc8 && opc8 > 1.05 * opcDm, "OPC does not fall with the ways: " + opcFa + " / " + opc8 + " / " + opcDm);
    }
}
