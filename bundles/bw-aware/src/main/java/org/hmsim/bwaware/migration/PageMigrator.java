package org.hmsim.bwaware.migration;

import java.util.List;
import org.hmsim.api.engine.Engine;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.DramView;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.stats.Stats;
import org.hmsim.bwaware.placement.Bandwidths;

/**
 * CPU-to-GPU page migration of seed 000 Ch. 5: threshold-N candidates from the GPU's TLB-miss ring
 * buffer (§2.5), range expansion (§2.6) and bandwidth balancing (§2.7) — the final TH(1)+RE+BWB.
 *
 * <p><b>Flow.</b> Pages start in CPU memory (host data, {@link HostData}). Each last-level GPU TLB miss
 * puts the page in a bounded ring buffer; the runtime drains it {@code poll_cycles} after the first
 * unread entry. A page outside GPU memory becomes a candidate after {@code threshold} touches and goes
 * into an unbounded FIFO, followed (range expansion) by its neighbours in the same allocation, furthest
 * first. At most {@code max_in_flight} migrations run; each copies the page through both pools with no
 * priority and, if a GPU had translated the page, costs the platform's GPU-wide shootdown stall
 * ({@code gpu.tlb.shootdown} cycles; pages never translated — most prefetched neighbours — cost none).
 * No reverse migration (the thesis leaves it to future work).
 *
 * <p><b>Balancing.</b> Every {@code balance_period} GPU cycles the per-pool byte counters give the GPU
 * memory's share m of DRAM traffic; m below r* - band: full rate; within the band: half rate; above r*:
 * migrations pause until m falls. The timers run only while there is migration work, so a finished
 * workload is never kept alive.
 */
final class PageMigrator implements MigrationPolicy, EventTarget {
    private static final int EV_POLL = 0, EV_SAMPLE = 1, EV_REST = 2, EV_INHERITED = 3;
    /** How often a policy looks whether its predecessor's copies have landed (nothing tells it): 50 ns, against copies of µs. */
    private static final long INHERITED_CHECK_PS = 50_000;
    private static final int FULL = 0, HALF = 1, PAUSE = 2;

    private final MigrationSettings s;
    private final MachineView machine;
    private final MemoryManager memory;
    private final Engine engine;
    private final long pageBytes, pollPs, periodPs;
    private int fast = -1, slow;
    private double target;

    private final long[] ring;
    private int ringHead, ringCount;
    private boolean pollPending;

    private long[] fifo = new long[1024];
    private int fifoHead, fifoCount;

    private long[] baseVpn;
    private int[][] touches;
    private boolean[][] queued;
    private final int[] scratchUp, scratchDown;

    private final Slot[] slots;
    private final int[] freeSlots;
    private int nFree, inFlight, resting;

    private int mode = FULL;
    private boolean sampling, closed, ended, keepWindow;
    private final long[] winFast, winTotal;
    private int winPos, winFilled;
    private long lastFast, lastTotal, lastCopies;

    private long triggers, rangeEnqueued, started, completed, failed, skipped, ringDrops, hostMapped, unmovedAtEnd;
    private long samplesFull, samplesHalf, samplesPause;
    private double lastShare = -1;

    /**
     * Copies a predecessor started, still in flight when this policy took over: each counts in {@code inFlight} until its
     * page arrives, and holds one of this policy's slots if one was free (-1: none; a successor with a smaller
     * {@code max_in_flight} starts nothing until the total is below it).
     */
    private long[] inheritedVpn = new long[0];
    private int[] inheritedSlot = new int[0];
    private int inherited;

    /** One migration slot; its own done-callback, so finishing a copy allocates nothing. */
    private final class Slot implements Runnable {
        final int index;
        long startPs;
        /** The page being copied, -1 while the slot is free. */
        long vpn = -1;

        Slot(int index) { this.index = index; }

        @Override
        public void run() { finished(this); }
    }

    PageMigrator(PolicyContext context, MigrationSettings settings) {
        this.s = settings;
        this.machine = context.machine();
        this.memory = context.memory();
        this.engine = machine.engine();
        this.pageBytes = memory.pageBytes();
        this.pollPs = machine.gpuClock().ps(settings.pollCycles());
        this.periodPs = machine.gpuClock().ps(settings.periodCycles());
        this.ring = new long[settings.ringEntries()];
        this.slots = new Slot[settings.maxInFlight()];
        this.freeSlots = new int[settings.maxInFlight()];
        for (int i = slots.length - 1; i >= 0; i--) {
            slots[i] = new Slot(i);
            freeSlots[nFree++] = i;
        }
        this.scratchUp = new int[settings.range() + 1];
        this.scratchDown = new int[settings.range() + 1];
        this.winFast = new long[settings.window()];
        this.winTotal = new long[settings.window()];
        registerStats(context.stats());
    }

