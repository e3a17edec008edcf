package org.hmsim.memsched;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.DramSchedulerPolicy;

/**
 * BLISS, the blacklisting memory scheduler (Subramanian et al., ICCD 2014, §4): a controller counts the requests it
 * serves in a row from one source; a source served more than {@code threshold} times in a row is blacklisted, and the
 * blacklist is cleared every {@code clearing_interval}. Requests of sources not blacklisted go first, then row hits,
 * then the oldest. Each channel is a controller of its own here (its own queue and scheduler). Sources are the CPU side
 * and each GPU ({@link Source}): a GPU's stream of requests blacklists it, so a CPU's misses stop waiting behind it.
 */
final class Bliss implements DramSchedulerPolicy {
    private final int threshold;
    private final long clearingPs;
    private final Engine engine;
    private final int sources;
    private long blacklistings;

    Bliss(int threshold, long clearingPs, Engine engine, int gpus) {
        this.threshold = threshold;
        this.clearingPs = clearingPs;
        this.engine = engine;
        this.sources = 1 + gpus;
    }

    long blacklistings() { return blacklistings; }

    @Override public State forChannel(int pool, int channel, int banks) { return new Channel(); }

    private final class Channel implements State {
        private final boolean[] blacklisted = new boolean[sources];
        private int last = -1, inARow;
        private long clearAt = clearingPs;

        @Override public long rank(MemRequest r, int bank, boolean rowHit) {
            clearIfDue();
            int s = Source.index(r);
            return (s < sources && blacklisted[s] ? 2 : 0) + (rowHit ? 0 : 1);
        }

        @Override public void onColumn(MemRequest r, int bank) {
            clearIfDue();
            int s = Source.index(r);
            inARow = s == last ? inARow + 1 : 1;
            last = s;
            if (inARow > threshold && s < sources && !blacklisted[s]) {
                blacklisted[s] = true;
                blacklistings++;
            }
        }

        /** The blacklist clears at every multiple of the interval (read lazily: nothing is scheduled for it). */
        private void clearIfDue() {
            long now = engine.now();
            if (now < clearAt) return;
            java.util.Arrays.fill(blacklisted, false);
            clearAt = (now / clearingPs + 1) * clearingPs;
        }
    }
}
