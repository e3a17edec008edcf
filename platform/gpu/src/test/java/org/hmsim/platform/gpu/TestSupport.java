package org.hmsim.platform.gpu;

import java.util.ArrayDeque;
import java.util.List;
import java.util.function.BiFunction;
import org.hmsim.api.engine.EventTarget;
import org.hmsim.api.machine.CoreView;
import org.hmsim.api.mem.AccessKind;
import org.hmsim.api.mem.MemClient;
import org.hmsim.api.mem.MemRequest;
import org.hmsim.api.mem.MemSink;
import org.hmsim.api.mem.RequestPool;
import org.hmsim.api.policy.CacheabilityPolicy;
import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.policy.CtaSchedulerPolicy;
import org.hmsim.api.policy.L2MissPathPolicy;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.policy.WarpSchedulerPolicy;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.platform.engine.EventQueue;

/** Small fakes for GPU tests: a fixed-latency fabric, an identity translator, simple policies, kernels. */
final class TestSupport {
    private TestSupport() {}

    static CacheConfig l1(int mshrs) { return new CacheConfig(16 * 1024, 4, 128, 3, mshrs, 8, 128, 8); }

    static CacheConfig l2(long bytes, int ways) { return new CacheConfig(bytes, ways, 128, 120, 128, 8, 128, 32); }

    static GpuConfig config(int sms, int l1Mshrs) {
        return new GpuConfig(1400, sms, 8, 48, 48 * 1024, 2, l1(l1Mshrs), l2(128 * 1024, 8), 2,
                new CrossbarConfig(4, 32, 16), new TlbConfig(32, 32, 1, 512, 16, 10, 100, 8, 100));
    }

    /** A memory behind the L2 with a fixed round trip; counts what it sees. */
    static final class FixedLatencyFabric implements MemSink, EventTarget {
        final EventQueue engine;
        final RequestPool pool;
        final long latencyPs;
        final ArrayDeque<MemRequest> inFlight = new ArrayDeque<>();
        final ArrayDeque<Long> readyAt = new ArrayDeque<>();
        long reads, readBytes, writebacks, writebackBytes, writes, refusals;
        /** Reads that arrived while an acknowledged write-back of their line was still in flight. */
        long readsPassingWriteBacks;
        private final java.util.Map<Long, Integer> writeBacksInFlight = new java.util.HashMap<>();
        /** Reads/writes in flight beyond which the fabric refuses (back-pressure). */
        int capacity = Integer.MAX_VALUE;
        final java.util.List<MemClient> waiting = new java.util.ArrayList<>();

        FixedLatencyFabric(EventQueue engine, RequestPool pool, long latencyPs) {
            this.engine = engine;
            this.pool = pool;
            this.latencyPs = latencyPs;
        }

        @Override
        public boolean tryAccept(MemRequest r, MemClient from) {
            if (r.pool != 0) throw new AssertionError("unexpected pool " + r.pool);
            if (r.kind == AccessKind.WRITEBACK) {
                writebacks++;
                writebackBytes += r.size;
                if (r.replyTo == null) {
                    pool.give(r);
                    return true;
                }
                // an acknowledged write-back (the L2's eviction waits for it): timed like a write, counted once
                writes--;
                writeBacksInFlight.merge(r.paddr >>> 7, 1, Integer::sum);
            }
            if (inFlight.size() >= capacity) {
                refusals++;
                if (!waiting.contains(from)) waiting.add(from);
                return false;
            }
            if (r.kind == AccessKind.READ) {
                if (writeBacksInFlight.containsKey(r.paddr >>> 7)) readsPassingWriteBacks++;
                reads++;
                readBytes += r.size;
            } else writes++;
            inFlight.add(r);
            readyAt.add(engine.now() + latencyPs);
            if (inFlight.size() == 1) engine.scheduleIn(latencyPs, this, 0, 0); // one event for the head (FIFO)
            return true;
        }

        @Override
        public void handle(int kind, long payload) {
            MemRequest r = inFlight.poll();
            readyAt.poll();
            if (r.kind == AccessKind.WRITEBACK) writeBacksInFlight.computeIfPresent(r.paddr >>> 7, (k, n) -> n == 1 ? null : n - 1);
            if (!inFlight.isEmpty()) engine.schedule(readyAt.peek(), this, 0, 0);
            r.replyTo.onResponse(r);
            if (!waiting.isEmpty()) {
                MemClient[] w = waiting.toArray(new MemClient[0]);
                waiting.clear();
                for (MemClient c : w) c.onSpaceAvailable(this);
            }
        }
    }

    /** Identity mapping into pool 0 with 4 KB pages. */
    static final class IdentityTranslator implements AddressTranslator {
        long translations, misses;

        @Override
        public long translate(int gpu, long vaddr) {
            translations++;
            return vaddr;
        }

