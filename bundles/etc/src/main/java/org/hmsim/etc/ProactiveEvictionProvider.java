package org.hmsim.etc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.machine.UnifiedMemory;
import org.hmsim.api.os.MemoryManager;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * Residency {@code etc}: age-ordered eviction (seed 002 §2.3) plus ETC's proactive eviction (PE, §4.2).
 * After the driver has allocated frames for a fault batch, if free GPU memory (counting evictions already
 * under way that no waiting fault batch has claimed, {@link Pe#headroom}) is below {@code threshold} (2 MB), PE
 * evicts victims until it is back at the threshold, at most {@code max_eviction} (2 MB, Table 1) at a time. Those device-to-host copies overlap the batch's
 * host-to-device migrations, so later faults find free frames and skip the baseline's evict-then-fetch.
 * The number of pages per proactive round is not given by the paper; refilling to the threshold is ours.
 *
 * <p>PE evicts only if "the memory allocation size is larger than the available GPU memory size" (§4.2,
 * condition 1). With capacity compression on, available memory is the compressed capacity
 * ({@link UnifiedMemory#effectiveCapacityPages()}): once the compressed footprint fits, evicting ahead only
 * costs capacity, so PE stands down (checked at every round, as compression may turn on after PE).
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=residency", PolicyProvider.NAME + "=etc", PolicyProvider.VERSION + "=1.1.0"})
public final class ProactiveEvictionProvider implements PolicyProvider {
    /** PE evicts ahead of faults (seed 002 §4.2): nothing is evicted without demand paging. */
    @Override public void check(Params params, org.hmsim.api.policy.RunFacts run) { run.requireDemandPaging("residency etc"); }

    @Override public Slot slot() { return Slot.RESIDENCY; }

    @Override public String name() { return "etc"; }

    /** 1.1.0 (eleventh session): PE's refill counts only unclaimed evictions under way and compressed victims at their size; its order is handed over at a live swap. */
    @Override public String version() { return "1.1.0"; }

    @Override public String description() {
        return "ETC proactive eviction (seed 002 §4.2): when free GPU memory falls below a threshold, evict ahead on the device-to-host channel, overlapped with fault migrations; age-ordered victims (§2.3); on for regular applications by ETC's classifier (§4.1, §4.5).";
    }

    @Override public List<ParamSpec> parameters() {
        List<ParamSpec> p = new ArrayList<>();
        p.add(Mode.param("PE"));
        p.add(ParamSpec.size("threshold", 2L << 20, 0, 1L << 40, "free GPU memory below which PE evicts ahead (seed 002 Table 1: 2 MB, for GBs of GPU memory; the shipped models' memories are"
                + " a few MB, where the studies use 512KB: a threshold near the capacity evicts the pages the prefetcher brings back)"));
        p.add(ParamSpec.size("max_eviction", 2L << 20, 1, 1L << 40, "most memory PE evicts in one round (seed 002 Table 1: 2 MB maximum eviction size)"));
        p.addAll(Classifier.params());
        return p;
    }

    @Override public Policy create(PolicyContext ctx, Params params) { return new Pe(ctx, params); }

    static final class Pe implements ResidencyPolicy, UnifiedMemory.Listener {
        private final MachineView machine;
        private final MemoryManager mm;
        private final Mode mode;
        private final long thresholdBytes, maxBytes;
        private final Classifier classifier;
        private long[] ageVpn = new long[256];
        private int head, size;
        private long rounds, proactive, fitsSkipped;

        Pe(PolicyContext ctx, Params p) {
            this.machine = ctx.machine();
            this.mm = ctx.memory();
            this.mode = Mode.of(p.getString("mode"));
            this.thresholdBytes = p.getLong("threshold");
            this.maxBytes = p.getLong("max_eviction");
            this.classifier = new Classifier(machine, p, () -> {});
            classifier.registerStats(ctx.stats(), "PE", mode == Mode.AUTO);
            ctx.stats().counter("pe_rounds", "proactive-eviction rounds started", () -> rounds);
            ctx.stats().counter("pe_evictions", "pages evicted proactively by PE", () -> proactive);
            ctx.stats().counter("pe_skipped_fits", "batches after which PE did not run because the footprint fits the effective (compressed) capacity", () -> fitsSkipped);
            if (machine.unifiedMemory() != null) machine.unifiedMemory().addListener(this);
        }

        private boolean active() {
            return switch (mode) {
                case ON -> true;
                case OFF -> false;
                case AUTO -> classifier.decided().pe;
            };
        }

        @Override
        public void onBatchAllocated(int faults) {
            UnifiedMemory um = machine.unifiedMemory();
            if (!active()) return;
            if (!um.oversubscribedEffective()) { // condition 1 of §4.2, with compressed capacity
                fitsSkipped++;
                return;
            }
            double threshold = thresholdBytes / (double) um.pageBytes();
            long most = Math.max(1, maxBytes / um.pageBytes()); // the copies' size: whole pages over the link
            int started = 0;
            // one victim at a time: a compressed victim frees only its compressed size (1/ratio of a frame)
            while (started < most && headroom(um) < threshold && um.evictAhead(1) == 1) started++;
            if (started > 0) {
                rounds++;
                proactive += started;
            }
        }

        /**
         * Free GPU memory later faults can count on, in frames: the free frames plus what the evictions under way will
         * free, less what fault batches already waiting for frames will take (they get it first, and the driver
         * started those evictions for them). §4.2 triggers PE on "free memory" below the threshold; counting an
         * eviction a waiting batch has claimed as free made PE evict less than its threshold asked for (with several
         * fault handlers, batches wait while others' evictions copy out). Evictions count at their compressed size.
         */
        static double headroom(UnifiedMemory um) { return um.freePages() + um.evictingPages() - um.awaitedPages(); }

        @Override
        public void onPageResident(long vpn, int pool) {
            if (size == ageVpn.length) {
                long[] a = new long[ageVpn.length * 2];
                for (int i = 0; i < size; i++) a[i] = ageVpn[(head + i) % ageVpn.length];
                ageVpn = a;
                head = 0;
            }
            ageVpn[(head + size++) % ageVpn.length] = vpn;
        }

        /** The page migrated in longest ago that is still resident (stale entries are dropped). */
        @Override
        public long chooseVictim(int pool) {
            UnifiedMemory um = machine.unifiedMemory();
            while (size > 0) {
                long v = ageVpn[head];
                head = (head + 1) % ageVpn.length;
                size--;
                if (um != null ? um.isResident(v) : mm.poolOf(v) == pool) return v;
            }
            return -1;
        }

        @Override
        public void close() {
            if (machine.unifiedMemory() != null) machine.unifiedMemory().removeListener(this);
            classifier.close();
        }

        @Override
        public java.util.Map<String, Object> exportState() {
            long[] a = new long[size];
            for (int i = 0; i < size; i++) a[i] = ageVpn[(head + i) % ageVpn.length];
            java.util.Map<String, Object> m = new java.util.HashMap<>(classifier.exportState()); // the class is the application's (§4.1)
            m.put("age_order", a);
            return m;
        }

        @Override
        public void importState(java.util.Map<String, Object> state) {
            classifier.importState(state);
            if (state.get("age_order") instanceof long[] a) {
                ageVpn = Arrays.copyOf(a, Math.max(256, a.length * 2));
                head = 0;
                size = a.length;
            }
        }
    }
}
