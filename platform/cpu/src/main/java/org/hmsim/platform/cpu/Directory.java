package org.hmsim.platform.cpu;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.engine.PhysicalAddress;

/**
 * The block-grain, inclusive CPU–GPU directory between the CPU LLC and the GPU L2 (seed 001 §2, "M0"):
 * one entry per cached block with a 2-bit sharer vector {CPU, GPU}. GPU L2 misses enter through
 * {@link #tryAccept} (the directory stands where the GPU's fabric was), CPU LLC misses through
 * {@link #cpuRequest}. For each miss the coherence slot chooses the path ({@link CoherencePolicy#missPath}):
 *
 * <ul>
 * <li>{@code PATH_MEMORY}: straight to memory, no lookup (no coherence; SAHC's non-shared pages);</li>
 * <li>{@code PATH_IDEAL}: the directory's state changes and probes happen at once, at no cost (the
 *     seed's ideal coherence, the normalisation of its figures);</li>
 * <li>{@code PATH_DIRECTORY}: an MSHR is taken (refused when all are busy: back-pressure) and held until
 *     the request completes; requests to a block already in flight wait for it; the request queues at
 *     its bank (block number mod banks), which starts one lookup every {@code bankCycles}; after
 *     {@code lookupCycles} the entry is found or allocated (an inclusive directory recalls the victim's
 *     block from its sharers), remote copies are probed (GPU read: downgrade the CPU, which supplies
 *     dirty data; CPU write: invalidate the GPU; GPU write-back: invalidate the CPU), then memory is
 *     accessed (serially after the lookup, as the seed's baseline).</li>
 * </ul>
 *
 * GPU caches are write-through with VI states in the seed; hmsim's GPU L2 is write-back, so the GPU's
 * writes reach the directory as the L2's write-backs (which also clear the GPU bit: the block left the
 * L2), and the invalidation of the CPU's copies that each write-through write would cause is applied at
 * the store itself ({@link #gpuStored}, untimed). Clean GPU L2 evictions are silent, leaving stale GPU
 * bits (conservative: an extra probe). An invalidation probe to the GPU (CPU write, recall) drops the
 * block from the GPU L2 and L1s through {@link GpuProbeTarget}; a dirty L2 copy is written back by the
 * directory (it stands for the GPU writes the seed's write-through caches had already sent). A line
 * locked by a transaction in flight is left to it.
 */
public final class Directory implements MemSink, MemClient, EventTarget {
    /** {@link #cpuRequest} outcomes. */
    public static final int REFUSED = 0, ACCEPTED = 1, GRANTED_NOW = 2;
    static final int CPU_BIT = 1, GPU_BIT = 2;
    private static final int EV_BANK = 0, EV_LOOKUP = 1, EV_PROBED = 2, EV_FORWARDED = 3;
    /** GPU reads ideal coherence answers from the CPU's caches, in arrival order, each at once (an event, not inside tryAccept). */
    private final java.util.ArrayDeque<MemRequest> forwarded = new java.util.ArrayDeque<>();

    private final DirectoryConfig cfg;
    private final Engine engine;
    private final RequestPool pool;
    private final CoherencePolicy coherence;
    private final CpuCluster cluster;
    private final MemSink[] gpuMemory;
    private final MemSink cpuMemory;
    private final int lineBytes;
    private final long pageBytes;
    private final long bankPs, lookupPs, cpuProbePs, gpuProbePs;
    private final SetAssocTags entries;
    private final Outbound out;
    private final PageToggles toggles = new PageToggles();
    private GpuProbeTarget gpuProbes = line -> GpuProbeTarget.ABSENT;

    // MSHRs
    private final long[] mLine;
    private final int[] mAgent;
    private final MemRequest[] mUp;
    private final long[] mArrivePs, mQueuedPs;
    private final boolean[] mBlocked, mNeedMemory;
    private final int[] freeMshr;
    private int freeMshrs;
    // banks: FIFO rings of MSHR indices
    private final int[][] bankQueue;
    private final int[] bankHead, bankSize;
    private final long[] bankFreePs;
    private final boolean[] bankScheduled;
    private List<MemClient> refusedGpu = new ArrayList<>(), notifying = new ArrayList<>();
    private Runnable cpuRetry = () -> {};
    /** Told the {@code tag} of each CPU request as the directory grants it (its lookup; at once off the timed path). */
    private java.util.function.LongConsumer cpuGranted = tag -> {};
    /** CPU requests that found every MSHR busy, in arrival order, and whether the CPU has the next freed MSHR. */
    private final java.util.ArrayDeque<MemRequest> cpuWaiting = new java.util.ArrayDeque<>();
    private long cpuMshrWaitPs;
    private boolean cpuFirst = true;

