package org.hmsim.platform.cpu;

/**
 * The CPU's caches: per core a private L1 and L2, and a shared LLC that is inclusive of them and keeps,
 * per line, which cores hold it privately (the cluster's own snoop filter). States are MOESI
 * (seed 001 §2). The private L2 holds a core's state; the L1 is inclusive in the L2 and only records
 * presence (a hit needs the L2's permission). The LLC's state is the cluster's state as the CPU–GPU
 * directory sees it: M/E = the cluster holds the line exclusively, O/S = possibly shared.
 *
 * <p>Accesses are resolved functionally when issued (state changes at once) and return a latency in CPU
 * cycles; misses and upgrades need the directory (the caller sends them and calls {@link #complete}
 * when permission and data arrive). Evicted dirty lines and dropped lines are reported to
 * {@link Evictions}.
 */
public final class CpuCluster {
    /** Where lines leaving the cluster are reported: dirty data to write back, and the directory's CPU bit. */
    public interface Evictions {
        void writeback(long line);

        void dropped(long line);
    }

    /**
     * The LLC's miss registers, which hold the lines whose fill is in flight (the L1, L2 and LLC take a line together
     * when its fill arrives, {@link #complete}, so the miss registers are the only place a pending fill lives).
     */
    public interface PendingFills {
        /**
         * A probe met {@code line}: if a fill the directory has already granted is in flight for it, the miss register
         * remembers the probe (the fill will leave the line invalid, or downgraded) and this returns the state the fill
         * brings ({@link Moesi#M} for a store, {@link Moesi#S} for a load); {@link Moesi#I} if no granted fill is in flight.
         */
        int probed(long line, boolean invalidate);

        /** As {@link #probed}, without remembering anything: the state a granted fill in flight brings. */
        int held(long line);
    }

    /** {@link #access} outcomes. */
    public static final int HIT = 0, MISS = 1, UPGRADE = 2;

    final int cores, lineBytes;
    private final SetAssocTags[] l1, l2;
    private final SetAssocTags llc;
    private final byte[] llcCores;
    private final int l1Lat, l2Lat, llcLat;
    private Evictions evictions;
    private PendingFills pending = new PendingFills() {
        @Override public int probed(long line, boolean invalidate) { return Moesi.I; }

        @Override public int held(long line) { return Moesi.I; }
    };
    /** Latency (CPU cycles) of the last {@link #access} up to the point where the directory is asked. */
    public int lastLatencyCycles;
    long l1Hits, l2Hits, llcHits, llcMisses, upgrades, snoops, llcWritebacks, probesIn, probeInvalidations, probeDirtyData;

    public CpuCluster(CpuConfig cfg, int lineBytes, Evictions evictions) {
        this.cores = cfg.cores();
        this.lineBytes = lineBytes;
        this.evictions = evictions;
        l1 = new SetAssocTags[cores];
        l2 = new SetAssocTags[cores];
        for (int c = 0; c < cores; c++) {
            l1[c] = new SetAssocTags(cfg.l1().sets(lineBytes), cfg.l1().ways(), lineBytes);
            l2[c] = new SetAssocTags(cfg.l2().sets(lineBytes), cfg.l2().ways(), lineBytes);
        }
        llc = new SetAssocTags(cfg.llc().sets(lineBytes), cfg.llc().ways(), lineBytes);
        llcCores = new byte[llc.tag.length];
        l1Lat = cfg.l1().latencyCycles();
        l2Lat = cfg.l2().latencyCycles();
        llcLat = cfg.llc().latencyCycles();
    }

    void setEvictions(Evictions e) { this.evictions = e; }

    void setPendingFills(PendingFills p) { this.pending = p; }

    /**
     * A load ({@code write == false}) or store of {@code core} to {@code line}: {@link #HIT}, {@link #MISS} or {@link
     * #UPGRADE}. A hit is counted here; a miss or upgrade only when the caller sends it ({@link #countSent}), since it
     * may merge into one in flight or find no miss register and come back.
     */
    public int access(int core, long line, boolean write) { return access(core, line, write, true); }

