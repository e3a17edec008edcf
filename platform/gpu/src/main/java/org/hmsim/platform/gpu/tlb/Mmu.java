package org.hmsim.platform.gpu.tlb;

import java.util.Arrays;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.gpu.AddressTranslator;
import org.hmsim.platform.gpu.TlbConfig;
import org.hmsim.platform.gpu.util.LongIntMap;

/**
 * The GPU-wide part of address translation: the shared L2 TLB and a pool of page-table walkers
 * (seed 000 §5: per-SM L1 TLBs backed by a shared L2 TLB and a page walk). Misses to the same page merge
 * into one walk; beyond {@code walkers} concurrent walks, walks wait in a FIFO. A walk ends by asking the
 * {@link AddressTranslator} whether the page is resident (demand paging: else the walk parks), whether the
 * access is permitted (else the walk waits out the fault), and where the page is (mapping it on first touch),
 * and fills the L2 TLB.
 */
public final class Mmu implements EventTarget, FaultWaiter {
    private static final int EV_L2_LOOKUP = 0, EV_WALK_DONE = 1, EV_FAULT_SERVED = 2;
    private static final int SM_BITS = 8;

    private final int gpu;
    private final Engine engine;
    private final AddressTranslator translator;
    private final TlbArray l2;
    private final long l2LatencyPs, walkPs;
    private final int walkers;
    private final long pageBytes;
    private TranslationClient[] clients = new TranslationClient[0];

    // walks: merged by page; waiters as a bitmask of SMs (<= 64 SMs per GPU)
    private final LongIntMap walkByVpn = new LongIntMap(4096);
    private long[] walkVpn = new long[64];
    private long[] walkWaiters = new long[64];
    private long[] walkQueuedPs = new long[64];
    private int[] freeWalks = new int[64];
    private int freeCount;
    private int[] queue = new int[64];
    private int qHead, qSize;
    private int activeWalks;

    private long walks, walkQueueDelayPs, mergedWalks, shootdowns, faultedWalks, permissionFaults, permissionWaitPs;

    public Mmu(int gpu, TlbConfig cfg, ClockDomain clock, Engine engine, AddressTranslator translator) {
        this.gpu = gpu;
        this.engine = engine;
        this.translator = translator;
        this.l2 = new TlbArray(cfg.l2Entries(), cfg.l2Ways());
        this.l2LatencyPs = clock.ps(cfg.l2LatencyCycles());
        this.walkPs = clock.ps(cfg.walkLatencyCycles());
        this.walkers = Math.max(1, cfg.walkers());
        this.pageBytes = translator.pageBytes();
        if (Long.bitCount(pageBytes) != 1) throw new IllegalArgumentException("page size must be a power of two: " + pageBytes);
        for (int i = 0; i < 64; i++) freeWalks[freeCount++] = 63 - i;
    }

    public void setClients(TranslationClient[] sms) {
        if (sms.length > 64) throw new IllegalArgumentException("at most 64 SMs per GPU (walk waiters are a 64-bit mask)");
        this.clients = sms.clone();
    }

    public long pageBytes() { return pageBytes; }

    /** SM {@code sm} missed its L1 TLB on {@code vpn}; the request reaches the L2 TLB after {@code delayPs}. */
    public void request(int sm, long vpn, long delayPs) {
        engine.scheduleIn(delayPs + l2LatencyPs, this, EV_L2_LOOKUP, (vpn << SM_BITS) | sm);
    }

    @Override
    public void handle(int kind, long payload) {
        if (kind == EV_L2_LOOKUP) l2Lookup((int) (payload & ((1 << SM_BITS) - 1)), payload >>> SM_BITS);
        else if (kind == EV_WALK_DONE) walkDone((int) payload);
        else finishWalk((int) payload);
    }

    private void l2Lookup(int sm, long vpn) {
        long base = l2.lookup(vpn);
        if (base != -1) {
            clients[sm].onTranslation(vpn, base);
            return;
        }
        int w = walkByVpn.get(vpn);
        if (w >= 0) {
            walkWaiters[w] |= 1L << sm;
            mergedWalks++;
            return;
        }
        w = newWalk(vpn, sm);
        translator.onTlbMiss(gpu, vpn);
        if (activeWalks < walkers) startWalk(w);
        else enqueue(w);
    }

    private int newWalk(long vpn, int sm) {
        if (freeCount == 0) growWalks();
        int w = freeWalks[--freeCount];
        walkVpn[w] = vpn;
        walkWaiters[w] = 1L << sm;
        walkQueuedPs[w] = engine.now();
        walkByVpn.put(vpn, w);
        return w;
    }

