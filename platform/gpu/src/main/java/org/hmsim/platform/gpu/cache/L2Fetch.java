package org.hmsim.platform.gpu.cache;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.platform.engine.PhysicalAddress;

import static org.hmsim.platform.gpu.cache.L2Transactions.FETCH;

/**
 * An L2 slice's fetch path to memory and its fills: a miss's fetch of the missing sectors (from the victim cache
 * first, if it holds them), widening a no-line fetch before it leaves (seed 000 §6.2.2.3), the responses, and the
 * fill that installs the line, answers the merged requests and releases the way. Also the memory-level parallelism
 * (fetches in flight) integrated over time.
 */
final class L2Fetch extends L2SlicePart {
    private final RequestPool pool;
    private final CoherencePolicy coherence;
    private final int gpu, index;
    private final L2Ports ports;
    private L2WriteBack wb;
    private L2MissPath mp;
    private L2Flush flush;
    // memory-level parallelism: fetches in flight, integrated over time, and the time any was in flight
    private int fetchesInFlight;
    private long mlpIntegral, mlpBusyPs, mlpLastPs;

    L2Fetch(L2Slice slice) {
        super(slice);
        this.pool = slice.pool;
        this.coherence = slice.coherence;
        this.gpu = slice.gpu;
        this.index = slice.index;
        this.ports = slice.ports;
    }

    void wire(L2WriteBack wb, L2MissPath mp, L2Flush flush) {
        this.wb = wb;
        this.mp = mp;
        this.flush = flush;
    }

    void startFetch(int m, int sectors, long delayPs) {
        tx.phase[m] = FETCH;
        int have = tx.vc[m];
        if (have != 0) { // from the victim cache (its access after the tag look-ups), the rest from memory
            tx.pending[m] |= have;
            tx.outstanding[m]++;
            engine.schedule(engine.now() + delayPs + mp.vcPs, slice, L2Slice.EV_VC_FILL, m);
            sectors &= ~have;
            if (sectors == 0) return;
        }
        tx.fetchPs[m] = engine.now() + delayPs;
        mlpTick();
        fetchesInFlight++;
        fetch(m, sectors, delayPs);
    }

    void fetch(int m, int sectors, long delayPs) {
        MemRequest d = pool.take();
        d.kind = AccessKind.READ;
        d.paddr = tx.line[m];
        d.sectorMask = sectors;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        d.pool = PhysicalAddress.pool(d.paddr);
        d.gpu = gpu;
        d.replyTo = slice;
        d.tag = m;
        d.createdPs = engine.now();
        tx.pending[m] |= sectors;
        tx.outstanding[m]++;
        st.sectorMisses += Integer.bitCount(sectors);
        st.fetchBytes += d.size;
        if (tx.way[m] < 0 && tx.frc[m] < 0) tx.unsent[m] = d;
        ports.sendAt(d, engine.now() + delayPs + coherence.onLastLevelMiss(d));
    }

    /** Adds {@code extra} sectors to transaction {@code m}'s fetch if it is still in this slice; false if it left. */
    boolean widenUnsent(int m, int extra) {
        MemRequest d = tx.unsent[m];
        if (d == null) return false;
        d.sectorMask |= extra;
        d.size = SectorTags.SECTOR_BYTES * Integer.bitCount(d.sectorMask);
        tx.pending[m] |= extra;
        st.sectorMisses += Integer.bitCount(extra);
        st.fetchBytes += SectorTags.SECTOR_BYTES * Integer.bitCount(extra);
        st.widenedFetches++;
        return true;
    }

    void onResponse(MemRequest d) {
        int m = (int) (d.tag & 0xFFFF_FFFFL);
        boolean wbAck = (d.tag & L2WriteBack.WB_ACK) != 0;
        int sectors = d.sectorMask;
        pool.give(d);
        if (wbAck) {
            wb.victimWritten(m);
            return;
        }
        int way = tx.way[m];
        if (tx.frc[m] < 0 && way >= 0) t.valid[tx.set[m] * t.ways + way] |= sectors;
        if (--tx.outstanding[m] > 0) {
            if (tx.frc[m] < 0 && way < 0 && tx.phase[m] == FETCH) answerArrived(m, sectors);
            return;
        }
        fetched(m);
    }

    /** Every part of transaction {@code m}'s data has arrived. */
    private void fetched(int m) {
        if (tx.fetchPs[m] >= 0) { // a memory fetch (not only the victim cache's sectors)
            mlpTick();
            fetchesInFlight--;
            st.fetchLatencyPs += engine.now() - tx.fetchPs[m];
            st.fetchesTimed++;
        }
        if (tx.frc[m] >= 0) mp.frcArrived(m);
        else complete(m);
    }

