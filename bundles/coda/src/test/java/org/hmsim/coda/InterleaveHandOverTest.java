package org.hmsim.coda;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.os.MemoryManager;
import org.junit.jupiter.api.Test;

/**
 * An interleave policy of this bundle hands its successor (a live swap) where each GPU's turn round its memories stands:
 * restarted at each GPU's first memory, the pages a program mapped after the swap went first to the memory already
 * holding the most (found by a live-swap stress review).
 */
class InterleaveHandOverTest {
    /** Two GPUs of three and two memories; every allocation is program GPU 0's (a multiprogrammed mix). */
    private static final int[][] MEMORIES = {{0, 1, 2}, {3, 4}};
    private static final MemoryManager PROGRAM_ON_GPU0 = (MemoryManager) Proxy.newProxyInstance(MemoryManager.class.getClassLoader(),
            new Class<?>[] {MemoryManager.class}, (p, m, a) -> switch (m.getName()) {
                case "programGpu" -> 0;
                case "pageBytes" -> 4096L;
                default -> null;
            });

    private static List<Integer> homes(CoarseInterleave c, int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) out.add(c.pageHome(i, null, 0, 5));
        return out;
    }

    @Test
    void theSuccessorGoesOnWhereTheTurnsStood() {
        CoarseInterleave before = new CoarseInterleave(256, PROGRAM_ON_GPU0, MEMORIES);
        assertEquals(List.of(0, 1, 2, 0), homes(before, 4));
        Map<String, Object> state = before.exportState();

        CoarseInterleave after = new CoarseInterleave(256, PROGRAM_ON_GPU0, MEMORIES);
        after.importState(state);
        assertEquals(List.of(1, 2, 0), homes(after, 3), "the turn goes on at memory 1, as one policy all along would");

        CoarseInterleave other = new CoarseInterleave(256, PROGRAM_ON_GPU0, new int[][] {{0, 1}});
        other.importState(state); // another machine's shape: ignored
        assertEquals(0, other.pageHome(0, null, 0, 2));
    }
}
