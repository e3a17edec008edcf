package org.hmsim.platform.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class StatDocsTest {
    @Test
    void unitsOfOneKindThatSayTheSameShareARow() {
        Map<String, String> docs = new TreeMap<>(Map.of(
                "gpu0.sm0.l1.hits", "L1 hits", "gpu0.sm1.l1.hits", "L1 hits", "gpu0.sm12.l1.hits", "L1 hits",
                "gpu0.l2.slice0.hits", "L2 hits", "gpu0.l2.slice1.hits", "L2 hits",
                "pool.hbm0.bytes", "bytes of hbm0", "pool.hbm1.bytes", "bytes of hbm1",
                "uvm.faults", "far faults", "gpu0.mmu.walk_ps", "walk latency"));
        assertEquals(Map.of(
                "gpu0.sm*.l1.hits", "L1 hits",
                "gpu0.l2.slice*.hits", "L2 hits", // l2 is the same in every name: it keeps its digit
                "pool.hbm0.bytes", "bytes of hbm0", "pool.hbm1.bytes", "bytes of hbm1", // they say different things
                "uvm.faults", "far faults",
                "gpu0.mmu.walk_ps.{count,mean,p50,p99,max}", "walk latency"), StatDocs.collapse(docs, Set.of("gpu0.mmu.walk_ps")));
    }

    @Test
    void aUnitAloneKeepsItsIndex() {
        assertEquals(Map.of("gpu0.sm0.l1.hits", "L1 hits"), StatDocs.collapse(Map.of("gpu0.sm0.l1.hits", "L1 hits"), Set.of()));
    }
}
