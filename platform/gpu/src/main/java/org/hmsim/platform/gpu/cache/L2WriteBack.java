package org.hmsim.platform.gpu.cache;

import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.gpu.CacheConfig;

import static org.hmsim.platform.gpu.cache.L2Transactions.FRC_EVICT;

/**
 * An L2 slice's eviction path (seed 003 §M6 steps 3-4, and §M7 after an FRC swap): choosing and locking the victim,
 * invalidating its L1 copies (a crossbar round trip, or acknowledgement messages), writing a dirty victim back and
 * waiting for the acknowledgement (or only a notice for a clean one), then handing the way to the new line. Also the
 * posted write-backs nobody waits for (a posted-write-back miss path's victims, a victim cache's dirty entries, writes
 * that leave no line).
 */
final class L2WriteBack extends L2SlicePart {
    /** Set in a write-back's tag: it is the acknowledged write-back of transaction (tag & mask). */
    static final long WB_ACK = 1L << 40;

    private final String name;
    private final RequestPool pool;
    private final CacheConfig cfg;
    private final int gpu, index;
    private final long latencyPs, invalidatePs;
    private final L2Ports ports;
    private L2Fetch fetch;
    private L2MissPath mp;

    L2WriteBack(L2Slice slice) {
        super(slice);
        this.name = slice.name;
        this.pool = slice.pool;
        this.cfg = slice.cfg;
        this.gpu = slice.gpu;
        this.index = slice.index;
        this.latencyPs = slice.latencyPs;
        this.invalidatePs = slice.invalidatePs;
        this.ports = slice.ports;
    }

    void wire(L2Fetch fetch, L2MissPath mp) {
        this.fetch = fetch;
        this.mp = mp;
    }

    /**
     * Way {@code i}'s line leaves now ({@link L2MissPathPolicy#postsWriteBacks()}): a dirty one's write-back is posted,
     * the L1 copies dropped without a wait (as GPGPU-Sim's L2 evicts: no inclusion is kept with the L1s there).
     */
    void evictPosted(int i) {
        st.evictions++;
        int dirty = t.dirty[i];
        if (sharers[i] != 0) {
            dirty |= slice.upper.invalidate(t.tag[i], sharers[i]);
            st.invalidations++;
        }
        if (dirty != 0) postWrite(t.tag[i], dirty);
    }

    /** Chooses a replacement victim among {@code cand} (valid, unlocked ways). */
    int victimWay(int set, long cand) {
        int way;
        if (repl.observesUpperCopies()) {
            long upper = 0;
            for (long c = cand; c != 0; c &= c - 1) {
                int w = Long.numberOfTrailingZeros(c);
                if (sharers[set * t.ways + w] != 0) upper |= 1L << w;
            }
            way = repl.victim(set, cand, upper);
        } else way = repl.victim(set, cand);
        return VictimChoice.checked(name, set, way, t.ways, cand);
    }

    /** Way {@code i}'s line becomes transaction {@code m}'s victim: locked, its state remembered for the eviction. */
    void lockVictim(int m, int i) {
        tx.victim[m] = t.tag[i];
        tx.victimDirty[m] = t.dirty[i];
        tx.victimSharers[m] = sharers[i];
        t.locked[i] = true;
        st.evictions++;
    }

    /** A write-back of {@code sectors} of {@code line} to memory; nobody waits for it. */
    void postWrite(long line, int sectors) {
        MemRequest w = writeBack(line, sectors);
        ports.sendNow(w);
    }

    /**
     * A write-back of {@code sectors} of {@code line}. No sectors (a clean victim under {@code evict_notice}) is an
     * eviction notice: a header-only write-back the memory side acknowledges without a DRAM access, as Multi2Sim 4.2's
     * NMOESI sends a clean (E/S) block's eviction to the lower-level directory, which locks its entry for its access
     * latency before replying ({@code mod_handler_nmoesi_evict}; the FRC thesis group's fork replies at once for
     * main memory).
     */
    private MemRequest writeBack(long line, int sectors) {
        MemRequest w = pool.take();
        w.kind = AccessKind.WRITEBACK;
        w.paddr = line;
        w.sectorMask = sectors;
        w.size = SectorTags.SECTOR_BYTES * Integer.bitCount(sectors);
        w.pool = PhysicalAddress.pool(line);
        w.gpu = gpu;
        w.createdPs = engine.now();
        if (sectors == 0) st.evictNotices++;
        else {
            st.writebacks++;
            st.writebackBytes += w.size;
        }
        return w;
    }

    // ---------------------------------------------------------------- eviction (§M6 steps 3-4; §M7 after the swap)

    /** The victim's L1 copies are invalidated first (a crossbar round trip), if any SM read it. */
    void evictVictim(int m) {
        long sh = tx.victimSharers[m];
        if (sh == 0) {
            writeBackVictim(m);
            return;
        }
        st.invalidations++;
        if (cfg.invalidationMessages()) {
            tx.invPending[m] = xbar.invalidate(index, tx.victim[m], sh, slice, m);
            if (tx.invPending[m] == 0) writeBackVictim(m); // no SM port behind the bits (defensive: sharers come from SMs)
            return;
        }
        tx.victimDirty[m] |= slice.upper.invalidate(tx.victim[m], sh);
        engine.schedule(engine.now() + invalidatePs, slice, L2Slice.EV_INV_DONE, m);
    }

    /** An L1's acknowledgement arrived, with the dirty sectors its copy held: the victim takes them (written back). */
    void invalidationAcked(int m, int dirty) {
        tx.victimDirty[m] |= dirty;
        if (--tx.invPending[m] == 0) writeBackVictim(m);
    }

    /** Then a dirty victim is written back, and the eviction waits for the write's acknowledgement. */
    void writeBackVictim(int m) {
        if (mp.vc != null && tx.phase[m] != FRC_EVICT) {
            // into the victim cache (1 cycle); a dirty victim's write-back leaves as it enters, posted
            mp.vc.insert(tx.victim[m], t.valid[tx.set[m] * t.ways + tx.way[m]]);
            st.vcInserts++;
            if (tx.victimDirty[m] != 0) postWrite(tx.victim[m], tx.victimDirty[m]);
            engine.schedule(engine.now() + mp.vcPs, slice, L2Slice.EV_VC_IN, m);
            return;
        }
        if (tx.victimDirty[m] == 0 && !cfg.evictNotice()) {
            victimWritten(m);
            return;
        }
        MemRequest w = writeBack(tx.victim[m], tx.victimDirty[m]);
        w.replyTo = slice;
        w.tag = WB_ACK | m;
        ports.sendNow(w);
    }

    /** The victim has left: an FRC entry is free again; a conventional way takes its new line. */
    void victimWritten(int m) {
        if (tx.phase[m] == FRC_EVICT) {
            mp.evictingByLine.remove(tx.victim[m]);
            slice.freeTx(m);
            slice.releaseSet(tx.set[m]); // requests for the victim waited for it to leave
            return;
        }
        long now = engine.now();
        int set = tx.set[m];
        int i = set * t.ways + tx.way[m];
        slice.claim(i, tx.line[m]);
        if (tx.store[m]) {
            fetch.complete(m);
            return;
        }
        st.evictLatencyPs += now - tx.allocPs[m] - latencyPs;
        fetch.startFetch(m, tx.want[m], 0);
        slice.releaseSet(set); // requests waiting for the victim's own line may now miss on it
    }
}
