package org.hmsim.platform.memory;

/**
 * DRAM timing in command-clock cycles: activate-to-read (tRCD), precharge (tRP), CAS latency
 * (tCL), activate-to-precharge (tRAS), activate-to-activate same bank (tRC), write recovery (tWR).
 * Burst transfer time is not a cycle count here: it follows from the channel's bandwidth and the bytes
 * moved, so a pool's stated bandwidth is the data bus's peak.
 *
 * <p>The channel-wide constraints DRAMSim2 adds (the FRC thesis's memory controller, Table 4.2) are
 * each off at 0: activate-to-activate across banks (tRRD) and the four-activate window (tFAW); the data
 * bus's turnarounds, write-to-read (tWTR, from the end of the write's data to the read command) and
 * read-to-write (tRTRS, between the read's data and the write's); refresh, every bank closed for tRFC
 * once every tREFI ({@code tRFC} and {@code tREFI} are both 0 or both set).
 */
public record DramTiming(int tRCD, int tRP, int tCL, int tRAS, int tRC, int tWR,
                         int tRRD, int tFAW, int tWTR, int tRTRS, int tRFC, int tREFI) {

    /**
     * The refresh period must exceed this many cycles: a refresh closes every row, so a period has to hold the refresh,
     * one more ACT, its column command and the precharge, or every ACT made after a refresh is lost to the next one. Each
     * step counts at least one cycle: with every bank timing 0, rfc 500 and refi 501 passed the check and deadlocked.
     */
    public long refreshPeriodFloor() {
        return (long) tRFC + atLeastOne(tRAS) + atLeastOne(tRP) + atLeastOne(tRCD) + atLeastOne(tCL) + atLeastOne(tWR);
    }

    private static int atLeastOne(int cycles) { return Math.max(1, cycles); }

    /** The bank timing alone: no cross-bank, turnaround or refresh constraint. */
    public DramTiming(int tRCD, int tRP, int tCL, int tRAS, int tRC, int tWR) {
        this(tRCD, tRP, tCL, tRAS, tRC, tWR, 0, 0, 0, 0, 0, 0);
    }
}