    /** The victim cache's sectors of {@code m}'s line are back in its way. */
    void vcFilled(int m) {
        int have = tx.vc[m];
        tx.vc[m] = 0;
        if (tx.way[m] >= 0) t.valid[tx.set[m] * t.ways + tx.way[m]] |= have;
        if (--tx.outstanding[m] > 0) return;
        fetched(m);
    }

    /** The conventional fill (or a store's install after its eviction): the way is released. */
    void complete(int m) {
        long now = engine.now();
        int set = tx.set[m], way = tx.way[m];
        int i = way < 0 ? -1 : set * t.ways + way;
        if (i >= 0) {
            t.valid[i] |= tx.write[m];
            t.dirty[i] |= tx.write[m];
            t.locked[i] = false;
            AccessKind kind = tx.store[m] ? AccessKind.WRITE : AccessKind.READ;
            // more sectors of a line the way held: the line was referenced again, not filled anew (a replacement trial's
            // RRIP re-inserted hot lines at every sector miss: 51,385 of kmeans' 69,340 "fills")
            if (tx.refill[m]) repl.onHit(set, way, tx.line[m], kind, tx.count[m] == 0 ? -1 : tx.waiters[tx.waiterBase(m)].sm);
            else repl.onFill(set, way, tx.line[m], kind);
        } else if (tx.write[m] != 0) wb.postWrite(tx.line[m], tx.write[m]);
        answer(m, 0, i, now);
        if (tx.drop[m] && i >= 0) flush.dropWay(i, tx.line[m]); // its frame was evicted meanwhile (dropRange)
        if (!tx.store[m]) {
            st.missLatencyPs += now - tx.allocPs[m];
            st.missesCompleted++;
        }
        if (tx.byLine.get(tx.line[m]) == m) tx.byLine.remove(tx.line[m]); // an uncoalesced one is not in the map
        slice.freeTx(m);
        if (i >= 0) slice.releaseSet(set);
    }

    /**
     * Part of a no-line transaction's sectors arrived (§6.2.2.3): its reads whose sectors are all in are answered
     * now and leave their merge slots free (such a transaction can live through several sub-block fetches).
     */
    private void answerArrived(int m, int sectors) {
        int have = tx.arrived[m] |= sectors, base = tx.waiterBase(m), kept = 0, n = tx.count[m];
        long now = engine.now();
        for (int k = 0; k < n; k++) {
            MemRequest r = tx.waiters[base + k];
            tx.waiters[base + k] = null;
            if (r == null) continue;
            int need = r.sectorMask == 0 ? t.fullMask : r.sectorMask & t.fullMask;
            if (r.kind == AccessKind.READ && (need & ~have) == 0) xbar.respond(index, r, now);
            else tx.waiters[base + kept++] = r;
        }
        tx.count[m] = kept;
        if (kept < n) slice.unblockIfBlocked();
    }

    /** Answers waiters {@code from..} of {@code m}; {@code i} is the line's way (-1: data only in the FRC entry). */
    void answer(int m, int from, int i, long now) {
        int base = tx.waiterBase(m);
        for (int k = from; k < tx.count[m]; k++) {
            MemRequest r = tx.waiters[base + k];
            if (r == null) continue; // answered when its sectors arrived
            tx.waiters[base + k] = null;
            if (r.kind == AccessKind.ATOMIC) {
                int mask = r.sectorMask == 0 ? t.fullMask : r.sectorMask;
                if (i >= 0) t.dirty[i] |= mask;
                else if (tx.frc[m] >= 0) tx.write[m] |= mask;
                else wb.postWrite(tx.line[m], mask);
            } else if (r.sm >= 0 && i >= 0) sharers[i] |= 1L << (r.sm & 63); // FRC: recorded at the swap
            xbar.respond(index, r, now);
        }
        tx.served[m] = tx.count[m];
    }

    private void mlpTick() {
        long now = engine.now();
        if (fetchesInFlight > 0) {
            mlpIntegral += fetchesInFlight * (now - mlpLastPs);
            mlpBusyPs += now - mlpLastPs;
        }
        mlpLastPs = now;
    }

    /** Integral of fetches in flight over time, and the time any fetch was in flight (MLP = ratio), ps. */
    long mlpIntegralPs() {
        mlpTick();
        return mlpIntegral;
    }

    long mlpBusyPs() {
        mlpTick();
        return mlpBusyPs;
    }
}
