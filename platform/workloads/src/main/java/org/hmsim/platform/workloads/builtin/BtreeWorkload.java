package org.hmsim.platform.workloads.builtin;

import java.util.ArrayList;
import java.util.List;
import org.hmsim.api.os.AllocationHint;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.workload.AllocationSpec;
import org.hmsim.api.workload.Kernel;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.api.workload.WarpInstruction.Kind;
import org.hmsim.api.workload.WarpProgram;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.workloads.BuiltinProvider;
import org.hmsim.platform.workloads.Lanes;
import org.hmsim.platform.workloads.SimpleKernel;
import org.hmsim.platform.workloads.SimpleWorkload;
import org.hmsim.platform.workloads.gen.Hash;

/**
 * Rodinia b+tree {@code findK}: read-only lookups of random keys in a B+ tree with fanout 'order'.
 * Every query walks from the root (hot: all queries read it) through internal nodes to a leaf (cold)
 * and then a record; each level's node address is the value loaded at the level above, so the walk is
 * a chain of dependent loads (seed 000 §4: btree is L2-latency sensitive and gains +35% from read-only
 * caching). Two modes:
 * <ul>
 *   <li>{@code cta} (Rodinia): one CTA per query with 'order' threads; per level thread t compares
 *   keys[t] and keys[t+1] of the current node (a coalesced read of the whole key array), the matching
 *   thread publishes the child, barrier.</li>
 *   <li>{@code thread}: one thread per query doing a binary search in each node, every probe a
 *   dependent load (a pure pointer chase with 32 independent chains per warp).</li>
 * </ul>
 * The tree is complete and balanced; node i of a level covers keys [i·order^h, (i+1)·order^h).
 */
public final class BtreeWorkload extends BuiltinProvider {
    // allocations
    static final int NODES = 0, RECORDS = 1, KEYS = 2, CURR = 3, OFFSET = 4, ANS = 5;

    public BtreeWorkload() {
        super("btree", "model of Rodinia b+tree findK: random-key lookups in a balanced B+ tree (fanout 'order', Rodinia "
                        + "knode layout: indices[order+1], keys[order+1]), read-only nodes and records; hot root, cold leaves; "
                        + "each level's node address depends on the previous load (waitsForLoads). mode=cta is Rodinia's "
                        + "CTA-per-query kernel, mode=thread a thread-per-query binary-search pointer chase. Tree construction "
                        + "on the host is not modelled. Footprint ~ keys x (4 B + (8 B x (order+1) + 12 B)/order) + 24 B x queries.",
                List.of(
                        ParamSpec.integer("keys", 262_144, 2, 1 << 28, "records (keys 0..keys-1); footprint ~ 12 B x keys for order 256"),
                        ParamSpec.integer("order", 256, 4, 1024, "fanout and keys per node (Rodinia DEFAULT_ORDER)"),
                        ParamSpec.integer("queries", 512, 1, 1 << 24, "lookups (CTAs in mode cta, threads in mode thread)"),
                        ParamSpec.choice("mode", "cta", List.of("cta", "thread"), "cta = one CTA per query (Rodinia); thread = one thread per query"),
                        ParamSpec.integer("compute", 4, 1, 10_000, "cycles of key comparison per tree level (mode cta; in mode thread the probes are back-to-back dependent loads)")));
    }

    /** Shape and layout of the tree. */
    static final class Tree {
        final int order, levels;
        final long keys;
        final long[] levelStart; // first node index of each level, root level 0
        final long[] span;       // keys covered by one node of each level
        final long nodeBytes, nodes;

        Tree(long keys, int order) {
            this.keys = keys;
            this.order = order;
            List<Long> counts = new ArrayList<>();
            long c = (keys + order - 1) / order;
            counts.add(c);
            while (c > 1) {
                c = (c + order - 1) / order;
                counts.add(0, c);
            }
            levels = counts.size();
            levelStart = new long[levels];
            span = new long[levels];
            long at = 0, s = order;
            for (int l = levels - 1; l >= 0; l--) {
                span[l] = s;
                s = Math.min(s * order, Long.MAX_VALUE / order);
            }
            for (int l = 0; l < levels; l++) {
                levelStart[l] = at;
                at += counts.get(l);
            }
            nodes = at;
            nodeBytes = 4L * (2 * (order + 1) + 3); // location, indices[], keys[], is_leaf, num_keys
        }

