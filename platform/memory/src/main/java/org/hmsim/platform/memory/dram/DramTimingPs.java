package org.hmsim.platform.memory.dram;

import org.hmsim.api.engine.ClockDomain;
import org.hmsim.platform.memory.DramTiming;

/** DRAM timing converted from command-clock cycles to picoseconds, plus the clock period tCK itself. */
record DramTimingPs(long tRCD, long tRP, long tCL, long tRAS, long tRC, long tWR, long tCK,
                    long tRRD, long tFAW, long tWTR, long tRTRS, long tRFC, long tREFI) {

    static DramTimingPs of(DramTiming t, ClockDomain clock) {
        return new DramTimingPs(clock.ps(t.tRCD()), clock.ps(t.tRP()), clock.ps(t.tCL()), clock.ps(t.tRAS()),
                clock.ps(t.tRC()), clock.ps(t.tWR()), clock.periodPs(), clock.ps(t.tRRD()), clock.ps(t.tFAW()),
                clock.ps(t.tWTR()), clock.ps(t.tRTRS()), clock.ps(t.tRFC()), clock.ps(t.tREFI()));
    }
}
