package org.hmsim.platform.gpu.cache;

import org.hmsim.api.mem.MemRequest;

/**
 * Requests of an L2 bank that wait for a line of their set to be released (seed 003 §M6: a miss that
 * finds every way of its set transient, or its own line being evicted, "is queued until the line is
 * released"), in arrival order. Other sets' requests go on past them. Bounded: when full, the bank's
 * input queue stalls instead (back-pressure to the crossbar).
 */
final class SetWaitList {
    private final MemRequest[] req;
    private final int[] set;
    private final long[] since;
    private int size;
    /** Total time the released requests waited, ps. */
    long waitedPs;

    SetWaitList(int capacity) {
        req = new MemRequest[capacity];
        set = new int[capacity];
        since = new long[capacity];
    }

    boolean full() { return size == req.length; }

    int size() { return size; }

    void park(MemRequest r, int s, long nowPs) {
        req[size] = r;
        since[size] = nowPs;
        set[size++] = s;
    }

    /** Moves the requests parked on set {@code s}, oldest first, to {@code out} (via {@link Replay#add}). */
    void release(int s, Replay out, long nowPs) {
        int k = 0;
        for (int i = 0; i < size; i++) {
            if (set[i] == s) {
                out.add(req[i]);
                waitedPs += nowPs - since[i];
            } else {
                req[k] = req[i];
                since[k] = since[i];
                set[k++] = set[i];
            }
        }
        for (int i = k; i < size; i++) req[i] = null;
        size = k;
    }

    /** Requests to serve again, before new input, in order. */
    static final class Replay {
        private MemRequest[] q = new MemRequest[16];
        private int head, size;

        void add(MemRequest r) {
            if (size == q.length) {
                MemRequest[] n = new MemRequest[q.length * 2];
                for (int i = 0; i < size; i++) n[i] = q[(head + i) % q.length];
                q = n;
                head = 0;
            }
            q[(head + size++) % q.length] = r;
        }

        boolean isEmpty() { return size == 0; }

        int size() { return size; }

        MemRequest peek() { return q[head]; }

        void pop() {
            q[head] = null;
            head = (head + 1) % q.length;
            size--;
        }
    }
}