    long lookups, entryHits, entryMisses, recalls, cpuProbes, gpuProbes_, invalidations, dataFromCpu, mshrRefusals,
            bypassed, idealLookups, queueDelayPs, maxQueueDelayPs, completed, totalLatencyPs, blockedOnLine, admitted, writebacksDone, dataFromGpu, gpuLinesDropped,
            storeInvalidations, storesLeftInFlight;
    private long mshrIntegral, lastChangePs;

    /** Invalidates a block in the GPU caches (a recall or an invalidation probe), if the GPU model can. */
    public interface GpuProbeTarget {
        int ABSENT = 0, CLEAN = 1, DIRTY = 2;

        /**
         * Drops {@code line} from every GPU's L2 and L1s; returns {@link #ABSENT}, {@link #CLEAN} or
         * {@link #DIRTY} (an L2 held it dirty: the probe's answer carries the data, which the directory
         * writes back to memory).
         */
        int invalidate(long line);
    }

    public Directory(DirectoryConfig cfg, ClockDomain cpuClock, Engine engine, RequestPool pool, CoherencePolicy coherence,
                     CpuCluster cluster, MemSink[] gpuMemory, MemSink cpuMemory, int lineBytes, long pageBytes) {
        this.cfg = cfg;
        this.engine = engine;
        this.pool = pool;
        this.coherence = coherence;
        this.cluster = cluster;
        this.gpuMemory = gpuMemory.clone();
        this.cpuMemory = cpuMemory;
        this.lineBytes = lineBytes;
        this.pageBytes = pageBytes;
        this.bankPs = cpuClock.ps(cfg.bankCycles());
        this.lookupPs = cpuClock.ps(cfg.lookupCycles());
        this.cpuProbePs = cpuClock.ps(cfg.cpuProbeCycles());
        this.gpuProbePs = cpuClock.ps(cfg.gpuProbeCycles());
        this.entries = new SetAssocTags(cfg.sets(), cfg.ways(), lineBytes);
        this.out = new Outbound(this);
        int n = cfg.mshrs();
        mLine = new long[n];
        mAgent = new int[n];
        mUp = new MemRequest[n];
        mArrivePs = new long[n];
        mQueuedPs = new long[n];
        mBlocked = new boolean[n];
        mNeedMemory = new boolean[n];
        freeMshr = new int[n];
        for (int i = 0; i < n; i++) freeMshr[i] = n - 1 - i;
        freeMshrs = n;
        bankQueue = new int[cfg.banks()][n];
        bankHead = new int[cfg.banks()];
        bankSize = new int[cfg.banks()];
        bankFreePs = new long[cfg.banks()];
        bankScheduled = new boolean[cfg.banks()];
    }

    public void setGpuProbeTarget(GpuProbeTarget t) { this.gpuProbes = t; }

    /**
     * Told each CPU request's {@code tag} when the directory grants it: from then on a probe or recall of its block is
     * ordered after the grant and must reach the fill in flight (see {@link CpuCluster#probe}); before it, the probe
     * meets the CPU's old state and the lookup to come sees the probe's result.
     */
    public void setCpuGranted(java.util.function.LongConsumer c) { this.cpuGranted = c; }

    /** Called when a refused CPU request may now be accepted. */
    public void setCpuRetry(Runnable r) { this.cpuRetry = r; }

    // ---------------------------------------------------------------- inputs