        long node(int level, long key) { return levelStart[level] + key / span[level]; }

        /** Slot of the key (or child) in its node at this level. */
        int slot(int level, long key) { return (int) ((key % span[level]) / (span[level] / order)); }

        long keysAt(long node) { return node * nodeBytes + 4L * (order + 2); }

        long indicesAt(long node) { return node * nodeBytes + 4L; }
    }

    @Override
    public Workload create(Params p, long seed) {
        long keys = p.getInt("keys");
        int order = p.getInt("order"), queries = p.getInt("queries"), compute = p.getInt("compute");
        boolean ctaMode = p.getString("mode").equals("cta");
        Tree t = new Tree(keys, order);
        List<AllocationSpec> allocs = List.of(
                new AllocationSpec("knodes", t.nodes * t.nodeBytes, AllocationHint.NONE, true),
                new AllocationSpec("records", 4L * keys, AllocationHint.NONE, true),
                new AllocationSpec("query_keys", 4L * queries, AllocationHint.NONE, true),
                new AllocationSpec("currKnode", 8L * queries),
                new AllocationSpec("offset", 8L * queries),
                new AllocationSpec("answers", 4L * queries));
        return new SimpleWorkload(name(), allocs, b -> {
            if (ctaMode) {
                int threads = Math.min(order, 1024);
                return List.of(new SimpleKernel("findK", queries, threads, 0,
                        (cta, warp) -> new CtaQuery(t, b, Hash.below(Hash.of(seed, cta), keys), cta, warp, threads, compute)));
            }
            int threads = 256;
            return List.of(new SimpleKernel("findK_thread", (queries + threads - 1) / threads, threads, 0,
                    (cta, warp) -> new ThreadQueries(t, b, seed, queries, cta * threads + warp * 32, compute)));
        });
    }

    /** One warp of a query's CTA (mode cta). */
    static final class CtaQuery implements WarpProgram {
        private static final int PER_LEVEL = 8;
        private final Tree t;
        private final long[] b;
        private final long key;
        private final int query, warp, existing, compute;
        private int pc;

        CtaQuery(Tree t, long[] b, long key, int query, int warp, int threads, int compute) {
            this.t = t;
            this.b = b;
            this.key = key;
            this.query = query;
            this.warp = warp;
            this.existing = Lanes.existing(warp, threads);
            this.compute = compute;
        }

        @Override
        public boolean next(WarpInstruction out) {
            while (true) {
                int at = pc++;
                if (at == 0) { // keysD[bid], the same word for every thread
                    broadcast(out, Kind.LOAD, b[KEYS] + 4L * query, 4, existing, false);
                    return true;
                }
                int level = (at - 1) / PER_LEVEL, step = (at - 1) % PER_LEVEL;
                if (level < t.levels) {
                    if (levelStep(out, level, step)) return true;
                    continue;
                }
                int s = at - 1 - t.levels * PER_LEVEL;
                long leaf = t.node(t.levels - 1, key);
                int slot = t.slot(t.levels - 1, key);
                if (slot / 32 != warp) return false;
                int lane = 1 << (slot % 32);
                switch (s) {
                    case 0 -> broadcast(out, Kind.LOAD, b[NODES] + t.indicesAt(leaf) + 4L * slot, 4, lane, true);
                    case 1 -> broadcast(out, Kind.LOAD, b[RECORDS] + 4L * key, 4, lane, true);
                    case 2 -> broadcast(out, Kind.STORE, b[ANS] + 4L * query, 4, lane, true);
                    default -> { return false; }
                }
                return true;
            }
        }

