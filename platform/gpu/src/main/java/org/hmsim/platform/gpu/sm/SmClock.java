package org.hmsim.platform.gpu.sm;

import java.util.Arrays;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;

/**
 * The GPU core clock: one engine event per GPU cycle in which at least one SM has work, stepping the
 * SMs that asked for that cycle in SM-index order.
 *
 * <p>Why one clock instead of a tick event per SM. With per-SM events the order of SMs within one cycle
 * was the order their events happened to be scheduled, i.e. a function of each SM's history; SMs
 * competing for the same crossbar credit or L2 slot then won in an order nobody chose. Here the order
 * is fixed (SM 0 first), so it is deterministic by construction and independent of how an SM came to be
 * busy, and a busy GPU costs one event per cycle instead of one per SM per cycle.
 *
 * <p>No idle ticking: an SM asks for the cycle edge at which it can next act ({@link #request}); when no
 * SM has asked, no event is pending, and a response, translation or new CTA re-arms the clock through
 * the SM's wake-up at the right edge. A request for the current cycle made after this cycle's pass (a
 * response delivered later at the same instant to an SM that was idle) is served by one more pass at
 * the same time: the SM still acts in that cycle, as it would have with its own event.
 */
public final class SmClock implements EventTarget {
    private static final long NONE = Long.MAX_VALUE;

    private final Engine engine;
    private Sm[] sms = new Sm[0];
    /** The cycle edge each SM asked for, NONE if it is asleep. */
    private long[] want = new long[0];
    /** The time of the clock's pending event, NONE if none (older events at later times are stale). */
    private long pendingAt = NONE;
    /** The time of the pass now running, or -1: requests for this time are picked up by the pass. */
    private long passAt = -1;

    public SmClock(Engine engine) { this.engine = engine; }

    void attach(Sm sm) {
        int i = sm.index();
        if (i >= sms.length) {
            sms = Arrays.copyOf(sms, i + 1);
            int old = want.length;
            want = Arrays.copyOf(want, i + 1);
            Arrays.fill(want, old, want.length, NONE);
        }
        sms[i] = sm;
    }

    /** SM {@code sm} wants to act at cycle edge {@code t} (&gt;= now); an earlier request wins. */
    void request(int sm, long t) {
        if (t >= want[sm]) return;
        want[sm] = t;
        if (passAt != -1) return; // the running pass serves this cycle's requests and arms the next
        if (t < pendingAt) {
            pendingAt = t;
            engine.schedule(t, this, 0, t);
        }
    }

    @Override
    public void handle(int kind, long t) {
        if (t != pendingAt) return; // superseded by an earlier request
        pendingAt = NONE;
        passAt = t;
        long next;
        while (true) {
            long[] w = want;
            Sm[] s = sms;
            for (int i = 0; i < w.length; i++) {
                if (w[i] != t) continue;
                w[i] = NONE;
                s[i].tick(t);
            }
            // The earliest request; still this cycle = an SM woken during the pass by a later SM (lower
            // index, already passed): pass again.
            next = NONE;
            for (long x : w) if (x < next) next = x;
            if (next != t) break;
        }
        passAt = -1;
        if (next < pendingAt) {
            pendingAt = next;
            engine.schedule(next, this, 0, next);
        }
    }
}
