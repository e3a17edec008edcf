package org.hmsim.platform.traces.replay;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import org.hmsim.api.policy.ReplacementPolicy;
import org.hmsim.api.workload.WarpInstruction;
import org.hmsim.platform.traces.CpuKind;
import org.hmsim.platform.traces.KernelShape;
import org.hmsim.platform.traces.TraceAllocation;
import org.hmsim.platform.traces.TraceSink;

/**
 * Runs a trace's address stream through a cache hierarchy alone (docs/traces.md, "Cache replay") and
 * reports hits and misses per level as Dinero does. CPU accesses: I an instruction fetch, L a read, S a
 * write, M a read then a write; an access that crosses lines is one access per line. GPU memory
 * instructions are coalesced first, as the SM does: each distinct first-level line the active lanes touch
 * is one access (a load reads, a store writes, an atomic reads then writes).
 */
public final class CacheReplay implements TraceSink {
    private final List<ReplayCache> levels = new ArrayList<>();
    private final ReplayCache inst, data;
    private final ReplayCache.Memory memory = new ReplayCache.Memory();
    private final long[] lines = new long[64];
    private final int dataLineShift;
    private long gpuInstructions, cpuAccesses, kernels, phases;

    /** @param policies the replacement policy for a name ({@code lru}, {@code random}, ...) */
    public CacheReplay(List<CacheSpec> specs, Function<String, ReplacementPolicy> policies) {
        if (specs.isEmpty()) throw new IllegalArgumentException("give at least one --cache level");
        for (CacheSpec s : specs) {
            for (ReplayCache c : levels) if (c.spec.name().equals(s.name())) throw new IllegalArgumentException("cache level " + s.name() + " given twice");
            levels.add(new ReplayCache(s, policies.apply(s.replacement()), memory));
        }
        ReplayCache i = levels.get(0).spec.instructionOnly() ? levels.get(0) : null;
        int d = i == null ? 0 : 1;
        if (d >= levels.size()) throw new IllegalArgumentException("l1i needs a data level after it (e.g. l1d, then l2)");
        for (int k = d; k < levels.size() - 1; k++) levels.get(k).next = levels.get(k + 1);
        if (i != null) i.next = levels.size() > 2 ? levels.get(2) : null; // l1i, l1d share the levels below
        for (int k = 1; k < levels.size(); k++)
            if (levels.get(k).spec.instructionOnly()) throw new IllegalArgumentException("l1i must be the first level");
        this.inst = i == null ? levels.get(0) : i;
        this.data = levels.get(d);
        this.dataLineShift = Integer.numberOfTrailingZeros(data.spec.lineBytes());
    }

    @Override public void allocation(TraceAllocation a) {}

    @Override public void beginKernel(KernelShape k) { kernels++; }

    @Override
    public void instruction(int cta, int warp, WarpInstruction in) {
        gpuInstructions++;
        if (in.kind == WarpInstruction.Kind.COMPUTE || in.kind == WarpInstruction.Kind.BARRIER) return;
        int n = 0;
        for (int m = in.activeMask; m != 0; m &= m - 1) {
            long a = in.addresses[Integer.numberOfTrailingZeros(m)];
            for (long l = a >>> dataLineShift, end = (a + in.bytesPerThread - 1) >>> dataLineShift; l <= end; l++) {
                int k = 0;
                while (k < n && lines[k] != l) k++;
                if (k == n && n < lines.length) lines[n++] = l;
            }
        }
        for (int k = 0; k < n; k++) {
            long line = lines[k] << dataLineShift;
            if (in.kind == WarpInstruction.Kind.STORE) data.line(ReplayCache.WRITE, line);
            else {
                data.line(ReplayCache.READ, line);
                if (in.kind == WarpInstruction.Kind.ATOMIC) data.line(ReplayCache.WRITE, line);
            }
        }
    }

    @Override public void endKernel() {}

    @Override public void beginCpuPhase(String name) { phases++; }

    @Override
    public void cpuAccess(CpuKind kind, long address, int size) {
        cpuAccesses++;
        switch (kind) {
            case IFETCH -> inst.access(ReplayCache.IFETCH, address, size);
            case LOAD -> data.access(ReplayCache.READ, address, size);
            case STORE -> data.access(ReplayCache.WRITE, address, size);
            case MODIFY -> {
                data.access(ReplayCache.READ, address, size);
                data.access(ReplayCache.WRITE, address, size);
            }
        }
    }

    @Override public void endCpuPhase() {}

    @Override public void close() {}

    /** Hits of level {@code name} (all kinds). */
    public long hits(String name) {
        ReplayCache c = level(name);
        return c.totalFetches() - c.totalMisses();
    }

    public long misses(String name) { return level(name).totalMisses(); }

    /** Whether the trace held anything to replay: a memory instruction or a CPU access. */
    public boolean replayedAnything() { return gpuInstructions + cpuAccesses > 0; }

    public long fetches(String name) { return level(name).totalFetches(); }

    private ReplayCache level(String name) {
        for (ReplayCache c : levels) if (c.spec.name().equals(name)) return c;
        throw new IllegalArgumentException("no cache level " + name);
    }

    /** The Dinero-style report. */
    public void print(PrintStream o) {
        o.printf(Locale.ROOT, "hmsim cache replay: %d kernels, %d GPU instructions; %d CPU phases, %d CPU accesses%n", kernels, gpuInstructions, phases, cpuAccesses);
        for (ReplayCache c : levels) {
            o.println();
            o.println(c.spec.describe());
            o.printf(Locale.ROOT, " %-20s %14s %14s %14s %14s %14s%n", "Metrics", "Total", "Instrn", "Data", "Read", "Write");
            o.printf(Locale.ROOT, " %-20s %14s %14s %14s %14s %14s%n", "-------", "-----", "------", "----", "----", "-----");
            row(o, "Demand Fetches", c.fetches);
            long[] hits = new long[3];
            for (int k = 0; k < 3; k++) hits[k] = c.fetches[k] - c.misses[k];
            row(o, "Demand Hits", hits);
            row(o, "Demand Misses", c.misses);
            long f = c.totalFetches(), m = c.totalMisses();
            long df = c.fetches[1] + c.fetches[2], dm = c.misses[1] + c.misses[2];
            o.printf(Locale.ROOT, " %-20s %14s %14s %14s %14s %14s%n", "Demand miss rate", rate(m, f), rate(c.misses[0], c.fetches[0]), rate(dm, df),
                    rate(c.misses[1], c.fetches[1]), rate(c.misses[2], c.fetches[2]));
            o.printf(Locale.ROOT, " %-20s %14d%n", "Evictions", c.evictions);
            o.printf(Locale.ROOT, " %-20s %14d%n", "Writebacks", c.writebacks);
            o.printf(Locale.ROOT, " %-20s %14d%n", "Writes through", c.writeThroughs);
        }
        o.println();
        o.printf(Locale.ROOT, "memory: %d line reads (%d B), %d line writes (%d B)%n", memory.reads, memory.readBytes, memory.writes, memory.writeBytes);
    }

    private static void row(PrintStream o, String name, long[] v) {
        o.printf(Locale.ROOT, " %-20s %14d %14d %14d %14d %14d%n", name, v[0] + v[1] + v[2], v[0], v[1] + v[2], v[1], v[2]);
    }

    private static String rate(long m, long f) { return f == 0 ? "-" : String.format(Locale.ROOT, "%.4f", (double) m / f); }
}
