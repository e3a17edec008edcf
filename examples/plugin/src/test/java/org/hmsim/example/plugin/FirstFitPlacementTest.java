package org.hmsim.example.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.Params;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.junit.jupiter.api.Test;

class FirstFitPlacementTest {
    private static final double GB = 1e9;

    @Test
    void fillsTheFastestPoolUpToTheFractionThenTheNext() {
        // Pool 0 is the slow one: the order must come from bandwidth, not from the index.
        Memory mem = new Memory(1000, 100);
        List<PoolInfo> pools = List.of(pool(0, "ddr", 80 * GB), pool(1, "gddr", 200 * GB));
        Counters stats = new Counters();
        FirstFitPlacement p = new FirstFitPlacement(pools, mem, 0.5, stats);

        touch(p, mem, 80);

        assertEquals(50, mem.mapped[1], "the fast pool takes half its 100 frames");
        assertEquals(30, mem.mapped[0], "the rest goes to the slow pool");
        assertEquals(50, stats.read("pages.gddr"));
        assertEquals(30, stats.read("pages.ddr"));
    }

    @Test
    void theMiddlePoolFillsBeforeTheSlowestAndTheSlowestTakesTheOverflow() {
        Memory mem = new Memory(10, 20, 10);
        List<PoolInfo> pools = List.of(pool(0, "hbm", 400 * GB), pool(1, "gddr", 200 * GB), pool(2, "ddr", 80 * GB));
        FirstFitPlacement p = new FirstFitPlacement(pools, mem, 1.0, new Counters());

        touch(p, mem, 45);

        assertEquals(10, mem.mapped[0]);
        assertEquals(20, mem.mapped[1]);
        // The last pool is never refused: beyond its capacity the memory manager spills, not the policy.
        assertEquals(15, mem.mapped[2]);
    }

    @Test
    void aZeroFractionSendsEverythingToTheSlowestPool() {
        Memory mem = new Memory(100, 100);
        FirstFitPlacement p = new FirstFitPlacement(List.of(pool(0, "gddr", 200 * GB), pool(1, "ddr", 80 * GB)),
                mem, 0.0, new Counters());

        touch(p, mem, 10);

        assertEquals(0, mem.mapped[0]);
        assertEquals(10, mem.mapped[1]);
    }

    @Test
    void theProviderDeclaresAndChecksItsParameter() {
        FirstFitProvider provider = new FirstFitProvider();
        assertEquals("first-fit", provider.name());
        assertEquals(0.9, Params.validate(provider.parameters(), Map.of()).getDouble("fast_fraction"));
        assertEquals(0.25, Params.validate(provider.parameters(), Map.of("fast_fraction", "25%")).getDouble("fast_fraction"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Params.validate(provider.parameters(), Map.of("fast_fraction", 1.5)));
        assertTrue(e.getMessage().contains("fast_fraction"), e.getMessage());
    }

    private static void touch(FirstFitPlacement p, Memory mem, int pages) {
        for (long vpn = 0; vpn < pages; vpn++) mem.mapped[p.choosePool(vpn, null, 0)]++;
    }

    private static PoolInfo pool(int index, String name, double bandwidth) {
        return new PoolInfo(index, name, name.toUpperCase(), 0, 4, bandwidth, 1L << 30);
    }

    /** Frames per pool and the pages mapped so far: all that first-fit reads. */
    private static final class Memory implements MemoryManager {
        final long[] total;
        final long[] mapped;

        Memory(long... total) {
            this.total = total;
            this.mapped = new long[total.length];
        }

        @Override public long pageBytes() { return 4096; }
        @Override public List<Allocation> allocations() { return List.of(); }
        @Override public Allocation allocationOf(long va) { return null; }
        @Override public int poolOf(long vpn) { return -1; }
        @Override public long freeFrames(int pool) { return total[pool] - mapped[pool]; }
        @Override public long totalFrames(int pool) { return total[pool]; }
        @Override public long mappedPages(int pool) { return mapped[pool]; }
        @Override public boolean migrate(long vpn, int toPool, Runnable done) { return false; }
        @Override public boolean translatedByGpu(long vpn) { return false; }
    }

    private static final class Counters implements Stats {
        final Map<String, LongSupplier> counters = new TreeMap<>();

        long read(String name) { return counters.get(name).getAsLong(); }

        @Override public void counter(String name, String doc, LongSupplier reader) { counters.put(name, reader); }
        @Override public void gauge(String name, String doc, DoubleSupplier reader) {}
        @Override public Histogram histogram(String name, String doc, long maxValue) { throw new UnsupportedOperationException(); }
        @Override public Stats scope(String prefix) { return this; }
        @Override public void sampleEachEpoch(String name) {}
    }
}