    private void registerStats(Stats st) {
        if (st == null) return;
        st.counter("triggers", "pages that reached the touch threshold (candidates, §2.5)", () -> triggers);
        st.counter("range_enqueued", "neighbouring pages enqueued by range expansion (§2.6)", () -> rangeEnqueued);
        st.counter("started", "page migrations started", () -> started);
        st.counter("completed", "page migrations completed", () -> completed);
        // in the time series, so a plot of the GPU memory's share per epoch can take the copies out (Figs. 5.6-5.8 plot demand)
        st.sampleEachEpoch("completed");
        st.counter("failed", "migrations refused by the OS (target pool full)", () -> failed);
        st.counter("skipped", "dequeued pages already in GPU memory or unmapped (move_pages fails)", () -> skipped);
        st.counter("unmoved_at_end", "pages queued for migration when the workload ended, not moved (TLB misses still unread in the ring buffer are not counted)", () -> unmovedAtEnd);
        st.counter("ring_drops", "TLB misses lost because the ring buffer was full", () -> ringDrops);
        st.counter("host_mapped", "pages mapped in CPU memory before the first kernel (host data)", () -> hostMapped);
        st.counter("balance_full", "balancing samples that ran migration at full rate", () -> samplesFull);
        st.counter("balance_half", "balancing samples that ran migration at half rate", () -> samplesHalf);
        st.counter("balance_pause", "balancing samples that paused migration", () -> samplesPause);
        st.gauge("balance_share", "GPU-memory share of DRAM traffic at the last balancing sample (-1 = none)", () -> lastShare);
        st.gauge("queued", "pages waiting in the migration FIFO", () -> fifoCount);
    }

    // ---- hooks

    @Override
    public void onKernelLaunch(int kernel, Runnable proceed) {
        if (baseVpn == null) init();
        if (kernel == 0 && s.hostData()) hostMapped += HostData.mapAll(memory, slow);
        proceed.run();
    }

    /**
     * Swapped out (or the run ended): its timers and the copies still in flight start nothing more; what it was doing goes
     * to its successor through {@link #exportState}. (Until 2026-11-29 the poll and balancing timers went on firing and
     * moved the queued pages after the swap, counted in os.migrations but not in this policy's counters.)
     */
    @Override
    public void close() {
        closed = true;
        fifoCount = 0;
        ringCount = 0;
    }

    /**
     * The workload has ended: the queue is dropped (the OS would refuse each page now), nothing new is queued and the
     * balancing timer takes no more samples. The copies in flight complete.
     */
    @Override
    public void onWorkloadEnd() {
        unmovedAtEnd = fifoCount; // the ring's unread TLB misses are not candidates yet
        fifoCount = 0;
        ringCount = 0;
        ended = true;
    }

    @Override
    public void onTlbMiss(int gpu, long vpn) {
        if (closed || ended) return;
        if (ringCount == ring.length) {
            ringDrops++;
            return;
        }
        ring[(ringHead + ringCount++) % ring.length] = vpn;
        if (!pollPending) {
            pollPending = true;
            engine.scheduleIn(pollPs, this, EV_POLL, 0);
        }
    }

    @Override
    public void handle(int kind, long payload) {
        if (closed) return;
        switch (kind) {
            case EV_POLL -> poll();
            case EV_SAMPLE -> sample();
            case EV_INHERITED -> {
                pump();
                if (inherited > 0) engine.scheduleIn(INHERITED_CHECK_PS, this, EV_INHERITED, 0);
            }
            default -> {
                resting--;
                freeSlots[nFree++] = (int) payload;
                pump();
            }
        }
    }

    // ---- candidates

    private void init() {
        Bandwidths bw = new Bandwidths(machine, "", 0);
        fast = bw.fastest();
        slow = Bandwidths.capacityPool(machine);
        target = s.target() >= 0 ? s.target() : bw.share(fast);
        List<Allocation> allocs = memory.allocations();
        baseVpn = new long[allocs.size()];
        touches = new int[allocs.size()][];
        queued = new boolean[allocs.size()][];
        for (int a = 0; a < allocs.size(); a++) {
            Allocation al = allocs.get(a);
            int pages = (int) ((al.bytes() + pageBytes - 1) / pageBytes);
            baseVpn[a] = al.baseVa() / pageBytes;
            if (s.threshold() > 1) touches[a] = new int[pages];
            queued[a] = new boolean[pages];
        }
    }

