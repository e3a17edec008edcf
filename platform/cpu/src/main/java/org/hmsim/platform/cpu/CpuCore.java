package org.hmsim.platform.cpu;

import org.hmsim.api.engine.EventTarget;

/**
 * One CPU core running its share of a host phase: an in-order stream of loads and stores issued one per
 * cycle (plus the phase's compute cycles between accesses), with at most {@code mlp} of them outstanding
 * — the memory-level-parallelism window of a simple out-of-order core (seed 001 §6 allows "a simple core
 * with an MLP limit"). A refused miss (no MSHR) or a permission fault holds the core until it may retry.
 */
final class CpuCore implements EventTarget {
    static final int EV_ISSUE = 0, EV_DONE = 1;
    final int index;
    private final CpuSide side;
    private final int mlp;
    private final long cyclePs;
    // the chunks of the current phase for this core
    private long[] base = new long[4], end = new long[4];
    private int[] stride = new int[4];
    private boolean[] write = new boolean[4];
    private int chunks, chunk;
    private long next;
    private long computePs;
    int outstanding;
    private long nextIssuePs;
    private boolean issueScheduled;
    boolean waitingForRetry;
    long accesses, stallPs, faultStallPs;

    CpuCore(int index, CpuSide side, int mlp, long cyclePs) {
        this.index = index;
        this.side = side;
        this.mlp = mlp;
        this.cyclePs = cyclePs;
    }

    void clear(int computeCycles) {
        chunks = 0;
        chunk = 0;
        computePs = (long) computeCycles * cyclePs;
    }

    void add(long from, long to, int strideBytes, boolean isWrite) {
        if (to <= from) return;
        if (chunks == base.length) {
            base = java.util.Arrays.copyOf(base, chunks * 2);
            end = java.util.Arrays.copyOf(end, chunks * 2);
            stride = java.util.Arrays.copyOf(stride, chunks * 2);
            write = java.util.Arrays.copyOf(write, chunks * 2);
        }
        base[chunks] = from;
        end[chunks] = to;
        stride[chunks] = strideBytes;
        write[chunks] = isWrite;
        if (chunks == 0) next = from;
        chunks++;
    }

    boolean idle() { return chunk >= chunks && outstanding == 0; }

    void start() { wake(); }

    /** Schedules an issue attempt now (a freed MSHR, a finished access). */
    void wake() {
        if (issueScheduled) return;
        issueScheduled = true;
        side.engine.schedule(Math.max(side.engine.now(), nextIssuePs), this, EV_ISSUE, 0);
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == EV_DONE) {
            outstanding--;
            side.accessDone(this);
            return;
        }
        issueScheduled = false;
        issue();
    }

    private void issue() {
        long now = side.engine.now();
        while (chunk < chunks && outstanding < mlp) {
            if (side.issueHeld) { // a live swap drains the memory system: wait until it resumes issue
                waitingForRetry = true;
                return;
            }
            if (now < nextIssuePs) {
                wake();
                return;
            }
            long fault = side.permission(next, write[chunk]);
            if (fault > 0) {
                faultStallPs += fault;
                nextIssuePs = now + fault; // the OS handler runs; the access retries afterwards
                wake();
                return;
            }
            int r = side.access(this, next, write[chunk]);
            if (r == CpuSide.REFUSED) {
                waitingForRetry = true;
                return;
            }
            accesses++;
            outstanding++;
            next += stride[chunk];
            if (next >= end[chunk] && ++chunk < chunks) next = base[chunk];
            nextIssuePs = now + cyclePs + computePs;
        }
        if (idle()) side.coreIdle(this);
    }

    /** A hit or a granted upgrade that completes after {@code ps}. */
    void completeIn(long ps) { side.engine.schedule(side.engine.now() + ps, this, EV_DONE, 0); }
}
