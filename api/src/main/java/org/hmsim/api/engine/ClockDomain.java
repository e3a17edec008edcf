package org.hmsim.api.engine;

/**
 * A clock: cycles of one domain (GPU core, CPU core, DRAM command clock, link) converted to picoseconds.
 * Each domain keeps its own period, so several clocks coexist without rounding drift: a cycle count is
 * always converted from its own domain's integer period.
 */
public record ClockDomain(String name, long periodPs) {

    public ClockDomain {
        if (periodPs <= 0) throw new IllegalArgumentException("clock " + name + ": period must be > 0 ps");
    }

    /** A clock of {@code mhz} megahertz, period rounded to the nearest picosecond. */
    public static ClockDomain ofMHz(String name, double mhz) {
        if (!(mhz > 0)) throw new IllegalArgumentException("clock " + name + ": frequency must be > 0 MHz");
        return new ClockDomain(name, Math.round(1_000_000.0 / mhz));
    }

    public long ps(long cycles) { return cycles * periodPs; }

    /** Whole cycles elapsed at time {@code ps}. */
    public long cycles(long ps) { return ps / periodPs; }

    /** The first clock edge at or after {@code ps}. */
    public long nextEdge(long ps) {
        long r = ps % periodPs;
        return r == 0 ? ps : ps + (periodPs - r);
    }

    public double mhz() { return 1_000_000.0 / periodPs; }
}