    private void startWalk(int w) {
        activeWalks++;
        walks++;
        walkQueueDelayPs += engine.now() - walkQueuedPs[w];
        engine.scheduleIn(walkPs, this, EV_WALK_DONE, w);
    }

    private void walkDone(int w) {
        long vpn = walkVpn[w];
        activeWalks--;
        if (qSize > 0) {
            int next = queue[qHead];
            qHead = (qHead + 1) % queue.length;
            qSize--;
            startWalk(next);
        }
        // A far fault parks the walk (its walker is free again) until the driver brings the page in.
        if (!translator.resident(gpu, Long.numberOfTrailingZeros(walkWaiters[w]), vpn, this)) {
            faultedWalks++;
            return;
        }
        checkPermission(w);
    }

    /**
     * A permission fault found by the walk (seed 001 §2.2) holds only this walk, and with it the warps whose
     * accesses need the page (later misses on it merge into the walk); its walker is free again and other
     * warps go on (the seed's summary, §2.3: "stall the faulting wavefront").
     */
    private void checkPermission(int w) {
        long waitPs = translator.walkFaultPs(gpu, walkVpn[w] * pageBytes);
        if (waitPs <= 0) {
            finishWalk(w);
            return;
        }
        permissionFaults++;
        permissionWaitPs += waitPs;
        engine.scheduleIn(waitPs, this, EV_FAULT_SERVED, w);
    }

    /** Demand paging: the page a parked walk faulted on has arrived. */
    @Override
    public void onPageResident(long vpn) {
        int w = walkByVpn.get(vpn);
        if (w >= 0) checkPermission(w);
    }

    private void finishWalk(int w) {
        long vpn = walkVpn[w];
        long base = translator.translate(gpu, vpn * pageBytes);
        l2.insert(vpn, base);
        long waiters = walkWaiters[w];
        walkByVpn.remove(vpn);
        freeWalks[freeCount++] = w;
        while (waiters != 0) {
            int sm = Long.numberOfTrailingZeros(waiters);
            waiters &= waiters - 1;
            clients[sm].onTranslation(vpn, base);
        }
    }

    private void enqueue(int w) {
        if (qSize == queue.length) {
            int[] q = new int[queue.length * 2];
            for (int i = 0; i < qSize; i++) q[i] = queue[(qHead + i) % queue.length];
            queue = q;
            qHead = 0;
        }
        queue[(qHead + qSize) % queue.length] = w;
        qSize++;
    }

    private void growWalks() {
        int n = walkVpn.length;
        walkVpn = Arrays.copyOf(walkVpn, n * 2);
        walkWaiters = Arrays.copyOf(walkWaiters, n * 2);
        walkQueuedPs = Arrays.copyOf(walkQueuedPs, n * 2);
        freeWalks = Arrays.copyOf(freeWalks, n * 2);
        for (int i = n * 2 - 1; i >= n; i--) freeWalks[freeCount++] = i;
    }

    /** Drops every L2 TLB entry (the SMs drop their own); returns how many were held. */
    public int invalidateAll() { return l2.invalidateAll(); }

    /** Shootdown: drops the page from the L2 TLB (the SMs drop their own L1 entries). */
    public void invalidate(long vpn) {
        l2.invalidate(vpn);
        shootdowns++;
    }

    public int walksInFlight() { return activeWalks + qSize; }

    public void registerStats(Stats s) {
        s.counter("l2.hits", "shared L2 TLB hits", l2::hits);
        s.counter("l2.misses", "shared L2 TLB misses (walks started or merged)", l2::misses);
        s.counter("walks", "page-table walks performed", () -> walks);
        s.counter("walks_merged", "L2 TLB misses merged into a walk already pending for the same page", () -> mergedWalks);
        s.counter("walk_queue_delay_ps", "total time walks waited for a free walker, ps", () -> walkQueueDelayPs);
        s.counter("faulted_walks", "walks that found a non-resident page and waited for a far fault (demand paging)", () -> faultedWalks);
        s.counter("shootdowns", "pages invalidated by TLB shootdowns", () -> shootdowns);
        s.counter("permission_faults", "walks held by a coherence-permission fault (cpu.gpu_fault_stall: walk)", () -> permissionFaults);
        s.counter("permission_wait_ps", "total time walks waited for the OS fault handler, ps", () -> permissionWaitPs);
    }
}
