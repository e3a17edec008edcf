package org.hmsim.platform.memory.dram;

import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.DramSchedulerPolicy;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.memory.Rates;

/**
 * One DRAM channel: a bounded request queue, banks with an open row each (open-page policy), one data
 * bus, and a command scheduler (FR-FCFS or FCFS) that issues one command (ACT, PRE, RD/WR) per command
 * clock cycle, or, on HBM's split command buses, one row command (ACT, PRE) and one column command (RD/WR).
 *
 * <p><b>Timing.</b> All bank constraints are kept as "earliest time" stamps in picoseconds:
 * <ul>
 *   <li>ACT at t: column commands to that bank from t + tRCD, precharge from t + tRAS, next ACT from t + tRC;</li>
 *   <li>PRE at t: next ACT from t + tRP;</li>
 *   <li>RD/WR at t: data occupies the bus during [t + tCL, t + tCL + transfer) (write latency is taken
 *       equal to tCL, the seed gives no tCWL); a read allows precharge from t + transfer (read-to-precharge
 *       = burst), a write from the end of its data + tWR.</li>
 * </ul>
 * transfer = bytes / (pool bandwidth / channels), so the pool's stated bandwidth is the data bus's peak (bytes rounded up to
 * whole bursts where the pool sets a burst size).
 * Commands issue at the first picosecond every constraint allows (the command clock sets the timing
 * parameters and the one-command-per-cycle command bus, not a grid).
 *
 * <p><b>Channel-wide constraints</b> (DRAMSim2's, each off at 0; {@link org.hmsim.platform.memory.DramTiming}):
 * <ul>
 *   <li>an ACT from tRRD after the channel's last ACT and tFAW after its fourth-last;</li>
 *   <li>the data bus turns around: a read command from tWTR after the end of a write's data, a write's data
 *       from tRTRS after the end of a read's;</li>
 *   <li>refresh: once due (every tREFI, channels staggered) the controller issues nothing more, precharges
 *       every open bank when it may, and no ACT follows for tRFC.</li>
 * </ul>
 * The direction of a bank's oldest row hit decides when that bank's column command may go, so a
 * turnaround holds a bank's requests in order while hits of the bus's current direction in other banks go
 * first: the batching FR-FCFS gets from ready-first. There is no cap on that wait, as in DRAMSim2 (a read
 * pushes the next write back): a write behind a long stream of reads to other banks waits for its end.
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
 *
 * <p><b>Ranked scheduling</b> (the {@code dram-scheduler} slot's own policies, {@link DramSchedulerPolicy}): each bank
 * offers the command of its best-ranked queued request (column command on an open row, else ACT, else PRE, even of a
 * row queued requests still hit), and the best-ranked offer that may issue now goes, equal ranks oldest first. With
 * FR-FCFS's ranks (row hits 0, others 1) this is FR-FCFS exactly ({@code DramSchedulerSlotTest}); the built-in
 * paths above are its faster form, a scan of the bank lists being the ranked path's cost.
 */
final class DramChannel implements EventTarget {
    private static final int WAKE = 0, DONE = 1;
    private static final byte HIT = 0, MISS = 1, CONFLICT = 2;
    private static final long CLOSED = -1;
    private static final int NONE = -1;

    private final DramPool owner;
    private final int index;
    private final Engine engine;
    /** Built-in FR-FCFS; else built-in FCFS, or {@link #ranked} ranks. Changed by a live swap of the slot. */
    private boolean frfcfs;
    /** The slot policy's state for this channel, or null: a built-in scheduler runs. */
    private DramSchedulerPolicy.State ranked;
    private final int banks, rowBytes, depth;
    private final long tRCD, tRP, tCL, tRAS, tRC, tWR, tCK;
    private final long tRRD, tFAW, tWTR, tRTRS, tRFC, tREFI;
    /** tRRD or tFAW set: ACTs are paced channel-wide; the last four ACT times, a ring. */
    private final boolean actPaced;
    private final long[] lastActs = new long[4];
    private int lastActsHead;
    /** The earliest time the channel's next ACT may issue (tRRD, tFAW). */
    private long channelActReady;
    /** tWTR or tRTRS set: the data bus turns around between reads and writes. */
    private final boolean turnaround;
    private boolean busWriting, busUsed;
    /** When the next refresh is due (Long.MAX_VALUE: refresh not modelled), and when the first was. */
    private long refreshDueAt = Long.MAX_VALUE, firstRefreshAt;
    private final double psPerByte;
    /** The smallest transfer the data bus makes (0: none). */
    private final int burstBytes;
    /** Row size and bank count are powers of two: row and bank come from shifts and masks. */
    private final boolean pow2;
    private final int rowShift, bankShift;