    /** A GPU L2 miss or write-back ({@code r.gpu} is the GPU). */
    @Override
    public boolean tryAccept(MemRequest r, MemClient from) {
        int agent = r.gpu < 0 ? 0 : r.gpu;
        long line = r.paddr & ~((long) lineBytes - 1);
        long page = r.paddr / pageBytes;
        int path = coherence.missPath(agent, page);
        if (path == CoherencePolicy.PATH_MEMORY) {
            if (!gpuMemory[agent].tryAccept(r, from)) return false;
            bypassed++;
            toggles.access(page, false);
            return true;
        }
        toggles.access(page, false);
        if (path == CoherencePolicy.PATH_IDEAL) {
            boolean write = r.kind == AccessKind.WRITEBACK || r.kind == AccessKind.WRITE;
            // a block dirty in the CPU's caches is forwarded from there at no cost, as the directory forwards it after its
            // probe: ideal read memory instead, and was slower than the directory on data the CPU had just written (a
            // CPU-side trial: 25.2 against 8.9 us), no bound to normalise to
            if (!write && Moesi.dirty(cluster.probeState(line))) { // a store's fill in flight answers too (CpuCluster.probe)
                idealLookups++;
                resolve(line, agent, false, true);
                forwarded.add(r);
                engine.schedule(engine.now(), this, EV_FORWARDED, 0);
                return true;
            }
            if (!gpuMemory[agent].tryAccept(r, from)) return false;
            idealLookups++;
            resolve(line, agent, write, true);
            return true;
        }
        if (freeMshrs == 0) {
            mshrRefusals++;
            if (!refusedGpu.contains(from)) refusedGpu.add(from);
            return false;
        }
        admit(r, agent, line);
        return true;
    }

    /**
     * A CPU LLC miss ({@code READ}, or {@code WRITE} = read for ownership; {@code WRITE} with size 0 = an
     * upgrade, the data is already in the LLC). Returns {@link #ACCEPTED} (the answer comes to {@code r.replyTo}; with
     * every MSHR busy the request waits here for its turn) or {@link #GRANTED_NOW} (an upgrade with nothing to wait for;
     * {@code r} is untouched). Since 2026-11-30 never {@link #REFUSED}.
     */
    public int cpuRequest(MemRequest r) {
        long line = r.paddr & ~((long) lineBytes - 1);
        boolean write = r.kind == AccessKind.WRITE;
        boolean upgrade = write && r.size == 0;
        long page = r.paddr / pageBytes;
        int path = coherence.missPath(CoherencePolicy.AGENT_CPU, page);
        toggles.access(page, true);
        if (path == CoherencePolicy.PATH_MEMORY || path == CoherencePolicy.PATH_IDEAL) {
            if (path == CoherencePolicy.PATH_MEMORY) bypassed++;
            else {
                idealLookups++;
                resolve(line, CoherencePolicy.AGENT_CPU, write, true);
            }
            if (upgrade) return GRANTED_NOW;
            cpuGranted.accept(r.tag); // no coherence, or ideal: granted as it is asked
            r.kind = AccessKind.READ;
            out.send(r, cpuMemory);
            return ACCEPTED;
        }
        if (freeMshrs == 0) { // waits here for its turn at a freed MSHR (release), as the GPU's senders wait for theirs
            mshrRefusals++;
            cpuWaiting.add(r);
            return ACCEPTED;
        }
        admit(r, CoherencePolicy.AGENT_CPU, line);
        return ACCEPTED;
    }

    /** A dirty line leaves the CPU LLC: write it back to memory (the CPU bit was cleared by {@link #cpuDropped}). */
    public void cpuWriteback(long line, int poolIndex) {
        MemRequest w = pool.take();
        w.kind = AccessKind.WRITEBACK;
        w.paddr = line;
        w.size = lineBytes;
        w.pool = poolIndex;
        w.createdPs = engine.now();
        out.send(w, cpuMemory);
    }

    /** The CPU LLC dropped {@code line} (eviction or flush): clear its CPU bit (an eviction notice). */
    public void cpuDropped(long line) {
        int e = entries.find(line);
        if (e < 0) return;
        int sh = entries.state[e] & ~CPU_BIT;
        if (sh == 0) entries.clear(e);
        else entries.state[e] = (byte) sh;
    }

