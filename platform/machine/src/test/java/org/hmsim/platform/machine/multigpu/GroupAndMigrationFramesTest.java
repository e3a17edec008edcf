package org.hmsim.platform.machine.multigpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.PoolInfo;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.platform.engine.EventQueue;
import org.hmsim.platform.memory.os.OsMemoryManager;
import org.junit.jupiter.api.Test;

/**
 * Page groups take each GPU memory's frames from the top, page migrations into a GPU memory from the bottom: the two
 * must not meet (a review put two pages in one frame with 4-frame memories, and read 6 free frames of 4).
 */
class GroupAndMigrationFramesTest {
    private static final long PAGE = 4096;

    @Test
    void migrationsTakeNoFrameAPageGroupHoldsAndFreeFramesAddUp() {
        List<PoolInfo> pools = List.of(new PoolInfo(0, "hbm0", "HBM2", 0, 8, 256e9, 4 * PAGE),
                new PoolInfo(1, "hbm1", "HBM2", 1, 8, 256e9, 4 * PAGE));
        EventQueue engine = new EventQueue();
        ArrayDeque<MemRequest> q = new ArrayDeque<>();
        EventTarget answer = (k, p) -> {
            MemRequest r = q.poll();
            r.replyTo.onResponse(r);
        };
        OsMemoryManager os = new OsMemoryManager(pools, PAGE, engine, new RequestPool(), (r, from) -> {
            q.add(r);
            engine.schedule(engine.now() + 1000, answer, 0, 0);
            return true;
        });
        os.setPlacement((vpn, a, gpu) -> 0);
        InterleavePolicy coarse = new InterleavePolicy() {
            public int channel(long paddr, int pool, int channels) { return 0; }
            public long channelAddress(long paddr, int pool, int channels) { return paddr; }
            public int pageHome(long vpn, Allocation a, int gpu, int memories) { return (int) Math.floorMod(vpn, (long) memories); }
        };
        os.setFrameMapper(new PageGroupAllocator(GpuMemories.of(pools, 2, PAGE, 128), new long[] {4 * PAGE, 4 * PAGE}, () -> coarse));
        Allocation a = os.allocate("x", 6 * PAGE, AllocationHint.NONE, false);
        long v0 = a.baseVa() / PAGE;
        for (int i = 0; i < 6; i++) os.translate(a.baseVa() + i * PAGE, 0); // 3 groups: frames 3, 2, 1 of both memories
        assertEquals(1, os.freeFrames(0), "one frame of hbm0 below the groups");
        int moved = 0, refused = 0;
        for (int i = 0; i < 6; i++) {
            if (os.poolOf(v0 + i) != 1) continue;
            if (os.migrate(v0 + i, 0, null)) moved++;
            else refused++;
        }
        engine.run();
        assertEquals(1, moved, "hbm0 has one frame the groups do not hold");
        assertEquals(2, refused);
        Set<Long> frames = new HashSet<>();
        for (int i = 0; i < 6; i++) assertTrue(frames.add(os.lookup(a.baseVa() + i * PAGE)), "page " + i + " shares a frame");
        assertEquals(0, os.freeFrames(0));
        assertEquals(2, os.freeFrames(1), "hbm1: its frame below the groups, and the migrated page's group frame, free again");
    }
}