    /*
     * The request queue. Queued requests live in slots (recycled through a free stack) threaded on two
     * doubly linked lists, both in arrival order: the whole queue (FCFS order, and what "oldest" means)
     * and one list per bank. Arrival sequence numbers compare ages across banks. So the scheduler works
     * per bank — a bank offers its oldest row hit or its oldest request's ACT/PRE — instead of rescanning
     * the queue for every command (the queue is deep, banks are few).
     */
    private final MemRequest[] sReq;
    private final int[] sBank;
    private final long[] sRow, sArrive, sSeq;
    private final byte[] sClass;
    private final boolean[] sWrite;
    private final int[] gPrev, gNext, bPrev, bNext;
    private final int[] freeSlots;
    private int nFree;
    private int gHead = NONE, gTail = NONE;
    private int qLen;
    private long arrivals;

    // banks
    private final long[] openRow, actReady, colReady, preReady;
    /** Queued requests that hit the bank's open row, and the oldest of them (NONE if none). */
    private final int[] hitCount, bankHit;
    /** Requests queued per bank, and the bank's queue (oldest first). */
    private final int[] bankQueued, bankHead, bankTail;
    /** Bit b set: bank b has queued requests / queued row hits (banks &lt;= 64, checked by the pool). */
    private long queuedBanks, hitBanks;
    private long busFreeAt;
    /**
     * When the command bus may take its next column command (RD/WR) and its next row command (ACT, PRE, REF). On a
     * shared bus (DDR, GDDR) the two stamps move together, one command per cycle; HBM's split interface (JESD235:
     * separate row and column command buses) moves each alone, so an ACT need not wait for a gap between row hits.
     */
    private long colCmdFreeAt, rowCmdFreeAt;
    private final boolean splitCommands;

    // requests whose column command has issued, in data-bus order
    private MemRequest[] ring = new MemRequest[16];
    private int ringHead, ringCount;

    // clients refused while the queue was full
    private MemClient[] waiters = new MemClient[8];
    private int nWaiters;

    private long wakeAt = Long.MAX_VALUE;

    // statistics
    long reads, writes, readBytes, writeBytes, readBusBytes, writeBusBytes, hits, misses, conflicts, activates, busyPs, turnarounds;
    private long occIntegral, lastOccChange;
    private Histogram queueDelay, poolQueueDelay, cpuQueueDelay;

    /** {@code ranked}: the dram-scheduler slot's state for this channel, or null for the built-in FR-FCFS or FCFS. */
    DramChannel(DramPool owner, int index, int channels, Engine engine, DramTimingPs t, int banks, int rowBytes, int depth,
                boolean frfcfs, DramSchedulerPolicy.State ranked, double channelBytesPerSecond, int burstBytes, boolean splitCommands) {
        if (banks < 1 || banks > 64) throw new IllegalArgumentException("banks must be in [1, 64]");
        this.owner = owner;
        this.index = index;
        this.engine = engine;
        this.frfcfs = frfcfs;
        this.ranked = ranked;
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
        this.tRRD = t.tRRD();
        this.tFAW = t.tFAW();
        this.tWTR = t.tWTR();
        this.tRTRS = t.tRTRS();
        this.tRFC = t.tRFC();
        this.tREFI = t.tREFI();
        this.actPaced = tRRD > 0 || tFAW > 0;
        java.util.Arrays.fill(lastActs, Long.MIN_VALUE / 4);
        this.turnaround = tWTR > 0 || tRTRS > 0;
        // channels refresh in turn, as DRAMSim2 staggers its ranks, so a pool never stops all at once
        if (tREFI > 0) refreshDueAt = firstRefreshAt = tREFI - (tREFI * index) / channels;
        this.psPerByte = 1e12 / channelBytesPerSecond;
        this.burstBytes = burstBytes;
        this.splitCommands = splitCommands;
        this.pow2 = Integer.bitCount(rowBytes) == 1 && Integer.bitCount(banks) == 1;
        this.rowShift = Integer.numberOfTrailingZeros(rowBytes);
        this.bankShift = Integer.numberOfTrailingZeros(banks);
        sReq = new MemRequest[depth];
        sBank = new int[depth];
        sRow = new long[depth];
        sArrive = new long[depth];
        sSeq = new long[depth];
        sClass = new byte[depth];
        sWrite = new boolean[depth];
        gPrev = new int[depth];
        gNext = new int[depth];
        bPrev = new int[depth];
        bNext = new int[depth];
        freeSlots = new int[depth];
        for (int i = depth - 1; i >= 0; i--) freeSlots[nFree++] = i;
        openRow = new long[banks];
        java.util.Arrays.fill(openRow, CLOSED);
        actReady = new long[banks];
        colReady = new long[banks];
        preReady = new long[banks];
        hitCount = new int[banks];
        bankHit = new int[banks];
        java.util.Arrays.fill(bankHit, NONE);
        bankQueued = new int[banks];
        bankHead = new int[banks];
        bankTail = new int[banks];
        java.util.Arrays.fill(bankHead, NONE);
        java.util.Arrays.fill(bankTail, NONE);
    }