    private void poll() {
        pollPending = false;
        if (baseVpn == null) init();
        while (ringCount > 0) {
            long vpn = ring[ringHead];
            ringHead = (ringHead + 1) % ring.length;
            ringCount--;
            touch(vpn);
        }
        pump();
        startSampling();
    }

    private void touch(long vpn) {
        long at = pageIndex(vpn);
        if (at < 0) return;
        int id = (int) (at >>> 32), i = (int) at;
        if (queued[id][i] || memory.poolOf(vpn) == fast) return;
        if (s.threshold() > 1 && ++touches[id][i] < s.threshold()) return;
        triggers++;
        enqueue(id, i);
        if (s.range() > 0) expand(id, i);
    }

    private boolean eligible(int id, int i) {
        if (queued[id][i]) return false;
        int pool = memory.poolOf(baseVpn[id] + i);
        return pool >= 0 && pool != fast;
    }

    /** Range expansion (§2.6): neighbours of page {@code i}, enqueued furthest first, nearest last. */
    private void expand(int id, int i) {
        int n = queued[id].length;
        int below = s.rangeShape().equals("forward") ? 0 : s.range() / 2;
        int above = s.range() - below;
        int up = 0, down = 0;
        if (s.rangeCountsSkipped()) {
            for (int d = 1; d <= above && i + d < n; d++) if (eligible(id, i + d)) scratchUp[up++] = d;
            for (int d = 1; d <= below && i - d >= 0; d++) if (eligible(id, i - d)) scratchDown[down++] = d;
        } else {
            for (int d = 1; up < above && i + d < n; d++) if (eligible(id, i + d)) scratchUp[up++] = d;
            for (int d = 1; down < below && i - d >= 0; d++) if (eligible(id, i - d)) scratchDown[down++] = d;
        }
        while (up > 0 || down > 0) {
            boolean takeUp = down == 0 || (up > 0 && scratchUp[up - 1] >= scratchDown[down - 1]);
            int j = takeUp ? i + scratchUp[--up] : i - scratchDown[--down];
            enqueue(id, j);
            rangeEnqueued++;
        }
    }

    private void enqueue(int id, int i) {
        queued[id][i] = true;
        if (fifoCount == fifo.length) {
            long[] bigger = new long[fifo.length * 2];
            for (int k = 0; k < fifoCount; k++) bigger[k] = fifo[(fifoHead + k) % fifo.length];
            fifo = bigger;
            fifoHead = 0;
        }
        fifo[(fifoHead + fifoCount++) % fifo.length] = baseVpn[id] + i;
    }

    // ---- migration engine

    private int limit() {
        if (mode == PAUSE) return 0;
        if (mode == HALF && s.halfRate().equals("concurrency")) return Math.max(1, s.maxInFlight() / 2);
        return s.maxInFlight();
    }

    private void pump() {
        if (closed) return;
        if (inherited > 0) reclaimInherited();
        int limit = limit();
        while (nFree > 0 && inFlight < limit && fifoCount > 0) {
            long vpn = fifo[fifoHead];
            fifoHead = (fifoHead + 1) % fifo.length;
            fifoCount--;
            int pool = memory.poolOf(vpn);
            if (pool < 0 || pool == fast) {
                skipped++;
                continue;
            }
            Slot slot = slots[freeSlots[--nFree]];
            slot.startPs = engine.now();
            if (memory.migrate(vpn, fast, slot)) {
                started++;
                inFlight++;
                slot.vpn = vpn;
            } else {
                failed++;
                freeSlots[nFree++] = slot.index;
            }
        }
    }

    /** A predecessor's copy is not reported to this policy: its page reaching GPU memory frees the slot it held. */
    private void reclaimInherited() {
        for (int k = inherited - 1; k >= 0; k--) {
            if (memory.poolOf(inheritedVpn[k]) != fast) continue;
            inFlight--;
            completed++;
            if (inheritedSlot[k] >= 0) freeSlots[nFree++] = inheritedSlot[k];
            inheritedVpn[k] = inheritedVpn[--inherited];
            inheritedSlot[k] = inheritedSlot[inherited];
        }
    }

