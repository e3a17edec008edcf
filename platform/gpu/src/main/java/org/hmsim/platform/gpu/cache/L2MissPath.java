package org.hmsim.platform.gpu.cache;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.platform.gpu.util.LongIntMap;

import static org.hmsim.platform.gpu.cache.L2Transactions.FRC_EVICT;
import static org.hmsim.platform.gpu.cache.L2Transactions.SWAP;
import static org.hmsim.platform.gpu.cache.L2Transactions.SWAP_WAIT;

/**
 * What an L2 slice's l2-miss-path policy adds to the conventional miss path (seed 003): the fetch-replacement cache
 * (FRC, §M7) with its fetch, arrival and swap into the L2 way, the victim cache (Ch. 6.4.3 / 6.6), and posted
 * write-backs. The geometry follows the policy at the first miss after a change.
 */
final class L2MissPath extends L2SlicePart {
    private final L2MissPathPolicy missPath;
    private final int mshrs;
    private final long periodPs, latencyPs;
    private L2Fetch fetch;
    private L2WriteBack wb;
    private L2Flush flush;

    /** The victims FRC entries are evicting (FRC_EVICT), by line: a request for one waits as for a locked way. */
    LongIntMap evictingByLine;
    FetchReplacementCache frc;
    VictimCache vc;
    long swapPs, frcLookupPs, vcPs;
    int swapWaiting;
    /** The l2-miss-path's {@link L2MissPathPolicy#postsWriteBacks()}: a victim leaves at once, the fetch does not wait. */
    boolean posted;

    L2MissPath(L2Slice slice) {
        super(slice);
        this.missPath = slice.missPath;
        this.mshrs = slice.mshrs;
        this.periodPs = slice.periodPs;
        this.latencyPs = slice.latencyPs;
        this.frcLookupPs = periodPs;
        this.vcPs = periodPs; // seed 003 §6.6: the VC's access time is taken as the FRC's (1 cycle)
    }

    void wire(L2Fetch fetch, L2WriteBack wb, L2Flush flush) {
        this.fetch = fetch;
        this.wb = wb;
        this.flush = flush;
    }

    /**
     * Follows the miss-path policy's FRC geometry (entries, ways, swap cycles) and whether it posts write-backs. The
     * geometry only while no FRC entry is busy: the entries in use keep the geometry they were allocated in until they drain.
     */
    void configure() {
        posted = missPath.postsWriteBacks();
        int vcl = missPath.victimCacheLines();
        // the victim cache's lines are clean (written back as they entered): it can change at any time
        if (vcl != (vc == null ? 0 : vc.capacity)) vc = vcl <= 0 ? null : new VictimCache(vcl);
        int n = missPath.fetchBuffersPerBank();
        int ways = missPath.fetchBufferWays();
        boolean local = missPath.fetchBufferBankLocalIndex(), takesMshr = missPath.fetchBufferTakesMshr();
        if (n == (frc == null ? 0 : frc.entries) && (frc == null || ((ways == 0 || Math.min(ways, n) == frc.ways)
                && local == frc.bankLocalIndex && takesMshr == frc.takesMshr))) {
            swapPs = (long) missPath.swapCycles() * periodPs;
            return;
        }
        if (frc != null && frc.busy() > 0) return;
        swapPs = (long) missPath.swapCycles() * periodPs;
        if (n <= 0) {
            frc = null;
            return;
        }
        frc = new FetchReplacementCache(n, ways, t.lineBytes, local, takesMshr);
        evictingByLine = new LongIntMap(n); // no entry is busy here, so none is evicting
        tx.grow(mshrs + n);
        tx.reindex(mshrs + n);
    }

    /** Whether a conventional miss's victim leaves at once (posted write-backs; not with fetch buffers or a victim cache). */
    boolean postsNow() { return posted && vc == null && frc == null; }

    /**
     * Whether an FRC entry is evicting this line (after the swap). The thesis describes hits on the incoming block
     * only (§M7, ambiguity 3): a request for the victim waits for its eviction, as one for the conventional path's
     * locked victim does (§M6), instead of fetching the line again while its write-back is in flight.
     */
    boolean evictedFromFrc(long line) { return frc != null && evictingByLine.size() > 0 && evictingByLine.get(line) >= 0; }

