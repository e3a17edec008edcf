package org.hmsim.platform.machine;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.WarpSchedulerPolicy;

/**
 * The GPU's policy slots as the GPU sees them: one forwarding object per slot whose target the swap
 * protocol replaces at a drained safe point (DESIGN §6). The GPU keeps these for its whole life, so
 * it never holds a reference to a swapped-out policy (or to its bundle's classes). Replacement and
 * warp-scheduler state lives per cache and per SM: the forwarders keep what is needed to rebuild it
 * for a successor (cache geometry; the age of each warp slot).
 */
final class LiveSlots {
    private LiveSlots() {}

    static final class Cacheability implements CacheabilityPolicy {
        CacheabilityPolicy target;

        Cacheability(CacheabilityPolicy t) { target = t; }

        @Override
        public boolean mayAllocate(int level, MemRequest request) { return target.mayAllocate(level, request); }

        @Override
        public boolean mayCoalesce(int level, MemRequest request) { return target.mayCoalesce(level, request); }

        @Override
        public boolean subBlockTransfers(MemRequest request) { return target.subBlockTransfers(request); }

        @Override
        public long clientCacheBytes() { return target.clientCacheBytes(); }

        @Override
        public int clientCacheWays() { return target.clientCacheWays(); }

        @Override
        public int clientCacheLatencyCycles() { return target.clientCacheLatencyCycles(); }

        @Override
        public long storeFaultPs(MemRequest store) { return target.storeFaultPs(store); }

        @Override
        public int maxPendingFaultsPerSm() { return target.maxPendingFaultsPerSm(); }

        @Override
        public void onCpuAccess(MemRequest request) { target.onCpuAccess(request); }

        @Override
        public void onKernelLaunch(int kernel) { target.onKernelLaunch(kernel); }
    }

    static final class Coherence implements CoherencePolicy {
        CoherencePolicy target;

        Coherence(CoherencePolicy t) { target = t; }

        @Override
        public long onLastLevelMiss(MemRequest request) { return target.onLastLevelMiss(request); }

        @Override
        public int missPath(int agent, long page) { return target.missPath(agent, page); }

        @Override
        public long checkAccess(int agent, long page, boolean write) { return target.checkAccess(agent, page, write); }

        @Override
        public int onRuntimeEvent(int event, int argument) { return target.onRuntimeEvent(event, argument); }
    }

    static final class CtaScheduler implements CtaSchedulerPolicy {
        CtaSchedulerPolicy target;

        CtaScheduler(CtaSchedulerPolicy t) { target = t; }

        @Override
        public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) { return target.pickSm(kernel, cta, sms, canTake); }

        @Override
        public void onKernelLaunch(int kernel, int ctas, int warpsPerCta) { target.onKernelLaunch(kernel, ctas, warpsPerCta); }

        @Override
        public void onSwappedInMidKernel(int kernel, int ctas, int warpsPerCta, java.util.function.IntPredicate dispatched) {
            target.onSwappedInMidKernel(kernel, ctas, warpsPerCta, dispatched);
        }