    private void finished(Slot slot) {
        slot.vpn = -1;
        inFlight--;
        completed++;
        if (s.balance() && mode == HALF && s.halfRate().equals("dequeue")) {
            resting++;
            engine.scheduleIn(Math.max(1, engine.now() - slot.startPs), this, EV_REST, slot.index);
        } else {
            freeSlots[nFree++] = slot.index;
        }
        pump();
    }

    // ---- bandwidth balancing (§2.7)

    private boolean busy() { return fifoCount > 0 || inFlight > 0 || ringCount > 0 || resting > 0; }

    // ---- live swap: a successor (this class under any of its names, or a plugin reading the keys) goes on from here

    static final String QUEUE = "migration_queue", TLB_MISSES = "unread_tlb_misses", TOUCHES = "touch_counts",
            IN_FLIGHT = "copies_in_flight", BALANCE = "balance_window";

    /**
     * The queue (pages in order), the TLB misses not yet read, each page's touches below the threshold ({vpn, count}
     * pairs), the pages being copied, and balancing's mode and window ({mode, filled, then each sample's GPU-memory and
     * total bytes, oldest first}). Without them a self-swap every 3 us cut hotspot's migrations from 480 to 114: each
     * successor started with no candidates and no touches.
     */
    @Override
    public java.util.Map<String, Object> exportState() {
        long[] queue = new long[fifoCount], misses = new long[ringCount];
        for (int k = 0; k < fifoCount; k++) queue[k] = fifo[(fifoHead + k) % fifo.length];
        for (int k = 0; k < ringCount; k++) misses[k] = ring[(ringHead + k) % ring.length];
        long[] copying = new long[inFlight];
        int c = 0;
        for (int k = 0; k < inherited; k++) copying[c++] = inheritedVpn[k];
        for (Slot sl : slots) if (sl.vpn >= 0) copying[c++] = sl.vpn;
        long[] window = new long[2 + 2 * winFilled];
        window[0] = mode;
        window[1] = winFilled;
        for (int k = 0; k < winFilled; k++) {
            int at = (winPos - winFilled + k + winFast.length) % winFast.length;
            window[2 + 2 * k] = winFast[at];
            window[3 + 2 * k] = winTotal[at];
        }
        return java.util.Map.of(QUEUE, queue, TLB_MISSES, misses, TOUCHES, touchPairs(), IN_FLIGHT, java.util.Arrays.copyOf(copying, c), BALANCE, window);
    }

    private long[] touchPairs() {
        if (touches == null) return new long[0];
        long[] pairs = new long[0];
        int n = 0;
        for (int a = 0; a < touches.length; a++) {
            if (touches[a] == null) continue;
            for (int i = 0; i < touches[a].length; i++) {
                if (touches[a][i] == 0 || queued[a][i]) continue;
                if (n + 2 > pairs.length) pairs = java.util.Arrays.copyOf(pairs, Math.max(16, pairs.length * 2));
                pairs[n++] = baseVpn[a] + i;
                pairs[n++] = touches[a][i];
            }
        }
        return java.util.Arrays.copyOf(pairs, n);
    }