    /** {@link #access}, counting a hit only if {@code count} (a merged access's look-up at its fill: counted as merged). */
    public int access(int core, long line, boolean write, boolean count) {
        int p = l2[core].find(line);
        int ps = p < 0 ? Moesi.I : l2[core].state[p];
        if (ps != Moesi.I && (!write || Moesi.writable(ps))) {
            boolean inL1 = l1[core].find(line) >= 0;
            lastLatencyCycles = inL1 ? l1Lat : l1Lat + l2Lat;
            if (!inL1) fillL1(core, line);
            if (count && inL1) l1Hits++;
            else if (count) l2Hits++;
            l2[core].touch(p);
            if (write && ps == Moesi.E) {
                l2[core].state[p] = Moesi.M; // silent E -> M
                int s = llc.find(line);
                llc.state[s] = Moesi.M;
            }
            return HIT;
        }
        lastLatencyCycles = l1Lat + l2Lat + llcLat;
        int s = llc.find(line);
        if (s < 0) return MISS;
        int cs = llc.state[s];
        if (write && !Moesi.writable(cs)) return UPGRADE;
        if (count) llcHits++;
        llc.touch(s);
        fillPrivate(core, line, s, write, Moesi.writable(cs));
        return HIT;
    }

    /** A {@link #MISS} or {@link #UPGRADE} its caller sent to the directory. */
    public void countSent(int result) {
        if (result == UPGRADE) upgrades++;
        else llcMisses++;
    }

    /** The directory granted {@code line} to {@code core}: exclusive (no other agent holds it) or shared. */
    public void complete(int core, long line, boolean write, boolean exclusive) {
        int s = llc.find(line);
        if (s < 0) s = allocateLlc(line);
        llc.state[s] = (byte) (write ? Moesi.M : exclusive ? Moesi.E : (Moesi.dirty(llc.state[s]) ? Moesi.O : Moesi.S));
        llc.touch(s);
        fillPrivate(core, line, s, write, write || exclusive);
    }

    /** Whether the cluster holds {@code line} (its LLC state, {@link Moesi#I} if absent). */
    public int state(long line) {
        int s = llc.find(line);
        return s < 0 ? Moesi.I : llc.state[s];
    }

    /**
     * The cluster's state of {@code line} as a probe would find it: {@link #state}, or the state a fill the directory has
     * granted brings while it is in flight (what {@link #probe} answers).
     */
    public int probeState(long line) {
        int fill = pending.held(line);
        int st = state(line);
        return st == Moesi.I || fill == Moesi.M ? fill == Moesi.I ? st : fill : st;
    }

    /** The private state of {@code line} in {@code core}'s L2. */
    public int privateState(int core, long line) {
        int p = l2[core].find(line);
        return p < 0 ? Moesi.I : l2[core].state[p];
    }

    /**
     * A probe from the directory: invalidate, or downgrade (M to O, E to S) everywhere in the cluster.
     * Returns the cluster's prior state; a dirty prior state means the cluster supplies the data.
     */
    public int probe(long line, boolean invalidate) {
        probesIn++;
        // A line whose fill is in flight is held too, though not yet in the tag arrays: the directory recorded the
        // grant at its lookup and a probe or recall ordered after it (another block's lookup evicting the entry, a GPU
        // read, a page flush) used to find I here, so the directory dropped the CPU's bit while the fill then installed
        // the line untracked (a 1-entry directory: the CPU rewrote 1,023 of 1,024 lines as L1 hits in M, and the GPU read
        // memory). As a real cache's miss register does (a probe in a transient state, IM_AD -> IM_AD_I), the pending
        // fill remembers the probe and answers it with the state it brings; the fill then completes its accesses and
        // leaves the line invalid, or downgraded (CpuSide.onResponse).
        int fill = pending.probed(line, invalidate);
        int s = llc.find(line);
        if (s < 0 && fill == Moesi.I) return Moesi.I;
        int prior = s < 0 || fill == Moesi.M ? fill : llc.state[s];
        if (Moesi.dirty(prior)) probeDirtyData++;
        if (s < 0) {
            if (invalidate) probeInvalidations++;
            return prior;
        }
        if (invalidate) {
            probeInvalidations++;
            dropPrivates(line, llcCores[s]);
            llcCores[s] = 0;
            llc.clear(s);
            return prior;
        }
        llc.state[s] = downgrade(prior);
        for (int c = 0; c < cores; c++) {
            if ((llcCores[s] & (1 << c)) == 0) continue;
            int p = l2[c].find(line);
            if (p >= 0) l2[c].state[p] = downgrade(l2[c].state[p]);
        }
        return prior;
    }

    /** A fill that a downgrade probe met while in flight took {@code line}: it keeps it shared (M to O, E to S). */
    void downgradeFilled(long line) {
        int s = llc.find(line);
        if (s < 0) return;
        llc.state[s] = downgrade(llc.state[s]);
        for (int c = 0; c < cores; c++) {
            if ((llcCores[s] & (1 << c)) == 0) continue;
            int p = l2[c].find(line);
            if (p >= 0) l2[c].state[p] = downgrade(l2[c].state[p]);
        }
    }

