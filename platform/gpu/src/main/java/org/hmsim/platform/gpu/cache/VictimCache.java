package org.hmsim.platform.gpu.cache;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A fully associative victim cache beside one L2 bank (seed 003 Ch. 6.4.3 / 6.6: the FA L2 + VC comparison
 * point, "unbounded" in the potential study, 32 KB per bank in Fig. 6.6). Lines the conventional miss path
 * evicts go in (with their valid sectors); an L2 miss that finds its line here takes it back instead of
 * fetching it from memory. Its lines are clean: a dirty victim's write-back is sent as it enters (posted,
 * the eviction does not wait for it), so that an unbounded VC does not also remove write-back traffic from
 * the comparison, and a VC can be dropped at any time (live swap) without losing data. LRU when bounded.
 * Only touched on misses and evictions (the hit path never looks here), so a plain access-ordered map does.
 */
final class VictimCache {
    /** Lines; {@code Integer.MAX_VALUE} = unbounded. */
    final int capacity;
    private final LinkedHashMap<Long, Integer> lines = new LinkedHashMap<>(64, 0.75f, true);
    long hits, dropped;

    VictimCache(int capacity) { this.capacity = capacity; }

    /** Keeps {@code line} with its {@code validSectors}; a bounded VC drops its LRU line (clean: nothing to write). */
    void insert(long line, int validSectors) {
        if (validSectors == 0) return;
        lines.put(line, validSectors);
        if (lines.size() > capacity) {
            Iterator<Map.Entry<Long, Integer>> it = lines.entrySet().iterator();
            it.next();
            it.remove();
            dropped++;
        }
    }

    /** The sectors held for {@code line} (0: none), removed from the VC (the line moves back to the L2). */
    int take(long line) {
        Integer v = lines.remove(line);
        if (v == null) return 0;
        hits++;
        return v;
    }

    boolean contains(long line) { return lines.containsKey(line); }

    /** A write to a line not in the L2: the VC's clean copy is stale, drop it. */
    void drop(long line) { lines.remove(line); }

    int size() { return lines.size(); }
}