    /**
     * Takes over a predecessor's work (keys of {@link #exportState}); its copies in flight hold this policy's slots until
     * their pages arrive, so {@code max_in_flight} still bounds the copies. The queue is pumped from an event at the
     * swap's instant, once this policy is installed. A key missing or of another type is left out.
     */
    @Override
    public void importState(java.util.Map<String, Object> state) {
        if (state.isEmpty() || memory.allocations().isEmpty()) return; // before the first launch there is nothing to take
        if (baseVpn == null) init();
        if (state.get(TOUCHES) instanceof long[] pairs && touches != null)
            for (int k = 0; k + 1 < pairs.length; k += 2) {
                long at = pageIndex(pairs[k]);
                if (at >= 0 && touches[(int) (at >>> 32)] != null) touches[(int) (at >>> 32)][(int) at] = (int) Math.min(Integer.MAX_VALUE, pairs[k + 1]);
            }
        if (state.get(QUEUE) instanceof long[] queue)
            for (long vpn : queue) {
                long at = pageIndex(vpn);
                if (at >= 0 && !queued[(int) (at >>> 32)][(int) at]) enqueue((int) (at >>> 32), (int) at);
            }
        if (state.get(TLB_MISSES) instanceof long[] misses)
            for (long vpn : misses) {
                if (ringCount < ring.length) ring[(ringHead + ringCount++) % ring.length] = vpn;
                else ringDrops++; // a smaller ring than the predecessor's: lost as a full ring loses them
            }
        if (state.get(IN_FLIGHT) instanceof long[] copying) {
            inheritedVpn = copying.clone();
            inheritedSlot = new int[copying.length];
            for (int k = 0; k < copying.length; k++) {
                inheritedSlot[k] = nFree > 0 ? freeSlots[--nFree] : -1;
                long at = pageIndex(copying[k]);
                if (at >= 0) queued[(int) (at >>> 32)][(int) at] = true; // as the predecessor had it: a TLB miss on it does not queue it again
            }
            inherited = copying.length;
            inFlight += inherited;
        }
        if (s.balance() && state.get(BALANCE) instanceof long[] w && w.length >= 2 && w.length == 2 + 2 * w[1]) {
            mode = (int) Math.max(FULL, Math.min(PAUSE, w[0]));
            int keep = (int) Math.min(w[1], winFast.length);
            for (int k = 0; k < keep; k++) {
                int from = (int) (w[1] - keep + k);
                winFast[k] = w[2 + 2 * from];
                winTotal[k] = w[3 + 2 * from];
            }
            winFilled = keep;
            winPos = keep % winFast.length;
            keepWindow = true;
        }
        pollPending = true;
        engine.scheduleIn(0, this, EV_POLL, 0);
        // nothing tells this policy when an inherited copy lands: it looks every INHERITED_CHECK_PS
        if (inherited > 0) engine.scheduleIn(INHERITED_CHECK_PS, this, EV_INHERITED, 0);
    }

    /** {@code vpn}'s allocation (high 32 bits) and page in it (low), or -1 if it lies in no allocation this policy knows. */
    private long pageIndex(long vpn) {
        Allocation a = memory.allocationOf(vpn * pageBytes);
        if (a == null || a.id() >= queued.length) return -1;
        return (long) a.id() << 32 | (vpn - baseVpn[a.id()]);
    }

    private void startSampling() {
        if (!s.balance() || sampling || !busy()) return;
        sampling = true;
        lastFast = machine.dram().get(fast).bytesServed();
        lastTotal = totalBytes();
        lastCopies = completed;
        if (!keepWindow) { // a predecessor's window goes on; a restart after an idle spell measures afresh
            winPos = 0;
            winFilled = 0;
        }
        keepWindow = false;
        engine.scheduleIn(periodPs, this, EV_SAMPLE, 0);
    }

    private long totalBytes() {
        long t = 0;
        for (DramView d : machine.dram()) t += d.bytesServed();
        return t;
    }

    private void sample() {
        if (ended) { // the workload has ended: nothing left to balance (its last copies complete unsampled)
            sampling = false;
            return;
        }
        long f = machine.dram().get(fast).bytesServed(), t = totalBytes();
        long df = f - lastFast, dt = t - lastTotal;
        if (s.share().equals("demand")) {
            long copies = (completed - lastCopies) * pageBytes;
            df = Math.max(0, df - copies);
            dt = Math.max(0, dt - 2 * copies);
        }
        lastFast = f;
        lastTotal = t;
        lastCopies = completed;
        winFast[winPos] = df;
        winTotal[winPos] = dt;
        winPos = (winPos + 1) % winFast.length;
        winFilled = Math.min(winFilled + 1, winFast.length);
        long sf = 0, stt = 0;
        for (int k = 0; k < winFilled; k++) {
            sf += winFast[k];
            stt += winTotal[k];
        }
        if (stt <= 0) {
            // No traffic (between kernels): no share to measure, so the mode stays as it was. A paused migrator
            // stops sampling here (a TLB miss of the next kernel restarts it), so an idle machine is not kept alive
            // by the timer. (After the last kernel onWorkloadEnd has stopped sampling and dropped the queue.)
            if (mode == PAUSE) {
                samplesPause++;
                sampling = false;
                return;
            }
        } else {
            double m = (double) sf / stt;
            lastShare = m;
            double band = s.bandKind().equals("relative") ? s.band() * target : s.band();
            mode = m < target - band ? FULL : m <= target ? HALF : PAUSE;
        }
        if (mode == FULL) samplesFull++;
        else if (mode == HALF) samplesHalf++;
        else samplesPause++;
        pump();
        if (busy()) engine.scheduleIn(periodPs, this, EV_SAMPLE, 0);
        else sampling = false;
    }
}