    /**
     * A store (or atomic) of GPU {@code gpu} to {@code paddr} reached its L2. The seed's GPU caches are
     * write-through: every GPU write goes to the directory, which invalidates the CPU's copies. hmsim's GPU
     * L2 is write-back, and its write-back reaches the directory only when the line leaves the L2; a line
     * that stays (a footprint that fits) would leave the CPU's pre-kernel copies valid, and CPU
     * post-processing would hit stale data. So the invalidation is applied here, at once and at no cost
     * (the write's timing at the directory stays with the write-back stand-in): the CPU's copies are
     * invalidated (dirty data written back) and the block becomes GPU-held. Nothing happens when the
     * coherence slot sends the GPU's misses to this page straight to memory (no coherence, or SAHC's
     * non-shared pages), or when a transaction for the block is in flight (left to it, as probes are).
     */
    public void gpuStored(int gpu, long paddr) {
        long line = paddr & ~((long) lineBytes - 1);
        int e = entries.find(line);
        if (e < 0 || (entries.state[e] & CPU_BIT) == 0) return;
        if (coherence.missPath(gpu, paddr / pageBytes) == CoherencePolicy.PATH_MEMORY) return;
        for (int k = 0; k < mLine.length; k++) {
            if (mUp[k] != null && mLine[k] == line) {
                storesLeftInFlight++;
                return;
            }
        }
        cpuProbes++;
        invalidations++;
        storeInvalidations++;
        int prior = cluster.probe(line, true);
        if (Moesi.dirty(prior)) cpuWriteback(line, PhysicalAddress.pool(line));
        entries.state[e] = (byte) ((entries.state[e] & ~CPU_BIT) | GPU_BIT);
    }

    /** The GPU caches were flushed (SAHC-A's gpuWorkFinish): no block is GPU-held any more. */
    public void gpuFlushed() {
        for (int e = 0; e < entries.tag.length; e++) {
            if (!entries.valid(e)) continue;
            int sh = entries.state[e] & ~GPU_BIT;
            if (sh == 0) entries.clear(e);
            else entries.state[e] = (byte) sh;
        }
    }

    /** Whether the CPU may hold {@code line} exclusively (no GPU bit). */
    public boolean cpuExclusive(long line) {
        int e = entries.find(line);
        return e < 0 || (entries.state[e] & GPU_BIT) == 0;
    }

    /** The sharer bits of {@code line} ({@code CPU_BIT | GPU_BIT}), 0 if it has no entry. */
    public int sharers(long line) {
        int e = entries.find(line);
        return e < 0 ? 0 : entries.state[e];
    }

    // ---------------------------------------------------------------- MSHRs and banks

    private void admit(MemRequest r, int agent, long line) {
        occupancyTick();
        admitted++;
        int m = freeMshr[--freeMshrs];
        mLine[m] = line;
        mAgent[m] = agent;
        mUp[m] = r;
        mArrivePs[m] = engine.now();
        mBlocked[m] = false;
        for (int k = 0; k < mLine.length; k++) {
            if (k != m && mUp[k] != null && mLine[k] == line) {
                mBlocked[m] = true; // one transaction per block at a time: wait for the one in flight
                blockedOnLine++;
                return;
            }
        }
        enqueue(m);
    }

    private void enqueue(int m) {
        int b = (int) ((mLine[m] / lineBytes) % bankQueue.length);
        int[] q = bankQueue[b];
        q[(bankHead[b] + bankSize[b]) % q.length] = m;
        bankSize[b]++;
        mQueuedPs[m] = engine.now();
        if (!bankScheduled[b]) {
            bankScheduled[b] = true;
            engine.schedule(Math.max(engine.now(), bankFreePs[b]), this, EV_BANK, b);
        }
    }

    @Override
    public void handle(int kind, long payload) {
        switch (kind) {
            case EV_BANK -> serveBank((int) payload);
            case EV_LOOKUP -> lookup((int) payload);
            case EV_FORWARDED -> {
                MemRequest r = forwarded.poll();
                r.replyTo.onResponse(r);
            }
            default -> probed((int) payload);
        }
    }

    private void serveBank(int b) {
        bankScheduled[b] = false;
        if (bankSize[b] == 0) return;
        int[] q = bankQueue[b];
        int m = q[bankHead[b]];
        bankHead[b] = (bankHead[b] + 1) % q.length;
        bankSize[b]--;
        long now = engine.now();
        long wait = now - mQueuedPs[m];
        queueDelayPs += wait;
        if (wait > maxQueueDelayPs) maxQueueDelayPs = wait;
        bankFreePs[b] = now + bankPs;
        engine.schedule(now + lookupPs, this, EV_LOOKUP, m);
        if (bankSize[b] > 0) {
            bankScheduled[b] = true;
            engine.schedule(bankFreePs[b], this, EV_BANK, b);
        }
    }