    /** The address an FRC set is taken from: within the bank, or as the L2 bank's own index takes it (Multi2Sim's caches). */
    long frcLine(long line) { return frc.bankLocalIndex ? xbar.addressWithinSlice(line) : t.lineNumberForIndex(line) * t.lineBytes; }

    /** An FRC miss (§M7 step 4): the fetch leaves at once (after the L2 and FRC tag look-ups); no victim yet. */
    void frcFetch(MemRequest r, long line, int set, int e, int need) {
        int m = tx.init(mshrs + e, line, set, -1, e);
        if (frc.takesMshr) { // §8 q1, the other reading: the entry's fetch also holds an MSHR until it arrives
            tx.heldMshr[m] = tx.takeMshr();
        }
        st.misses++;
        st.frcMisses++;
        tx.addWaiter(m, r);
        fetch.startFetch(m, need, latencyPs + frcLookupPs);
    }

    // ---------------------------------------------------------------- FRC arrival and swap (§M7 step 4)

    /** The block is in the FRC entry: its requests are answered from there, then the swap starts. */
    void frcArrived(int m) {
        long now = engine.now();
        if (tx.heldMshr[m] >= 0) {
            tx.returnMshr(tx.heldMshr[m]);
            tx.heldMshr[m] = -1;
            slice.unblockIfBlocked();
        }
        long sh = 0;
        int base = tx.waiterBase(m);
        for (int k = 0; k < tx.count[m]; k++) {
            MemRequest r = tx.waiters[base + k];
            if (r.kind != AccessKind.ATOMIC && r.sm >= 0) sh |= 1L << (r.sm & 63);
        }
        fetch.answer(m, 0, -1, now);
        st.missLatencyPs += now - tx.allocPs[m];
        st.missesCompleted++;
        tx.sharers[m] = sh; // the incoming line's L1 sharers, given to its way at the swap
        beginSwap(m);
    }

    /** A way of {@code set} was released: the FRC entries waiting to swap into it go on, oldest entry first. */
    void resumeSwaps(int set) {
        int n = mshrs + (frc == null ? 0 : frc.entries);
        for (int m = mshrs; m < n && swapWaiting > 0; m++) {
            if (tx.phase[m] != SWAP_WAIT || tx.set[m] != set) continue;
            swapWaiting--;
            if (!beginSwap(m)) break;
        }
    }

    /**
     * Chooses the victim now (LRU at swap time: the victim lived on while the fetch was in flight) and swaps
     * it with the entry in {@code swapCycles}. If every way of the set is transient the entry waits.
     */
    boolean beginSwap(int m) {
        int set = tx.set[m];
        int way = t.freeWay(set);
        if (way < 0) {
            long cand = t.candidates(set);
            if (cand == 0) {
                tx.phase[m] = SWAP_WAIT;
                swapWaiting++;
                return false;
            }
            way = wb.victimWay(set, cand);
            wb.lockVictim(m, set * t.ways + way);
        } else t.locked[set * t.ways + way] = true;
        tx.way[m] = way;
        tx.phase[m] = SWAP;
        st.swaps++;
        engine.schedule(engine.now() + swapPs, slice, L2Slice.EV_SWAP_DONE, m);
        return true;
    }

    /** The incoming block is in the L2 way, the victim in the entry: requests merged meanwhile are answered. */
    void swapDone(int m) {
        long now = engine.now();
        int set = tx.set[m], way = tx.way[m];
        int i = set * t.ways + way;
        t.setTag(i, tx.line[m]);
        t.valid[i] = tx.pending[m] | tx.write[m];
        t.dirty[i] = tx.write[m];
        sharers[i] = tx.sharers[m];
        t.locked[i] = false;
        repl.onFill(set, way, tx.line[m], tx.store[m] ? AccessKind.WRITE : AccessKind.READ);
        fetch.answer(m, tx.served[m], i, now);
        if (tx.drop[m]) flush.dropWay(i, tx.line[m]); // its frame was evicted meanwhile (dropRange)
        tx.byLine.remove(tx.line[m]);
        slice.releaseSet(set);
        if (tx.victim[m] == -1) {
            slice.freeTx(m);
            return;
        }
        tx.phase[m] = FRC_EVICT;
        evictingByLine.put(tx.victim[m], m);
        wb.evictVictim(m);
    }
}
