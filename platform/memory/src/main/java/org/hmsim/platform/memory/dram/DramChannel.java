package org.hmsim.platform.memory.dram;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;

/**
 * One DRAM channel: a bounded request queue, banks with an open row each (open-page policy), one data
 * bus, and a command scheduler (FR-FCFS or FCFS) that issues one command (ACT, PRE, RD/WR) per command
 * clock cycle.
 *
 * <p><b>Timing.</b> All bank constraints are kept as "earliest time" stamps in picoseconds:
 * <ul>
 *   <li>ACT at t: column commands to that bank from t + tRCD, precharge from t + tRAS, next ACT from t + tRC;</li>
 *   <li>PRE at t: next ACT from t + tRP;</li>
 *   <li>RD/WR at t: data occupies the bus during [t + tCL, t + tCL + transfer) (write latency is taken
 *       equal to tCL, the seed gives no tCWL); a read allows precharge from t + transfer (read-to-precharge
 *       = burst), a write from the end of its data + tWR.</li>
 * </ul>
 * transfer = bytes / (pool bandwidth / channels), so the pool's stated bandwidth is the data bus's peak.
 * Commands issue at the first picosecond every constraint allows (the command clock sets the timing
 * parameters and the one-command-per-cycle command bus, not a grid). Not modelled: tRRD/tFAW, bus
 * turnaround (tWTR/tRTW), refresh.
 *
 * <p><b>Pipelining.</b> A column command is only issued when its data can follow the bus's current
 * occupant (busFree - tCL), while ACT/PRE for other banks are issued in the meantime; so activations
 * overlap transfers (bank-level parallelism) and a stream keeps the data bus busy.
 *
 * <p><b>Scheduling.</b> FR-FCFS (Rixner et al., ISCA 2000): ready row hits first (oldest first), then the
 * oldest request's ACT/PRE. A bank's row is not closed while a queued request still hits it, and
 * ACT/PRE on a bank is issued only for the oldest request that targets that bank. FCFS: column
 * commands strictly in arrival order (only the oldest request may read/write); ACT/PRE still prepare
 * banks for younger requests, each bank for its oldest request (which may close a row that younger
 * requests would have hit). Completions follow the data bus, so they leave in column-command order.
 */
final class DramChannel implements EventTarget {
    private static final int WAKE = 0, DONE = 1;
    private static final byte HIT = 0, MISS = 1, CONFLICT = 2;
    private static final long CLOSED = -1;

    private final DramPool owner;
    private final int index;
    private final Engine engine;
    private final boolean frfcfs;
    private final int banks, rowBytes, depth;
    private final long tRCD, tRP, tCL, tRAS, tRC, tWR, tCK;
    private final double psPerByte;

    // request queue in arrival order
    private final MemRequest[] q;
    private final int[] qBank;
    private final long[] qRow;
    private final long[] qArrive;
    private final byte[] qClass;
    private int qLen;

    // banks
    private final long[] openRow, actReady, colReady, preReady;
    private final int[] hitCount;
    /** Requests queued per bank, so the next issue time is a minimum over banks, not over the queue. */
    private final int[] bankQueued;
    private long busFreeAt, cmdFreeAt;

    // requests whose column command has issued, in data-bus order
    private MemRequest[] ring = new MemRequest[16];
    private int ringHead, ringCount;

    // clients refused while the queue was full
    private MemClient[] waiters = new MemClient[8];
    private MemClient[] notifying = new MemClient[8];
    private int nWaiters;

    private long wakeAt = Long.MAX_VALUE;

    // statistics
    long reads, writes, readBytes, writeBytes, hits, misses, conflicts, activates, busyPs;
    private long occIntegral, lastOccChange;
    private Histogram queueDelay, poolQueueDelay;