    private void lookup(int m) {
        lookups++;
        MemRequest up = mUp[m];
        boolean write = up.kind == AccessKind.WRITE || up.kind == AccessKind.WRITEBACK;
        long delay = resolve(mLine[m], mAgent[m], write, false);
        if (mAgent[m] == CoherencePolicy.AGENT_CPU) cpuGranted.accept(up.tag);
        boolean upgrade = mAgent[m] == CoherencePolicy.AGENT_CPU && up.kind == AccessKind.WRITE && up.size == 0;
        mNeedMemory[m] = !upgrade && !resolvedFromCpu;
        if (delay == 0) probed(m);
        else engine.schedule(engine.now() + delay, this, EV_PROBED, m);
    }

    private void probed(int m) {
        MemRequest up = mUp[m];
        if (up.kind == AccessKind.WRITEBACK) {
            out.send(up, gpuMemory[mAgent[m]]); // fire and forget: the MSHR is done once the data left
            writebacksDone++;
            release(m);
            return;
        }
        if (!mNeedMemory[m]) {
            finish(m);
            return;
        }
        MemRequest d = pool.take();
        d.kind = AccessKind.READ;
        d.paddr = up.paddr;
        d.size = up.size == 0 ? lineBytes : up.size;
        d.sectorMask = up.sectorMask;
        d.pool = up.pool;
        d.gpu = up.gpu;
        d.createdPs = engine.now();
        d.replyTo = this;
        d.tag = m;
        out.send(d, mAgent[m] == CoherencePolicy.AGENT_CPU ? cpuMemory : gpuMemory[mAgent[m]]);
    }

    @Override
    public void onResponse(MemRequest d) {
        int m = (int) d.tag;
        pool.give(d);
        finish(m);
    }

    @Override
    public void onSpaceAvailable(MemSink sink) { out.drain(); }

    private void finish(int m) {
        MemRequest up = mUp[m];
        completed++;
        totalLatencyPs += engine.now() - mArrivePs[m];
        release(m);
        up.replyTo.onResponse(up);
    }

    private void release(int m) {
        occupancyTick();
        long line = mLine[m];
        mUp[m] = null;
        freeMshr[freeMshrs++] = m;
        for (int k = 0; k < mLine.length; k++) {
            if (mUp[k] != null && mBlocked[k] && mLine[k] == line) {
                mBlocked[k] = false;
                enqueue(k);
                break;
            }
        }
        // CPU requests waiting here and GPU senders refused take a freed MSHR in turn. The GPU's, told first, always took
        // it while the CPU retried from its cores: a CPU phase alongside a kernel made no progress until the kernel ended
        // (a CPU-GPU interference trial: one access issued 1 us into a kernel was answered at its end, 7.2 us in)
        boolean cpuTurn = !cpuWaiting.isEmpty() && (refusedGpu.isEmpty() || cpuFirst);
        if (!cpuWaiting.isEmpty() && !refusedGpu.isEmpty()) cpuFirst = !cpuFirst;
        if (cpuTurn) admitWaitingCpu();
        if (!refusedGpu.isEmpty()) {
            // swap lists first: a notified sender may be refused again and must stay registered
            List<MemClient> notify = refusedGpu;
            refusedGpu = notifying;
            notifying = notify;
            for (int i = 0; i < notify.size(); i++) notify.get(i).onSpaceAvailable(this);
            notify.clear();
        }
        if (!cpuTurn && freeMshrs > 0 && !cpuWaiting.isEmpty()) admitWaitingCpu();
        cpuRetry.run();
    }

    private void admitWaitingCpu() {
        MemRequest r = cpuWaiting.poll();
        cpuMshrWaitPs += engine.now() - r.createdPs; // the CPU side creates each request as it asks (CpuSide.access, retryLater)
        admit(r, CoherencePolicy.AGENT_CPU, r.paddr & ~((long) lineBytes - 1));
    }

    // ---------------------------------------------------------------- protocol

    private boolean resolvedFromCpu;

