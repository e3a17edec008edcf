package org.hmsim.platform.gpu.cache;

/**
 * A replacement policy's victim, checked before it is used: a way outside the set's candidates is the policy's bug. At
 * the L1 such a way was used unchecked, and a way of {@code ways} or -1 silently installed the line in the neighbouring
 * set (a trial's broken policy ran "ok" with hits it could not have had); the L2 checked, without naming the slot.
 */
public final class VictimChoice {
    private VictimChoice() {}

    /** {@code way} if it is one of {@code candidates} (a bit per way), else an IllegalStateException naming the cache. */
    public static int checked(String cache, int set, int way, int ways, long candidates) {
        if (way < 0 || way >= ways || (candidates & (1L << way)) == 0)
            throw new IllegalStateException(cache + ": the replacement policy (slot replacement) chose way " + way + " of set " + set
                    + ", not one of its candidate ways " + Long.toBinaryString(candidates) + " (bit i = way i, of " + ways + " ways)");
        return way;
    }
}
