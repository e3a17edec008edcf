package org.hmsim.platform.memory;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.stats.Stats;

/** How the memory components' gauges turn a busy time or an integral into a utilisation or a mean. */
public final class Rates {
    private Rates() {}

    /** {@code a / b}, 0 when nothing has elapsed. */
    public static double ratio(long a, long b) { return b <= 0 ? 0 : (double) a / b; }

    /**
     * What a utilisation divides by: the run's end once it has ended ({@link Stats#elapsedPs()}), not the engine's
     * clock, which goes on to the next epoch boundary (a review found link and bus utilisations up to an epoch low).
     */
    public static long elapsed(Stats s, Engine engine) {
        long t = s.elapsedPs();
        return t >= 0 ? t : engine.now();
    }

    /**
     * What a component's utilisation divides by: {@link #elapsed}, or longer if the component was still busy after the
     * run's end ({@code lastBusyEndPs}: page copies and write-backs still moving), whose work counts too (an audit
     * found a channel's bus 177 % busy over the run alone).
     */
    public static long window(Stats s, Engine engine, long lastBusyEndPs) { return Math.max(elapsed(s, engine), lastBusyEndPs); }
}