    /**
     * Finds or allocates {@code line}'s entry and applies the protocol for an access by {@code agent};
     * returns the probe delay (ps, 0 when {@code ideal}). Sets {@link #resolvedFromCpu} when the CPU
     * supplies dirty data to a GPU read, so memory need not be read.
     */
    private long resolve(long line, int agent, boolean write, boolean ideal) {
        resolvedFromCpu = false;
        long delay = 0;
        int e = entries.find(line);
        if (e >= 0) {
            entryHits++;
            entries.touch(e);
        } else {
            entryMisses++;
            e = entries.victim(line);
            if (entries.valid(e)) delay = recall(e);
            entries.fill(e, line, 0);
        }
        int sh = entries.state[e];
        if (agent == CoherencePolicy.AGENT_CPU) {
            if (write && (sh & GPU_BIT) != 0) {
                gpuProbes_++;
                invalidations++;
                gpuProbed(line);
                sh &= ~GPU_BIT;
                delay = Math.max(delay, gpuProbePs);
            }
            sh |= CPU_BIT;
        } else if (write) {
            if ((sh & CPU_BIT) != 0) {
                cpuProbes++;
                invalidations++;
                int prior = cluster.probe(line, true);
                if (Moesi.dirty(prior)) cpuWriteback(line, PhysicalAddress.pool(line));
                sh &= ~CPU_BIT;
                delay = Math.max(delay, cpuProbePs);
            }
            sh &= ~GPU_BIT; // a write-back: the block left the GPU L2
        } else {
            if ((sh & CPU_BIT) != 0) {
                cpuProbes++;
                int prior = cluster.probe(line, false);
                if (prior == Moesi.I) sh &= ~CPU_BIT; // stale bit (silent drop): nothing to downgrade
                else if (Moesi.dirty(prior)) { // the CPU's cache answers with the data (under ideal, at once: tryAccept)
                    resolvedFromCpu = true;
                    dataFromCpu++;
                }
                delay = Math.max(delay, cpuProbePs);
            }
            sh |= GPU_BIT;
        }
        if (sh == 0) entries.clear(e);
        else entries.state[e] = (byte) sh;
        if (ideal) return 0; // ideal coherence: every coherence action is free
        return delay;
    }

    /**
     * Inclusive directory: evicting an entry invalidates its block in every sharer (seed 001 §6 "recall"). The victim's
     * block may still be filling at a sharer (granted at its lookup, data on its way): the GPU L2's transaction then drops
     * the line on completion (L2Flush.dropRange) and the CPU's miss register likewise ({@link CpuCluster#probe}), so the
     * entry can go at once and no fill installs an untracked line.
     */
    private long recall(int e) {
        recalls++;
        long v = entries.line(e);
        int sh = entries.state[e];
        long delay = 0;
        if ((sh & CPU_BIT) != 0) {
            cpuProbes++;
            invalidations++;
            int prior = cluster.probe(v, true);
            if (Moesi.dirty(prior)) cpuWriteback(v, PhysicalAddress.pool(v));
            delay = cpuProbePs;
        }
        if ((sh & GPU_BIT) != 0) {
            gpuProbes_++;
            invalidations++;
            gpuProbed(v);
            delay = Math.max(delay, gpuProbePs);
        }
        entries.clear(e);
        return delay;
    }

    /**
     * An invalidation probe (or recall) to the GPU: the block leaves its L2 and L1s. A dirty copy, carried
     * back by the probe, goes to memory. hmsim's GPU
     * L2 is write-back where the seed's is write-through: this write-back stands for the GPU writes the seed
     * would have sent to memory already.
     */
    private void gpuProbed(long line) {
        int held = gpuProbes.invalidate(line);
        if (held == GpuProbeTarget.ABSENT) return;
        gpuLinesDropped++;
        if (held != GpuProbeTarget.DIRTY) return;
        dataFromGpu++;
        MemRequest w = pool.take();
        w.kind = AccessKind.WRITEBACK;
        w.paddr = line;
        w.size = lineBytes;
        w.pool = PhysicalAddress.pool(line);
        w.gpu = 0;
        w.createdPs = engine.now();
        out.send(w, gpuMemory[0]);
    }

    private void occupancyTick() {
        long now = engine.now();
        mshrIntegral += (long) (mLine.length - freeMshrs) * (now - lastChangePs);
        lastChangePs = now;
    }

    public int inFlight() { return mLine.length - freeMshrs + out.size() + cpuWaiting.size(); }

    /** Directory MSHRs held by requests in flight. */
    public int mshrsInUse() { return mLine.length - freeMshrs; }

    /**
     * Live swap of the coherence slot: empties the directory, so the new protocol starts from no tracked
     * block (the swap has written back and invalidated every CPU and GPU cache first). Only at a drained
     * safe point; returns the entries dropped (stale GPU bits of clean lines the GPU L2 evicted silently).
     */
    public int rebuildEmpty() {
        if (inFlight() != 0) throw new IllegalStateException("directory rebuilt with " + inFlight() + " requests in flight");
        int n = 0;
        for (int e = 0; e < entries.tag.length; e++) {
            if (!entries.valid(e)) continue;
            entries.clear(e);
            n++;
        }
        return n;
    }

