package org.hmsim.platform.traces;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * A trace's allocations by recorded base: each address must belong to one of them, the one whose move relocates
 * it, and each name is one allocation (it labels results). Both trace readers add theirs here as they read them.
 */
public final class AllocationRanges {
    private final TreeMap<Long, TraceAllocation> byBase = new TreeMap<>();
    private final Set<String> names = new HashSet<>();

    /** Adds {@code a}, or says why it cannot be added (null when it can). */
    public String add(TraceAllocation a) {
        if (a.end() < a.base()) return "alloc " + a.name() + ": base + size passes the end of the 64-bit address space";
        if (!names.add(a.name())) return "alloc " + a.name() + " is declared twice";
        Map.Entry<Long, TraceAllocation> below = byBase.floorEntry(a.base()), above = byBase.ceilingEntry(a.base());
        for (Map.Entry<Long, TraceAllocation> e : java.util.Arrays.asList(below, above)) {
            if (e == null) continue;
            TraceAllocation o = e.getValue();
            if (a.base() < o.end() && o.base() < a.end()) {
                names.remove(a.name());
                return "alloc " + a.name() + " " + range(a) + " overlaps alloc " + o.name() + " " + range(o)
                        + ": an address must belong to one allocation to be relocated";
            }
        }
        byBase.put(a.base(), a);
        return null;
    }

    /** Whether {@code address} lies in an allocation added so far. */
    public boolean contains(long address) {
        Map.Entry<Long, TraceAllocation> e = byBase.floorEntry(address);
        return e != null && address < e.getValue().end();
    }

    private static String range(TraceAllocation a) {
        return "[0x" + Long.toHexString(a.base()) + ", 0x" + Long.toHexString(a.end()) + ")";
    }
}