    DramChannel(DramPool owner, int index, Engine engine, DramTimingPs t, int banks, int rowBytes, int depth,
                boolean frfcfs, double channelBytesPerSecond) {
        this.owner = owner;
        this.index = index;
        this.engine = engine;
        this.frfcfs = frfcfs;
        this.banks = banks;
        this.rowBytes = rowBytes;
        this.depth = depth;
        this.tRCD = t.tRCD();
        this.tRP = t.tRP();
        this.tCL = t.tCL();
        this.tRAS = t.tRAS();
        this.tRC = t.tRC();
        this.tWR = t.tWR();
        this.tCK = t.tCK();
        this.psPerByte = 1e12 / channelBytesPerSecond;
        q = new MemRequest[depth];
        qBank = new int[depth];
        qRow = new long[depth];
        qArrive = new long[depth];
        qClass = new byte[depth];
        openRow = new long[banks];
        java.util.Arrays.fill(openRow, CLOSED);
        actReady = new long[banks];
        colReady = new long[banks];
        preReady = new long[banks];
        hitCount = new int[banks];
        bankQueued = new int[banks];
    }

    /** Data-bus time of {@code bytes}, ps (rounded up). */
    long transferPs(int bytes) { return (long) Math.ceil(bytes * psPerByte); }

    /**
     * Takes a request whose channel address (channel bits removed) is {@code channelAddress}. Layout
     * of the channel address: {@code [ row | bank | column ]} with column = offset within a
     * {@code rowBytes} row; consecutive rows go to consecutive banks, so a stream spreads over banks.
     */
    boolean tryAccept(MemRequest r, MemClient from, long channelAddress) {
        if (qLen == depth) {
            if (from != null) addWaiter(from);
            return false;
        }
        long now = engine.now();
        long rowIndex = channelAddress / rowBytes;
        int bank = (int) (rowIndex % banks);
        long row = rowIndex / banks;
        occupancyChange(now);
        int i = qLen++;
        q[i] = r;
        qBank[i] = bank;
        qRow[i] = row;
        qArrive[i] = now;
        qClass[i] = HIT;
        if (openRow[bank] == row) hitCount[bank]++;
        bankQueued[bank]++;
        // Only the new request can make the next command earlier: for the others an arrival changes
        // nothing but hitCount, which can only hold a PRE back; and a pending wake is never later than
        // their earliest command. So the new request's own ready time decides, as a full scan would.
        ensureWake(Math.max(now, readyAt(i, bankOldest(i))));
        return true;
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == DONE) complete();
        else if (engine.now() == wakeAt) {
            wakeAt = Long.MAX_VALUE;
            schedule(engine.now());
        }
    }

    /**
     * One scheduling decision at {@code now}: issue the best ready command, then sleep until the next
     * command can issue. Between two decisions the bank, bus and command-bus stamps change only through
     * commands issued here, and the queue only through arrivals (which re-arm the wake themselves), so
     * the exact time of the next issuable command is known now: waking at every command-clock edge to
     * find nothing ready would cost an event per command for no change in timing.
     */
    private void schedule(long now) {
        int cas = -1, prep = -1;
        long seenBanks = 0;
        long soonest = Long.MAX_VALUE; // of the requests not ready now: the whole queue if none is
        for (int i = 0; i < qLen && cas < 0; i++) {
            int b = qBank[i];
            long bit = 1L << b;
            boolean bankOldest = (seenBanks & bit) == 0;
            seenBanks |= bit;
            long t = readyAt(i, bankOldest);
            if (t > now) {
                if (t < soonest) soonest = t;
                continue;
            }
            if (openRow[b] == qRow[i]) cas = i;
            else if (prep < 0) prep = i;
        }
        if (cas >= 0) {
            column(cas, now);
        } else if (prep >= 0) {
            if (openRow[qBank[prep]] == CLOSED) activate(prep, now);
            else precharge(prep, now);
        } else {
            ensureWake(soonest); // nothing issued, so the scan above was nextIssuePs()
            return;
        }
        cmdFreeAt = now + tCK;
        ensureWake(nextIssuePs());
        if (cas >= 0) notifyWaiters();
    }

    /**
     * The earliest time queued request {@code i} has a command it may issue (its column command if its row
     * is open, else ACT/PRE of its bank), or Long.MAX_VALUE if it has none to issue under the scheduling
     * rules; never before the command bus is free.
     */
    private long readyAt(int i, boolean bankOldest) {
        int b = qBank[i];
        long t;
        if (openRow[b] == qRow[i]) {
            if (!frfcfs && i != 0) return Long.MAX_VALUE;
            t = Math.max(colReady[b], busFreeAt - tCL);
        } else if (bankOldest && (openRow[b] == CLOSED || hitCount[b] == 0 || !frfcfs)) {
            t = openRow[b] == CLOSED ? actReady[b] : preReady[b];
        } else {
            return Long.MAX_VALUE;
        }
        return Math.max(t, cmdFreeAt);
    }

    /** Whether queued request {@code i} is the oldest one for its bank. */
    private boolean bankOldest(int i) {
        int b = qBank[i];
        for (int j = 0; j < i; j++) if (qBank[j] == b) return false;
        return true;
    }

    /** The earliest time any queued request has a command to issue (Long.MAX_VALUE: none). */
    private long nextIssuePs() {
        return frfcfs ? nextIssueByBank() : nextIssueByScan();
    }

    /**
     * FR-FCFS's next issue time from per-bank state alone: every queued hit of a bank is ready at the same
     * time (its column command), and a bank without hits offers only its oldest request's ACT or PRE — so
     * the minimum over banks equals {@link #nextIssueByScan()} at a bank count's cost instead of a queue's.
     */
    private long nextIssueByBank() {
        long next = Long.MAX_VALUE;
        for (int b = 0; b < bankQueued.length; b++) {
            if (bankQueued[b] == 0) continue;
            long t;
            if (hitCount[b] > 0) t = Math.max(colReady[b], busFreeAt - tCL);
            else t = openRow[b] == CLOSED ? actReady[b] : preReady[b];
            if (t < next) next = t;
        }
        return next == Long.MAX_VALUE ? next : Math.max(next, cmdFreeAt);
    }

    private long nextIssueByScan() {
        long next = Long.MAX_VALUE;
        long seenBanks = 0;
        for (int i = 0; i < qLen; i++) {
            long bit = 1L << qBank[i];
            boolean bankOldest = (seenBanks & bit) == 0;
            seenBanks |= bit;
            long t = readyAt(i, bankOldest);
            if (t < next) next = t;
        }
        return next;
    }

    private void activate(int i, long now) {
        int b = qBank[i];
        long row = qRow[i];
        openRow[b] = row;
        colReady[b] = now + tRCD;
        preReady[b] = Math.max(preReady[b], now + tRAS);
        actReady[b] = Math.max(actReady[b], now + tRC);
        if (qClass[i] == HIT) qClass[i] = MISS;
        activates++;
        int n = 0;
        for (int j = 0; j < qLen; j++) if (qBank[j] == b && qRow[j] == row) n++;
        hitCount[b] = n;
    }

    private void precharge(int i, long now) {
        int b = qBank[i];
        openRow[b] = CLOSED;
        actReady[b] = Math.max(actReady[b], now + tRP);
        qClass[i] = CONFLICT;
        hitCount[b] = 0;
    }

    private void column(int i, long now) {
        MemRequest r = q[i];
        int b = qBank[i];
        long xfer = transferPs(r.size);
        long dataEnd = now + tCL + xfer;
        busFreeAt = dataEnd;
        busyPs += xfer;
        boolean write = r.kind == AccessKind.WRITE || r.kind == AccessKind.WRITEBACK;
        if (write) {
            writes++;
            writeBytes += r.size;
            preReady[b] = Math.max(preReady[b], dataEnd + tWR);
        } else {
            reads++;
            readBytes += r.size;
            preReady[b] = Math.max(preReady[b], now + xfer);
        }
        switch (qClass[i]) {
            case HIT -> hits++;
            case MISS -> misses++;
            default -> conflicts++;
        }
        hitCount[b]--;
        long delay = now - qArrive[i];
        if (queueDelay != null) queueDelay.record(delay);
        if (poolQueueDelay != null) poolQueueDelay.record(delay);
        removeAt(i, now);
        pushRing(r);
        engine.schedule(dataEnd, this, DONE, 0);
    }

    private void complete() {
        MemRequest r = ring[ringHead];
        ring[ringHead] = null;
        ringHead = (ringHead + 1) & (ring.length - 1);
        ringCount--;
        owner.respond(r);
    }

    private void removeAt(int i, long now) {
        occupancyChange(now);
        bankQueued[qBank[i]]--;
        int n = qLen - i - 1;
        System.arraycopy(q, i + 1, q, i, n);
        System.arraycopy(qBank, i + 1, qBank, i, n);
        System.arraycopy(qRow, i + 1, qRow, i, n);
        System.arraycopy(qArrive, i + 1, qArrive, i, n);
        System.arraycopy(qClass, i + 1, qClass, i, n);
        q[--qLen] = null;
    }

    private void pushRing(MemRequest r) {
        if (ringCount == ring.length) {
            MemRequest[] n = new MemRequest[ring.length * 2];
            for (int k = 0; k < ringCount; k++) n[k] = ring[(ringHead + k) & (ring.length - 1)];
            ring = n;
            ringHead = 0;
        }
        ring[(ringHead + ringCount) & (ring.length - 1)] = r;
        ringCount++;
    }

    private void ensureWake(long t) {
        if (t < wakeAt && t != Long.MAX_VALUE) {
            wakeAt = t;
            engine.schedule(t, this, WAKE, 0);
        }
    }

    private void addWaiter(MemClient c) {
        for (int k = 0; k < nWaiters; k++) if (waiters[k] == c) return;
        if (nWaiters == waiters.length) waiters = java.util.Arrays.copyOf(waiters, nWaiters * 2);
        waiters[nWaiters++] = c;
    }

    /**
     * Tells every refused client that space freed. The list is swapped out first: a client that retries
     * and is refused again registers anew without disturbing this round.
     */
    private void notifyWaiters() {
        if (nWaiters == 0) return;
        MemClient[] list = waiters;
        int n = nWaiters;
        waiters = notifying;
        if (waiters.length < list.length) waiters = new MemClient[list.length];
        nWaiters = 0;
        notifying = list;
        for (int k = 0; k < n; k++) {
            MemClient c = list[k];
            list[k] = null;
            c.onSpaceAvailable(owner);
        }
    }

    private void occupancyChange(long now) {
        occIntegral += (long) qLen * (now - lastOccChange);
        lastOccChange = now;
    }

    /** Queue length integrated over time, request·ps, up to now. */
    long occupancyIntegral() { return occIntegral + (long) qLen * (engine.now() - lastOccChange); }

    int queued() { return qLen; }

    int inFlight() { return qLen + ringCount; }

    long bytes() { return readBytes + writeBytes; }

    double energyPj(org.hmsim.platform.memory.DramEnergy e) {
        if (e == null) return 0;
        return activates * e.activatePj() + readBytes * e.readPjPerByte() + writeBytes * e.writePjPerByte();
    }

    void registerStats(Stats s, Histogram poolHistogram, org.hmsim.platform.memory.DramEnergy energy, long maxDelayPs) {
        this.poolQueueDelay = poolHistogram;
        s.counter("reads", "read (and atomic) requests served", () -> reads);
        s.counter("writes", "write and write-back requests served", () -> writes);
        s.counter("bytes_read", "bytes read", () -> readBytes);
        s.counter("bytes_written", "bytes written", () -> writeBytes);
        s.counter("bytes", "bytes read and written", this::bytes);
        s.counter("row_hits", "requests whose row was open when their column command issued without an ACT of their own", () -> hits);
        s.counter("row_misses", "requests that needed an ACT on a closed bank", () -> misses);
        s.counter("row_conflicts", "requests that needed a PRE of another open row, then an ACT", () -> conflicts);
        s.counter("activates", "ACT commands issued", () -> activates);
        s.counter("data_bus_busy_ps", "time the data bus carried data, ps", () -> busyPs);
        s.gauge("bus_utilisation", "data_bus_busy_ps / elapsed time", () -> ratio(busyPs, engine.now()));
        s.counter("queue_occupancy_integral", "queue length integrated over time, request*ps (Little's law: / time = mean occupancy)", this::occupancyIntegral);
        s.gauge("avg_queue_occupancy", "time-averaged number of requests waiting in the channel queue", () -> ratio(occupancyIntegral(), engine.now()));
        s.gauge("energy_pj", "DRAM energy: activates x activate pJ + bytes x pJ/byte (read, write)", () -> energyPj(energy));
        queueDelay = s.histogram("queue_delay_ps", "time from arrival in the channel queue to the request's column command, ps", maxDelayPs);
    }

    static double ratio(long a, long b) { return b <= 0 ? 0 : (double) a / b; }

    int index() { return index; }

    Engine engine() { return engine; }
}