    public long lookups() { return lookups; }

    public long probes() { return cpuProbes + gpuProbes_; }

    public long queueDelayPs() { return queueDelayPs; }

    public long bypassed() { return bypassed; }

    public long recalls() { return recalls; }

    public long toggles() { return toggles.toggles; }

    public void registerStats(Stats s) {
        s.counter("lookups", "directory lookups (timed path: a bank served the request)", () -> lookups);
        s.counter("ideal_lookups", "directory state updates at zero latency (ideal coherence)", () -> idealLookups);
        s.counter("bypassed", "last-level misses that skipped the directory (coherence policy: memory path)", () -> bypassed);
        s.counter("entry_hits", "lookups that found the block's entry", () -> entryHits);
        s.counter("entry_misses", "lookups that allocated an entry", () -> entryMisses);
        s.counter("recalls", "entries evicted by the inclusive directory (their blocks invalidated in the sharers)", () -> recalls);
        s.counter("probes", "probes sent to the CPU or GPU caches (downgrades, invalidations, recalls)", () -> cpuProbes + gpuProbes_);
        s.counter("cpu_probes", "probes sent to the CPU caches", () -> cpuProbes);
        s.counter("gpu_probes", "probes sent to the GPU caches (one per block, however many GPUs: a probe visits every GPU's L2)", () -> gpuProbes_);
        s.counter("invalidations", "probes that invalidated a block", () -> invalidations);
        s.counter("gpu_lines_invalidated", "GPU probes and recalls that found the block in a GPU L2 and dropped it (with its L1 copies); one per block, however many GPUs held it", () -> gpuLinesDropped);
        s.counter("data_from_gpu", "GPU-dirty blocks written back to memory by an invalidation probe or a recall", () -> dataFromGpu);
        s.counter("gpu_store_invalidations", "GPU stores that invalidated the CPU's copies (the seed's write-through write at the directory; untimed)", () -> storeInvalidations);
        s.counter("gpu_stores_in_flight", "GPU stores to a CPU-held block with a directory transaction in flight (left to it)", () -> storesLeftInFlight);
        s.counter("data_from_cpu", "GPU reads answered with the CPU's dirty data instead of memory", () -> dataFromCpu);
        s.counter("cpu_mshr_wait_ps", "time CPU requests waited for a directory MSHR, summed (the queue delays above start once one is taken)",
                () -> cpuMshrWaitPs);
        s.counter("mshr_refusals", "requests that found every directory MSHR busy (a GPU sender refused, a CPU request queued for its turn)", () -> mshrRefusals);
        s.counter("blocked_on_block", "requests that waited for an earlier transaction to the same block", () -> blockedOnLine);
        s.counter("queue_delay_ps", "sum over lookups of the time waited at the bank (directory queueing delay)", () -> queueDelayPs);
        s.counter("max_queue_delay_ps", "longest wait at a bank", () -> maxQueueDelayPs);
        s.gauge("in_flight", "requests holding a directory MSHR or waiting at its memory port (0 at the end of a run)", this::inFlight);
        s.counter("admitted", "requests that took a directory MSHR (timed path); each is looked up once", () -> admitted);
        s.counter("completed", "timed-path requests completed", () -> completed);
        s.counter("writebacks", "GPU write-backs that took the timed path (done once their data left for memory, unanswered)", () -> writebacksDone);
        s.counter("latency_ps", "sum over completed timed-path requests of arrival-to-answer time", () -> totalLatencyPs);
        s.counter("mshr_occupancy_ps", "time integral of busy MSHRs (Little's law: / sim time = mean occupancy)", () -> {
            occupancyTick();
            return mshrIntegral;
        });
        s.counter("page_toggles", "last-level misses to a 4 KB page by the other side than the previous one (seed 001 Table 1)", () -> toggles.toggles);
        s.counter("page_toggles_cpu_to_gpu", "toggles where the GPU follows the CPU", () -> toggles.cpuToGpu);
        s.counter("page_toggles_gpu_to_cpu", "toggles where the CPU follows the GPU", () -> toggles.gpuToCpu);
        s.counter("outbound_max", "most requests ever waiting at the directory's memory port", () -> out.maxQueued);
    }
}