    /** Writes back and invalidates the lines of [{@code first}, {@code first + bytes}); returns the lines written back. */
    public int flushRange(long first, long bytes) { return flushRange(first, bytes, null); }

    /** As {@link #flushRange(long, long)}, adding the lines it found held to {@code held[0]} (null: not counted). */
    public int flushRange(long first, long bytes, int[] held) {
        int dirty = 0;
        for (long line = first; line < first + bytes; line += lineBytes) {
            int prior = probe(line, true);
            if (prior == Moesi.I) continue;
            if (held != null) held[0]++;
            evictions.dropped(line);
            if (Moesi.dirty(prior)) {
                evictions.writeback(line);
                dirty++;
            }
        }
        return dirty;
    }

    /** Writes back and invalidates every line (the SAHC-T flush at the first kernel launch); returns the lines written back. */
    public int flushAll() {
        int dirty = 0;
        for (int s = 0; s < llc.tag.length; s++) {
            if (!llc.valid(s)) continue;
            long line = llc.line(s);
            int prior = llc.state[s];
            dropPrivates(line, llcCores[s]);
            llcCores[s] = 0;
            llc.clear(s);
            evictions.dropped(line);
            if (Moesi.dirty(prior)) {
                evictions.writeback(line);
                dirty++;
            }
        }
        return dirty;
    }

    /** Valid LLC lines (the cluster is inclusive: every line any core holds). */
    public long validLines() {
        long n = 0;
        for (int s = 0; s < llc.tag.length; s++) if (llc.valid(s)) n++;
        return n;
    }

    private static byte downgrade(int s) {
        return (byte) (s == Moesi.M ? Moesi.O : s == Moesi.E ? Moesi.S : s);
    }

    private int allocateLlc(long line) {
        int s = llc.victim(line);
        if (llc.valid(s)) {
            long v = llc.line(s);
            int vs = llc.state[s];
            dropPrivates(v, llcCores[s]); // inclusive LLC: back-invalidate the private copies
            llcCores[s] = 0;
            llc.clear(s);
            evictions.dropped(v);
            if (Moesi.dirty(vs)) {
                llcWritebacks++;
                evictions.writeback(v);
            }
        }
        llc.fill(s, line, Moesi.I);
        return s;
    }

    /** Gives {@code core} the line held in LLC slot {@code s}, keeping the other cores coherent (MOESI within the cluster). */
    private void fillPrivate(int core, long line, int s, boolean write, boolean clusterExclusive) {
        int others = llcCores[s] & ~(1 << core);
        int mine;
        if (write) {
            if (others != 0) {
                snoops++;
                lastLatencyCycles += llcLat;
                dropPrivates(line, others);
                llcCores[s] &= (byte) ~others;
            }
            mine = Moesi.M;
            llc.state[s] = Moesi.M;
        } else if (others != 0) {
            snoops++;
            lastLatencyCycles += llcLat;
            for (int c = 0; c < cores; c++) {
                if ((others & (1 << c)) == 0) continue;
                int p = l2[c].find(line);
                if (p >= 0) l2[c].state[p] = downgrade(l2[c].state[p]);
            }
            mine = Moesi.S;
        } else mine = clusterExclusive ? Moesi.E : Moesi.S;
        SetAssocTags t = l2[core];
        int p = t.find(line);
        if (p < 0) {
            p = t.victim(line);
            if (t.valid(p)) evictPrivate(core, t.line(p));
            t.fill(p, line, mine);
        } else {
            t.state[p] = (byte) mine;
            t.touch(p);
        }
        fillL1(core, line);
        llcCores[s] |= (byte) (1 << core);
    }

    private void fillL1(int core, long line) {
        SetAssocTags t = l1[core];
        if (t.find(line) >= 0) return;
        int v = t.victim(line);
        t.fill(v, line, Moesi.S); // presence only: the L2 holds the state
    }

    /** A private L2 victim leaves the core (its dirty data stays in the LLC, which is already M/O). */
    private void evictPrivate(int core, long line) {
        int a = l1[core].find(line);
        if (a >= 0) l1[core].clear(a);
        int p = l2[core].find(line);
        if (p >= 0) l2[core].clear(p);
        int s = llc.find(line);
        if (s >= 0) llcCores[s] &= (byte) ~(1 << core);
    }

    private void dropPrivates(long line, int mask) {
        for (int c = 0; c < cores; c++) {
            if ((mask & (1 << c)) == 0) continue;
            int a = l1[c].find(line);
            if (a >= 0) l1[c].clear(a);
            int p = l2[c].find(line);
            if (p >= 0) l2[c].clear(p);
        }
    }
}