    /** Data-bus time of {@code bytes}, ps (rounded up): whole bursts where the pool sets one. */
    long transferPs(int bytes) { return (long) Math.ceil(busBytes(bytes) * psPerByte); }

    /** Bytes the data bus carries for a request of {@code bytes}: whole bursts where the pool sets one. */
    private int busBytes(int bytes) { return burstBytes <= 0 ? bytes : (bytes + burstBytes - 1) / burstBytes * burstBytes; }

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
        long rowIndex;
        int bank;
        long row;
        if (pow2 && channelAddress >= 0) { // the same numbers without three 64-bit divisions
            rowIndex = channelAddress >>> rowShift;
            bank = (int) (rowIndex & (banks - 1));
            row = rowIndex >>> bankShift;
        } else {
            rowIndex = channelAddress / rowBytes;
            bank = (int) (rowIndex % banks);
            row = rowIndex / banks;
        }
        occupancyChange(now);
        int s = freeSlots[--nFree];
        qLen++;
        sReq[s] = r;
        sBank[s] = bank;
        sRow[s] = row;
        sArrive[s] = now;
        sSeq[s] = arrivals++;
        sClass[s] = HIT;
        sWrite[s] = r.kind == AccessKind.WRITE || r.kind == AccessKind.WRITEBACK;
        gPrev[s] = gTail;
        gNext[s] = NONE;
        if (gTail == NONE) gHead = s;
        else gNext[gTail] = s;
        gTail = s;
        boolean bankOldest = bankHead[bank] == NONE;
        bPrev[s] = bankTail[bank];
        bNext[s] = NONE;
        if (bankOldest) bankHead[bank] = s;
        else bNext[bankTail[bank]] = s;
        bankTail[bank] = s;
        long bit = 1L << bank;
        if (openRow[bank] == row) {
            hitCount[bank]++;
            if (bankHit[bank] == NONE) bankHit[bank] = s;
            hitBanks |= bit;
        }
        bankQueued[bank]++;
        queuedBanks |= bit;
        // Only the new request can make the next command earlier: for the others an arrival changes
        // nothing but hitCount, which can only hold a PRE back; and a pending wake is never later than
        // their earliest command. So the new request's own ready time decides, as a full scan would.
        if (ranked != null) {
            ranked.onArrival(r, bank);
            ensureWake(Math.max(now, nextIssuePs())); // an arrival may change the best offer of its bank, which ranks decide
        } else {
            ensureWake(Math.max(now, readyAt(s, bankOldest)));
        }
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
        if (now >= refreshDueAt) refresh(now);
        if (splitCommands) {
            scheduleSplit(now);
            return;
        }
        int cas, prep;
        if (ranked != null) {
            int s = bestReadyRanked(now, ANY);
            boolean hit = s != NONE && openRow[sBank[s]] == sRow[s];
            cas = hit ? s : NONE;
            prep = hit ? NONE : s;
        } else if (frfcfs) {
            cas = oldestReadyHit(now);
            prep = cas == NONE ? oldestReadyPrepare(now) : NONE;
        } else {
            int[] pick = scanFcfs(now, false);
            cas = pick[0];
            prep = pick[1];
        }
        if (cas != NONE) {
            column(cas, now);
        } else if (prep != NONE) {
            prepare(prep, now);
        } else {
            ensureWake(nextIssuePs()); // nothing is ready: the earliest time anything will be
            return;
        }
        colCmdFreeAt = rowCmdFreeAt = now + tCK;
        ensureWake(nextIssuePs());
        if (cas != NONE) notifyWaiters();
    }

    /**
     * One decision on split command buses: the best ready column command, then (its effects known) the best ready
     * row command, each on its own bus in the same cycle. Neither can be for the other's bank: a column command
     * needs an open row and leaves its bank's precharge at least a transfer away, an ACT a closed one.
     */
    private void scheduleSplit(long now) {
        int cas = ranked != null ? bestReadyRanked(now, COLUMN) : frfcfs ? oldestReadyHit(now) : scanFcfs(now, true)[0];
        if (cas != NONE) {
            column(cas, now);
            colCmdFreeAt = now + tCK;
        }
        int prep = ranked != null ? bestReadyRanked(now, ROW) : frfcfs ? oldestReadyPrepare(now) : scanFcfs(now, true)[1];
        if (prep != NONE) {
            prepare(prep, now);
            rowCmdFreeAt = now + tCK;
        }
        ensureWake(nextIssuePs());
        if (cas != NONE) notifyWaiters();
    }

    /** ACT for a closed bank, else PRE of its open row. */
    private void prepare(int s, long now) {
        if (openRow[sBank[s]] == CLOSED) activate(s, now);
        else precharge(s, now);
    }

    /**
     * FR-FCFS, first rule: the oldest queued row hit whose column command may issue now. All hits of a
     * bank are ready together (bank, bus and command-bus stamps), so only each bank's oldest hit competes.
     */
    private int oldestReadyHit(long now) {
        if (colCmdFreeAt > now || busFreeAt - tCL > now) return NONE;
        int best = NONE;
        long bestSeq = Long.MAX_VALUE;
        for (long m = hitBanks; m != 0; m &= m - 1) {
            int b = Long.numberOfTrailingZeros(m);
            if (colReady[b] > now) continue;
            int h = bankHit[b];
            if (turnaround && busReady(h) > now) continue;
            if (sSeq[h] < bestSeq) {
                bestSeq = sSeq[h];
                best = h;
            }
        }
        return best;
    }

    /**
     * FR-FCFS, second rule: the oldest request whose ACT or PRE may issue now. Only a bank's oldest
     * request prepares its bank, and a bank's row is not closed while a queued request still hits it.
     */
    private int oldestReadyPrepare(long now) {
        if (rowCmdFreeAt > now) return NONE;
        int best = NONE;
        long bestSeq = Long.MAX_VALUE;
        for (long m = queuedBanks & ~hitBanks; m != 0; m &= m - 1) {
            int b = Long.numberOfTrailingZeros(m);
            long t = openRow[b] == CLOSED ? actAt(b) : preReady[b];
            if (t > now) continue;
            int h = bankHead[b];
            if (sSeq[h] < bestSeq) {
                bestSeq = sSeq[h];
                best = h;
            }
        }
        return best;
    }

    private final int[] fcfsPick = new int[2];

    /**
     * FCFS: the queue in arrival order; the first ready column command, and the first ready ACT/PRE ahead of it
     * ({@code split}: anywhere in the queue, for the row command bus of its own).
     */
    private int[] scanFcfs(long now, boolean split) {
        int cas = NONE, prep = NONE;
        for (int s = gHead; s != NONE && (cas == NONE || split && prep == NONE); s = gNext[s]) {
            long t = readyAt(s, bankHead[sBank[s]] == s);
            if (t > now) continue;
            if (openRow[sBank[s]] == sRow[s]) {
                if (cas == NONE) cas = s;
            } else if (prep == NONE) prep = s;
        }
        fcfsPick[0] = cas;
        fcfsPick[1] = prep;
        return fcfsPick;
    }

    /**
     * The earliest time queued request {@code s} has a command it may issue (its column command if its row
     * is open, else ACT/PRE of its bank), or Long.MAX_VALUE if it has none to issue under the scheduling
     * rules; never before the command bus is free.
     */
    private long readyAt(int s, boolean bankOldest) {
        int b = sBank[s];
        if (openRow[b] == sRow[s]) {
            if (!frfcfs && s != gHead) return Long.MAX_VALUE;
            return Math.max(Math.max(colReady[b], busReady(s)), colCmdFreeAt);
        }
        if (bankOldest && (openRow[b] == CLOSED || hitCount[b] == 0 || !frfcfs))
            return Math.max(openRow[b] == CLOSED ? actAt(b) : preReady[b], rowCmdFreeAt);
        return Long.MAX_VALUE;
    }

    /** The earliest time any queued request has a command to issue (Long.MAX_VALUE: none). */
    private long nextIssuePs() {
        if (ranked != null) {
            bestReadyRanked(Long.MIN_VALUE, ANY);
            return rankedNext;
        }
        return frfcfs ? nextIssueByBank() : nextIssueByScan();
    }

    /** Set by {@link #bestReadyRanked}: the earliest time any bank's offered command may issue (Long.MAX_VALUE: none). */
    private long rankedNext;

    /** Which offers {@link #bestReadyRanked} answers: any command, column commands only, row commands only. */
    private static final int ANY = 0, COLUMN = 1, ROW = 2;

    /**
     * Ranked scheduling: each bank's best-ranked request (rank, then age) offers its command; answers the best-ranked
     * offer of kind {@code want} that may issue at {@code now} (NONE if none) and sets {@link #rankedNext} to the
     * earliest such offer's time.
     */
    private int bestReadyRanked(long now, int want) {
        int best = NONE;
        long bestRank = Long.MAX_VALUE, bestSeq = Long.MAX_VALUE, next = Long.MAX_VALUE;
        for (long m = queuedBanks; m != 0; m &= m - 1) {
            int b = Long.numberOfTrailingZeros(m);
            int offer = NONE;
            long offerRank = Long.MAX_VALUE;
            for (int j = bankHead[b]; j != NONE; j = bNext[j]) { // oldest first: a later equal rank does not win
                long r = ranked.rank(sReq[j], b, openRow[b] == sRow[j]);
                if (offer == NONE || r < offerRank) {
                    offer = j;
                    offerRank = r;
                }
            }
            boolean col = openRow[b] == sRow[offer];
            if (want == COLUMN && !col || want == ROW && col) continue;
            long t = col ? Math.max(Math.max(colReady[b], busReady(offer)), colCmdFreeAt)
                    : Math.max(openRow[b] == CLOSED ? actAt(b) : preReady[b], rowCmdFreeAt);
            if (t < next) next = t;
            if (t <= now && (offerRank < bestRank || offerRank == bestRank && sSeq[offer] < bestSeq)) {
                best = offer;
                bestRank = offerRank;
                bestSeq = sSeq[offer];
            }
        }
        rankedNext = next;
        return best;
    }

    /**
     * Which scheduler runs from now on: a built-in one ({@code state} null; FR-FCFS or FCFS) or {@code state}'s ranks.
     * Queued requests, open rows and every timing stamp stay; the next command is chosen under the new rules.
     */
    void setScheduler(boolean builtInFrFcfs, DramSchedulerPolicy.State state) {
        this.frfcfs = builtInFrFcfs;
        this.ranked = state;
        // a state made at a swap hears of the queue it inherits, oldest first (a trial's per-source counts missed them)
        if (state != null) for (int j = gHead; j != NONE; j = gNext[j]) state.onArrival(sReq[j], sBank[j]);
        if (qLen > 0) ensureWake(Math.max(engine.now(), nextIssuePs()));
    }

    /**
     * FR-FCFS's next issue time from per-bank state alone: every queued hit of a bank is ready at the same
     * time (its column command), and a bank without hits offers only its oldest request's ACT or PRE — so
     * the minimum over banks equals {@link #nextIssueByScan()} at a bank count's cost instead of a queue's.
     */
    private long nextIssueByBank() {
        if (queuedBanks == 0) return Long.MAX_VALUE;
        long col = Long.MAX_VALUE;
        if (hitBanks != 0 && !turnaround) {
            for (long m = hitBanks; m != 0; m &= m - 1) col = Math.min(col, colReady[Long.numberOfTrailingZeros(m)]);
            col = Math.max(col, busFreeAt - tCL);
        } else {
            for (long m = hitBanks; m != 0; m &= m - 1) {
                int b = Long.numberOfTrailingZeros(m);
                col = Math.min(col, Math.max(colReady[b], busReady(bankHit[b])));
            }
        }
        long row = Long.MAX_VALUE;
        for (long m = queuedBanks & ~hitBanks; m != 0; m &= m - 1) {
            int b = Long.numberOfTrailingZeros(m);
            row = Math.min(row, openRow[b] == CLOSED ? actAt(b) : preReady[b]);
        }
        // on a shared bus the stamps are equal, and this is the earlier of the two, then the bus
        return Math.min(Math.max(col, colCmdFreeAt), Math.max(row, rowCmdFreeAt));
    }

    private long nextIssueByScan() {
        long next = Long.MAX_VALUE;
        for (int s = gHead; s != NONE; s = gNext[s]) {
            long t = readyAt(s, bankHead[sBank[s]] == s);
            if (t < next) next = t;
        }
        return next;
    }

    /**
     * The earliest time queued row hit {@code s}'s column command may issue on the data bus: its data
     * follows the bus's current occupant, after a turnaround where the direction changes.
     */
    private long busReady(int s) {
        if (!turnaround || !busUsed || sWrite[s] == busWriting) return busFreeAt - tCL;
        return sWrite[s] ? busFreeAt + tRTRS - tCL : busFreeAt + tWTR;
    }

    /** The earliest time bank {@code b} (closed) may be activated: its own tRP/tRC and the channel's tRRD/tFAW. */
    private long actAt(int b) {
        return actPaced ? Math.max(actReady[b], channelActReady) : actReady[b];
    }

    private void paceActivates(long now) {
        lastActs[lastActsHead] = now;
        lastActsHead = (lastActsHead + 1) & 3;
        // lastActsHead now indexes the fourth-last ACT, which the next one must follow by tFAW
        channelActReady = Math.max(now + tRRD, lastActs[lastActsHead] + tFAW);
    }

    /**
     * A refresh that fell due by {@code now}: once every bank may activate again (tRP, tRC, the last refresh's
     * tRFC), every open bank is precharged, then one REF keeps every bank from activating for tRFC. Refreshes that
     * fell due while the channel had nothing to schedule overlapped no command and are not replayed (only the
     * latest takes time; {@link #refreshesDue} counts them all). A row opened for a queued hit whose column
     * command has not gone yet is closed too (DRAMSim2 serves such hits first): an ACT lost per bank and refresh
     * at most; MachineConfig keeps tREFI long enough that an ACT and its column command fit between two refreshes.
     */
    private void refresh(long now) {
        while (refreshDueAt + tREFI <= now) refreshDueAt += tREFI;
        long start = Math.max(refreshDueAt, Math.max(colCmdFreeAt, rowCmdFreeAt));
        boolean open = false;
        for (int b = 0; b < banks; b++) {
            // every bank must be ready to activate (tRP, tRC; the last refresh's tRFC): REF needs them all idle
            start = Math.max(start, actReady[b]);
            if (openRow[b] == CLOSED) continue;
            open = true;
            start = Math.max(start, preReady[b]);
        }
        long ref = open ? start + tRP : start;
        long done = ref + tRFC;
        for (int b = 0; b < banks; b++) {
            openRow[b] = CLOSED;
            actReady[b] = Math.max(actReady[b], done);
            hitCount[b] = 0;
            bankHit[b] = NONE;
        }
        hitBanks = 0;
        // nothing can use the banks before REF's tRFC has passed; the stamps say so to both buses
        colCmdFreeAt = Math.max(colCmdFreeAt, ref + tCK);
        rowCmdFreeAt = Math.max(rowCmdFreeAt, ref + tCK);
        refreshDueAt += tREFI;
    }

    private void activate(int s, long now) {
        int b = sBank[s];
        long row = sRow[s];
        openRow[b] = row;
        colReady[b] = now + tRCD;
        preReady[b] = Math.max(preReady[b], now + tRAS);
        actReady[b] = Math.max(actReady[b], now + tRC);
        if (sClass[s] == HIT) sClass[s] = MISS;
        activates++;
        if (actPaced) paceActivates(now);
        if (ranked != null) ranked.onActivate(sReq[s], b);
        int n = 0, first = NONE;
        for (int j = bankHead[b]; j != NONE; j = bNext[j]) {
            if (sRow[j] != row) continue;
            if (n++ == 0) first = j;
        }
        hitCount[b] = n;
        bankHit[b] = first;
        if (n > 0) hitBanks |= 1L << b;
        else hitBanks &= ~(1L << b);
    }

    private void precharge(int s, long now) {
        int b = sBank[s];
        openRow[b] = CLOSED;
        actReady[b] = Math.max(actReady[b], now + tRP);
        sClass[s] = CONFLICT;
        hitCount[b] = 0;
        bankHit[b] = NONE;
        hitBanks &= ~(1L << b);
    }

    private void column(int s, long now) {
        MemRequest r = sReq[s];
        int b = sBank[s];
        long xfer = transferPs(r.size);
        long dataEnd = now + tCL + xfer;
        boolean write = sWrite[s];
        if (turnaround && write != busWriting && busUsed) turnarounds++;
        busWriting = write;
        busUsed = true;
        busFreeAt = dataEnd;
        busyPs += xfer;
        if (write) {
            writes++;
            writeBytes += r.size;
            writeBusBytes += busBytes(r.size);
            preReady[b] = Math.max(preReady[b], dataEnd + tWR);
        } else {
            reads++;
            readBytes += r.size;
            readBusBytes += busBytes(r.size);
            preReady[b] = Math.max(preReady[b], now + xfer);
        }
        switch (sClass[s]) {
            case HIT -> hits++;
            case MISS -> misses++;
            default -> conflicts++;
        }
        // The built-in schedulers' column command is always for its bank's oldest hit (FR-FCFS picks per bank; FCFS
        // only the queue's oldest request), so the bank's next hit is the first later one with the open row; ranks may
        // serve a younger hit first, which leaves the oldest as it was.
        if (--hitCount[b] == 0) {
            bankHit[b] = NONE;
            hitBanks &= ~(1L << b);
        } else if (bankHit[b] == s) {
            long row = openRow[b];
            int j = bNext[s];
            while (sRow[j] != row) j = bNext[j];
            bankHit[b] = j;
        }
        if (ranked != null) ranked.onColumn(r, b);
        long delay = now - sArrive[s];
        if (queueDelay != null) queueDelay.record(delay);
        if (poolQueueDelay != null) poolQueueDelay.record(delay);
        if (cpuQueueDelay != null && r.gpu < 0) cpuQueueDelay.record(delay);
        removeAt(s, now);
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

    private void removeAt(int s, long now) {
        occupancyChange(now);
        int b = sBank[s];
        if (--bankQueued[b] == 0) queuedBanks &= ~(1L << b);
        int p = gPrev[s], n = gNext[s];
        if (p == NONE) gHead = n;
        else gNext[p] = n;
        if (n == NONE) gTail = p;
        else gPrev[n] = p;
        p = bPrev[s];
        n = bNext[s];
        if (p == NONE) bankHead[b] = n;
        else bNext[p] = n;
        if (n == NONE) bankTail[b] = p;
        else bPrev[n] = p;
        sReq[s] = null;
        freeSlots[nFree++] = s;
        qLen--;
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
     * Wakes refused clients in the order they were refused while the queue has room; one refused again re-registers
     * behind those still waiting (round-robin, as a link direction's senders). Every waiter used to be woken in one
     * round in registration order, and the first re-registered first, so the same L2 slice won every freed slot and
     * the others waited: a fixed priority that cost memory-bound runs 4-5 % (found by a review).
     */
    private void notifyWaiters() {
        int n = nWaiters;
        for (int k = 0; k < n && qLen < depth && nWaiters > 0; k++) {
            MemClient c = waiters[0];
            System.arraycopy(waiters, 1, waiters, 0, nWaiters - 1);
            waiters[--nWaiters] = null;
            c.onSpaceAvailable(owner);
        }
    }

    private void occupancyChange(long now) {
        occIntegral += (long) qLen * (now - lastOccChange);
        lastOccChange = now;
    }

    /** Queue length integrated over time, request·ps, up to now. */
    long occupancyIntegral() { return occIntegral + (long) qLen * (engine.now() - lastOccChange); }

    /** Refreshes due by {@code byPs}: they come every tREFI whether or not the channel has work (an idle one refreshes too). */
    long refreshesDue(long byPs) {
        return tREFI == 0 || byPs < firstRefreshAt ? 0 : (byPs - firstRefreshAt) / tREFI + 1;
    }

    int queued() { return qLen; }

    int inFlight() { return qLen + ringCount; }

    long bytes() { return readBytes + writeBytes; }

    /** When the last data transfer issued so far ends (0 before any). */
    long lastDataEndPs() { return busFreeAt; }

    /**
     * Activates and the bytes the bus carried, whole bursts (a 32 B sector on a 64 B burst moves 64 B through the
     * devices' I/O; until 2026-11-30 energy charged the 32 and a trial found DDR4 energy 37 % low on sectors).
     */
    double energyPj(org.hmsim.platform.memory.DramEnergy e) {
        if (e == null) return 0;
        return activates * e.activatePj() + readBusBytes * e.readPjPerByte() + writeBusBytes * e.writePjPerByte();
    }

    void registerStats(Stats s, Histogram poolHistogram, org.hmsim.platform.memory.DramEnergy energy, long maxDelayPs) {
        this.poolQueueDelay = poolHistogram;
        s.counter("reads", "read (and atomic) requests served", () -> reads);
        s.counter("writes", "write and write-back requests served", () -> writes);
        s.counter("bytes_read", "bytes read", () -> readBytes);
        s.counter("bytes_written", "bytes written", () -> writeBytes);
        s.counter("bytes", "bytes read and written", this::bytes);
        s.counter("bus_bytes", "bytes the data bus carried: bytes rounded up to whole bursts where the pool sets a burst (energy is charged on these)",
                () -> readBusBytes + writeBusBytes);
        s.counter("row_hits", "requests whose row was open when their column command issued without an ACT of their own", () -> hits);
        s.counter("row_misses", "requests that needed an ACT on a closed bank", () -> misses);
        s.counter("row_conflicts", "requests that needed a PRE of another open row, then an ACT", () -> conflicts);
        s.counter("activates", "ACT commands issued", () -> activates);
        // by the run's end (or the last data, as bus_utilisation), not the engine's clock, which runs on to the next epoch
        // boundary (a statistics review found 8 refreshes in a 60 us run with tREFI 7.8 us)
        if (tREFI > 0) s.counter("refreshes", "refreshes due by the end of the run (or the channel's last data, if later), busy or idle (timing.rfc/refi)",
                () -> refreshesDue(Rates.window(s, engine, busFreeAt)));
        if (turnaround) s.counter("turnarounds", "data-bus direction changes between reads and writes (timing.wtr/rtrs)", () -> turnarounds);
        s.counter("data_bus_busy_ps", "time the data bus carried data, ps", () -> busyPs);
        s.gauge("bus_utilisation", "data_bus_busy_ps / elapsed time (to the last data if later)", () -> Rates.ratio(busyPs, Rates.window(s, engine, busFreeAt)));
        s.counter("queue_occupancy_integral", "queue length integrated over time, request*ps (Little's law: / time = mean occupancy)", this::occupancyIntegral);
        s.gauge("avg_queue_occupancy", "time-averaged number of requests waiting in the channel queue", () -> Rates.ratio(occupancyIntegral(), Rates.window(s, engine, busFreeAt)));
        s.gauge("energy_pj", "DRAM energy: activates x activate pJ + bus bytes (whole bursts) x pJ/byte (read, write)", () -> energyPj(energy));
        queueDelay = s.histogram("queue_delay_ps", "time from arrival in the channel queue to the request's column command, ps", maxDelayPs);
        // the pool's histogram sums its channels' when read: one record per column command instead of two
        if (poolHistogram != null && org.hmsim.platform.stats.StatsRegistry.sumOnRead(poolHistogram, queueDelay)) poolQueueDelay = null;
    }

    /** The pool's histogram of the CPU side's queue delays (requests with gpu -1). */
    void recordCpuDelays(Histogram h) { cpuQueueDelay = h; }

    int index() { return index; }

    Engine engine() { return engine; }
}
