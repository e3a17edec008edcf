package org.hmsim.platform.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** MOESI within the CPU cluster: states after loads, stores and directory probes; LLC inclusion. */
class MoesiClusterTest {
    private final List<Long> writebacks = new ArrayList<>(), dropped = new ArrayList<>();
    private final CpuCluster c = new CpuCluster(Rig.small(Rig.dir(1024, 4, 2, 8)), 64, new CpuCluster.Evictions() {
        @Override public void writeback(long line) { writebacks.add(line); }
        @Override public void dropped(long line) { dropped.add(line); }
    });

    @Test
    void loadsStoresAndProbesWalkTheMoesiStates() {
        long a = 0x1000;
        assertEquals(CpuCluster.MISS, c.access(0, a, false));
        c.complete(0, a, false, true);
        assertEquals(Moesi.E, c.privateState(0, a), "sole reader gets E");
        assertEquals(CpuCluster.HIT, c.access(1, a, false));
        assertEquals(Moesi.S, c.privateState(0, a), "a second reader downgrades E to S");
        assertEquals(Moesi.S, c.privateState(1, a));
        assertEquals(CpuCluster.HIT, c.access(0, a, true), "the cluster holds the line exclusively: no directory needed");
        assertEquals(Moesi.M, c.privateState(0, a));
        assertEquals(Moesi.I, c.privateState(1, a), "a store invalidates the other core");
        assertEquals(CpuCluster.HIT, c.access(1, a, false));
        assertEquals(Moesi.O, c.privateState(0, a), "a remote read turns M into O (owner keeps the dirty data)");
        assertEquals(Moesi.S, c.privateState(1, a));
        assertEquals(Moesi.M, c.state(a), "the LLC knows the cluster's copy is dirty");
        assertEquals(Moesi.M, c.probe(a, false), "a directory downgrade reports dirty data");
        assertEquals(Moesi.O, c.state(a));
        assertEquals(CpuCluster.UPGRADE, c.access(1, a, true), "O/S cluster state: a store needs the directory");
        c.complete(1, a, true, true);
        assertEquals(Moesi.M, c.privateState(1, a));
        assertEquals(Moesi.I, c.privateState(0, a));
        assertEquals(Moesi.M, c.probe(a, true));
        assertEquals(Moesi.I, c.state(a));
        assertEquals(Moesi.I, c.privateState(1, a), "invalidation reaches the private caches");
    }

    @Test
    void sharedFillIsSAndSilentUpgradeFromE() {
        long a = 0x2000;
        c.access(0, a, false);
        c.complete(0, a, false, false);
        assertEquals(Moesi.S, c.privateState(0, a), "the GPU also holds it: S");
        assertEquals(CpuCluster.UPGRADE, c.access(0, a, true));
        long b = 0x3000;
        c.access(0, b, false);
        c.complete(0, b, false, true);
        assertEquals(CpuCluster.HIT, c.access(0, b, true), "E -> M silently");
        assertEquals(Moesi.M, c.state(b));
    }

    @Test
    void inclusiveLlcEvictionBackInvalidatesAndWritesBackDirtyLines() {
        // LLC: 64 KB, 8 ways, 64 B lines = 128 sets; lines 8 KB apart share a set
        long stride = 128 * 64;
        for (int i = 0; i < 9; i++) {
            long line = i * stride;
            c.access(0, line, true);
            c.complete(0, line, true, true);
        }
        assertEquals(List.of(0L), writebacks, "the LRU dirty victim is written back");
        assertEquals(List.of(0L), dropped);
        assertEquals(Moesi.I, c.privateState(0, 0), "inclusion: the private copy went with it");
        assertEquals(Moesi.M, c.privateState(0, 8 * stride));
    }

    @Test
    void flushAllWritesBackEveryDirtyLine() {
        for (int i = 0; i < 10; i++) {
            c.access(i % 2, i * 64L, i % 3 == 0);
            c.complete(i % 2, i * 64L, i % 3 == 0, true);
        }
        assertEquals(4, c.flushAll(), "lines 0, 3, 6, 9 were written");
        assertEquals(10, dropped.size());
        assertEquals(Moesi.I, c.state(0));
    }
}