        @Override
        public int boundGpu(int kernel, int cta) { return target.boundGpu(kernel, cta); }
    }

    /**
     * The l2-miss-path's constants as the slices read them: the policy's values, read and checked once when it is
     * installed ({@link org.hmsim.platform.gpu.cache.MissPathSettings}), never at a miss.
     */
    static final class L2MissPath implements L2MissPathPolicy {
        private org.hmsim.platform.gpu.cache.MissPathSettings settings;

        L2MissPath(L2MissPathPolicy t) { settings = org.hmsim.platform.gpu.cache.MissPathSettings.of(t); }

        /** The constants of the policy a swap installs, read when it was staged (and after it imported its state). */
        void install(org.hmsim.platform.gpu.cache.MissPathSettings next) { settings = next; }

        @Override
        public int fetchBuffersPerBank() { return settings.fetchBuffersPerBank(); }

        @Override
        public int swapCycles() { return settings.swapCycles(); }

        @Override
        public int fetchBufferWays() { return settings.fetchBufferWays(); }

        @Override
        public boolean fetchBufferTakesMshr() { return settings.fetchBufferTakesMshr(); }

        @Override
        public boolean fetchBufferBankLocalIndex() { return settings.fetchBufferBankLocalIndex(); }

        @Override
        public int victimCacheLines() { return settings.victimCacheLines(); }

        @Override
        public boolean postsWriteBacks() { return settings.postsWriteBacks(); }
    }

    /** Replacement: a forwarding state per cache, rebuilt from the new policy on a swap. */
    static final class Replacement implements ReplacementPolicy {
        private ReplacementPolicy target;
        private final List<CacheState> caches = new ArrayList<>();

        Replacement(ReplacementPolicy t) { target = t; }

        @Override
        public State forCache(String cacheName, int sets, int ways) {
            CacheState s = new CacheState(cacheName, sets, ways, target.forCache(cacheName, sets, ways));
            caches.add(s);
            return s;
        }

        /**
         * New per-cache state from {@code next}: every way is presented to it as filled, set by set, least recently
         * hit or filled first (ways never filled first of all), so the last one presented is the most recently used.
         * An LRU successor thus inherits the recency order (way order made an LRU self-swap evict the lines just used),
         * and any successor starts from the current contents without an order it cannot interpret. Invalid ways are
         * never offered as victims (the candidates mask excludes them) and get their fill when filled.
         */
        void swapTo(ReplacementPolicy next) {
            target = next;
            for (CacheState c : caches) {
                State s = next.forCache(c.name, c.sets, c.ways);
                long[] order = new long[c.ways];
                for (int set = 0; set < c.sets; set++) {
                    // touches count far below 2^57, so a touch and a way (< 64) share one long: sorted by touch, then way
                    for (int way = 0; way < c.ways; way++) order[way] = c.touched[set * c.ways + way] << 6 | way;
                    java.util.Arrays.sort(order);
                    for (long o : order) s.onFill(set, (int) (o & 63));
                }
                c.target = s;
            }
        }
    }

    static final class CacheState implements ReplacementPolicy.State {
        final String name;
        final int sets, ways;
        ReplacementPolicy.State target;
        /** When each (set, way) was last hit or filled, on this cache's own count of touches: the order a successor is told. */
        final long[] touched;
        private long touches;

        CacheState(String name, int sets, int ways, ReplacementPolicy.State target) {
            this.name = name;
            this.sets = sets;
            this.ways = ways;
            this.target = target;
            this.touched = new long[sets * ways];
        }

        @Override
        public void onHit(int set, int way) {
            touched[set * ways + way] = ++touches;
            target.onHit(set, way);
        }

        @Override
        public void onFill(int set, int way) {
            touched[set * ways + way] = ++touches;
            target.onFill(set, way);
        }

        @Override
        public int victim(int set, long candidates) { return target.victim(set, candidates); }

        @Override
        public void onInvalidate(int set, int way) { target.onInvalidate(set, way); }

        @Override
        public void onHit(int set, int way, long line, org.hmsim.api.mem.AccessKind kind, int sm) {
            touched[set * ways + way] = ++touches;
            target.onHit(set, way, line, kind, sm);
        }

        @Override
        public void onFill(int set, int way, long line, org.hmsim.api.mem.AccessKind kind) {
            touched[set * ways + way] = ++touches;
            target.onFill(set, way, line, kind);
        }

        @Override
        public boolean observesUpperCopies() { return target.observesUpperCopies(); }

        @Override
        public int victim(int set, long candidates, long upperCopies) { return target.victim(set, candidates, upperCopies); }
    }

    /** Warp scheduler: a forwarding state per SM that remembers each warp slot's age for a successor. */
    static final class WarpScheduler implements WarpSchedulerPolicy {
        private WarpSchedulerPolicy target;
        private final List<SmState> sms = new ArrayList<>();

        WarpScheduler(WarpSchedulerPolicy t) { target = t; }

        @Override
        public State forSm(int gpu, int sm, int warpSlots) {
            SmState s = new SmState(gpu, sm, warpSlots, target.forSm(gpu, sm, warpSlots));
            sms.add(s);
            return s;
        }

        /** New per-SM state from {@code next}, told of every warp slot ever started, oldest first. */
        void swapTo(WarpSchedulerPolicy next) {
            target = next;
            for (SmState s : sms) s.rebuild(next.forSm(s.gpu, s.sm, s.slots));
        }
    }

    static final class SmState implements WarpSchedulerPolicy.State {
        final int gpu, sm, slots;
        private final long[] age = new long[64];
        private long started, exited;
        /** The slot the SM issued from last, -1 before its first issue: replayed to a successor ({@link #rebuild}). */
        private int lastPicked = -1;
        WarpSchedulerPolicy.State target;

        SmState(int gpu, int sm, int slots, WarpSchedulerPolicy.State target) {
            this.gpu = gpu;
            this.sm = sm;
            this.slots = slots;
            this.target = target;
        }

        @Override
        public void onWarpStart(int slot, long a) {
            age[slot] = a;
            started |= 1L << slot;
            exited &= ~(1L << slot);
            target.onWarpStart(slot, a);
        }

        @Override
        public int pick(long ready) { return lastPicked(target.pick(ready)); }

        @Override
        public int pick(long ready, long memory) { return lastPicked(target.pick(ready, memory)); }

        private int lastPicked(int slot) {
            if (slot >= 0) lastPicked = slot;
            return slot;
        }

        @Override
        public void onWarpExit(int slot) {
            exited |= 1L << slot;
            target.onWarpExit(slot);
        }

        @Override
        public boolean observesL1() { return target.observesL1(); }

        @Override
        public void onL1Access(int slot, long line, boolean hit) { target.onL1Access(slot, line, hit); }

        @Override
        public void onL1Eviction(long line) { target.onL1Eviction(line); }

        @Override
        public String toString() { return target.getClass().getName(); }

        void rebuild(WarpSchedulerPolicy.State next) {
            long left = started;
            while (left != 0) { // oldest first; at most 64 slots, once per swap
                int best = -1;
                for (long m = left; m != 0; m &= m - 1) {
                    int w = Long.numberOfTrailingZeros(m);
                    if (best < 0 || age[w] < age[best]) best = w;
                }
                next.onWarpStart(best, age[best]);
                left &= ~(1L << best);
            }
            for (long m = exited; m != 0; m &= m - 1) next.onWarpExit(Long.numberOfTrailingZeros(m)); // no-ops for the built-ins
            // The last issue, replayed as a choice with only that warp ready: a greedy state (GTO) keeps its warp and a
            // round-robin one goes on after it. Told ages alone, a GTO self-swap dropped its greedy warp (found by a
            // live-swap stress review: bfs on the small machine 62,211 -> 62,473 ns).
            if (lastPicked >= 0) next.pick(1L << lastPicked, 0);
            target = next;
        }
    }
}