        @Override
        public long pageBytes() { return 4096; }

        @Override
        public void onTlbMiss(int gpu, long vpn) { misses++; }
    }

    static final class Lru implements ReplacementPolicy {
        @Override
        public State forCache(String cacheName, int sets, int ways) {
            long[] stamp = new long[sets * ways];
            long[] clock = {0};
            return new State() {
                public void onHit(int set, int way) { stamp[set * ways + way] = ++clock[0]; }

                public void onFill(int set, int way) { stamp[set * ways + way] = ++clock[0]; }

                public int victim(int set, long candidates) {
                    int best = -1;
                    for (int w = 0; w < ways; w++)
                        if ((candidates & (1L << w)) != 0 && (best < 0 || stamp[set * ways + w] < stamp[set * ways + best])) best = w;
                    return best;
                }
            };
        }
    }

    /** Greedy-then-oldest. */
    static final class Gto implements WarpSchedulerPolicy {
        @Override
        public State forSm(int gpu, int sm, int slots) {
            long[] age = new long[slots];
            int[] last = {-1};
            return new State() {
                public void onWarpStart(int slot, long a) { age[slot] = a; }

                public int pick(long ready) {
                    if (last[0] >= 0 && (ready & (1L << last[0])) != 0) return last[0];
                    int best = -1;
                    for (long m = ready; m != 0; m &= m - 1) {
                        int w = Long.numberOfTrailingZeros(m);
                        if (best < 0 || age[w] < age[best]) best = w;
                    }
                    return last[0] = best;
                }
            };
        }
    }

    /** Loose round-robin. */
    static final class Lrr implements WarpSchedulerPolicy {
        @Override
        public State forSm(int gpu, int sm, int slots) {
            int[] last = {-1};
            return new State() {
                public void onWarpStart(int slot, long a) {}

                public int pick(long ready) {
                    long after = last[0] >= 63 ? 0 : ready & (-1L << (last[0] + 1));
                    int w = Long.numberOfTrailingZeros(after != 0 ? after : ready);
                    return last[0] = w;
                }
            };
        }
    }

    static final class RoundRobinCta implements CtaSchedulerPolicy {
        int next;
        int maxResidentSeen;

        @Override
        public int pickSm(int kernel, int cta, List<? extends CoreView> sms, boolean[] canTake) {
            for (CoreView c : sms) maxResidentSeen = Math.max(maxResidentSeen, c.residentCtas());
            for (int i = 0; i < sms.size(); i++) {
                int s = (next + i) % sms.size();
                if (canTake[s]) {
                    next = s + 1;
                    return s;
                }
            }
            return -1;
        }
    }

    static GpuPolicies policies(WarpSchedulerPolicy ws, CacheabilityPolicy cacheability, CtaSchedulerPolicy cta) {
        return new GpuPolicies(ws, new Lru(), cacheability, new L2MissPathPolicy() {}, cta, new CoherencePolicy() {});
    }

    static GpuPolicies policies() { return policies(new Gto(), (l, r) -> true, new RoundRobinCta()); }

    /** A kernel whose warps run the given programs. */
    static Kernel kernel(String name, int ctas, int threadsPerCta, BiFunction<Integer, Integer, WarpProgram> programs) {
        return new Kernel() {
            public String name() { return name; }

            public int ctas() { return ctas; }

            public int threadsPerCta() { return threadsPerCta; }

            public WarpProgram program(int cta, int warp) { return programs.apply(cta, warp); }
        };
    }

    /** Fills a memory instruction: thread t accesses base + t * stride. */
    static void strided(WarpInstruction in, WarpInstruction.Kind kind, long base, long stride, int bytes, boolean waits) {
        in.memory(kind, bytes, -1, waits);
        for (int t = 0; t < WarpInstruction.THREADS; t++) in.addresses[t] = base + t * stride;
    }

    /** A running GPU with its engine, pool and fabric. */
    static final class Rig {
        final EventQueue engine = new EventQueue();
        final RequestPool pool = new RequestPool();
        final FixedLatencyFabric fabric;
        final IdentityTranslator translator = new IdentityTranslator();
        final Gpu gpu;
        long completedAt = -1;
        int completions;

        Rig(GpuConfig cfg, GpuPolicies policies, long fabricPs) {
            fabric = new FixedLatencyFabric(engine, pool, fabricPs);
            gpu = new Gpu(0, cfg, engine, pool, policies, translator, fabric);
        }

        long run(Kernel k) {
            completedAt = -1;
            gpu.launch(k, 0, () -> {
                completedAt = engine.now();
                completions++;
            });
            engine.run();
            if (completedAt < 0) throw new AssertionError("kernel " + k.name() + " did not complete; in flight " + gpu.inFlight());
            return completedAt;
        }
    }
}