        /** Returns false to skip a step this warp does not execute. */
        private boolean levelStep(WarpInstruction out, int level, int step) {
            long node = t.node(level, key);
            int slot = t.slot(level, key);
            boolean matcher = slot / 32 == warp;
            int lane = 1 << (slot % 32);
            switch (step) {
                case 0 -> broadcast(out, Kind.LOAD, b[CURR] + 8L * query, 8, existing, true);
                case 1, 2 -> { // keys[thid] and keys[thid+1] of the current node: depends on currKnode
                    int active = existing & Lanes.first(t.order - (long) warp * 32);
                    out.memory(Kind.LOAD, 4, active, step == 1);
                    long k0 = b[NODES] + t.keysAt(node) + 4L * (warp * 32L + (step - 1));
                    for (int l = 0; l < Lanes.W; l++) out.addresses[l] = k0 + 4L * l;
                }
                case 3 -> out.compute(compute, true);
                case 4 -> { // the matching thread: offset[bid] = indices[thid]
                    if (!matcher || level == t.levels - 1) return false;
                    broadcast(out, Kind.LOAD, b[NODES] + t.indicesAt(node) + 4L * slot, 4, lane, false);
                }
                case 5 -> {
                    if (!matcher || level == t.levels - 1) return false;
                    broadcast(out, Kind.STORE, b[OFFSET] + 8L * query, 8, lane, true);
                }
                case 6 -> out.barrier();
                default -> { // thread 0: currKnode[bid] = offset[bid]
                    if (warp != 0 || level == t.levels - 1) return false;
                    broadcast(out, Kind.STORE, b[CURR] + 8L * query, 8, 1, false);
                }
            }
            return true;
        }
    }

    /** 32 queries of a warp, one per lane (mode thread): binary search per node, then the child pointer. */
    static final class ThreadQueries implements WarpProgram {
        private final Tree t;
        private final long[] b;
        private final int first, mask, compute;
        private final long[] key = new long[Lanes.W];
        private final int[] lo = new int[Lanes.W], hi = new int[Lanes.W];
        private int level, phase;

        ThreadQueries(Tree t, long[] b, long seed, int queries, int first, int compute) {
            this.t = t;
            this.b = b;
            this.first = first;
            this.compute = compute;
            this.mask = Lanes.first(queries - (long) first);
            for (int l = 0; l < Lanes.W; l++) key[l] = Hash.below(Hash.of(seed, first + l), t.keys);
            resetSearch();
        }

        private void resetSearch() {
            for (int l = 0; l < Lanes.W; l++) {
                lo[l] = 0;
                hi[l] = t.order - 1;
            }
        }

        @Override
        public boolean next(WarpInstruction out) {
            if (mask == 0) return false;
            while (true) {
                switch (phase) {
                    case 0 -> { // the query key
                        phase = 1;
                        out.memory(Kind.LOAD, 4, mask, false);
                        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[KEYS] + 4L * (first + l);
                        return true;
                    }
                    case 1 -> { // one binary-search probe in the current node for every lane still searching
                        if (level == t.levels) { phase = 3; continue; }
                        int active = 0;
                        for (int l = 0; l < Lanes.W; l++) {
                            if ((mask & (1 << l)) == 0 || lo[l] >= hi[l]) continue;
                            int mid = (lo[l] + hi[l] + 1) >>> 1;
                            out.addresses[l] = b[NODES] + t.keysAt(t.node(level, key[l])) + 4L * mid;
                            if (mid <= t.slot(level, key[l])) lo[l] = mid;
                            else hi[l] = mid - 1;
                            active |= 1 << l;
                        }
                        if (active == 0) { phase = 2; continue; }
                        out.memory(Kind.LOAD, 4, active, true);
                        return true;
                    }
                    case 2 -> { // the child pointer (or record index at a leaf) of the found slot
                        for (int l = 0; l < Lanes.W; l++)
                            out.addresses[l] = b[NODES] + t.indicesAt(t.node(level, key[l])) + 4L * t.slot(level, key[l]);
                        out.memory(Kind.LOAD, 4, mask, true);
                        level++;
                        resetSearch();
                        phase = 1;
                        return true;
                    }
                    case 3 -> {
                        phase = 4;
                        out.memory(Kind.LOAD, 4, mask, true);
                        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[RECORDS] + 4L * key[l];
                        return true;
                    }
                    case 4 -> {
                        phase = 5;
                        out.memory(Kind.STORE, 4, mask, true);
                        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = b[ANS] + 4L * (first + l);
                        return true;
                    }
                    default -> { return false; }
                }
            }
        }
    }

    static void broadcast(WarpInstruction out, Kind kind, long addr, int bytes, int mask, boolean wait) {
        out.memory(kind, bytes, mask, wait);
        for (int l = 0; l < Lanes.W; l++) out.addresses[l] = addr;
    }
}
