package org.hmsim.coda;

import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.CtaStrideProfile;
import org.hmsim.api.os.MemoryManager;

/**
 * CODA's dual-mode page mapping (seed 004 §4.2) with placement at allocation (§4.4, Eq. 2–3).
 *
 * <p>For an allocation whose per-block exclusive stride {@code B} is known ({@link
 * MemoryManager#ctaStrideBytes}: the compiler's runtime-constant stride, §4.1), the blocks that
 * affinity scheduling gives one GPU ({@code N_bpg} consecutive blocks, Eq. 1) use {@code L = B × N_bpg}
 * consecutive bytes, so the object is laid out in chunks of {@code L} on consecutive GPUs and each page
 * becomes a coarse-grained page (CGP) of its chunk's GPU. Shared, irregular and unknown objects stay
 * fine-grained (FGP), spread at 128 B over every GPU.
 *
 * <p>The paper's Eq. 2 caps the chunk at one page ({@code min(4KB, B × N_bpg)}), which makes placement
 * page-round-robin and contradicts its own "contiguous chunks of B × N bytes on each GPU" (summary §7.1).
 * Parameter {@code chunk} settles it: {@code owner} (default) gives each page to the GPU that owns the
 * majority of its bytes (the byte at the page's middle) under chunks of exactly {@code L}; {@code roundup}
 * rounds {@code L} up to whole pages (chunks drift against the block groups when L is not a page
 * multiple); {@code literal} applies Eq. 2 as printed. Objects whose chunk is smaller than
 * {@code min_chunk} pages stay FGP (the paper gives no rule, §7.13): every page would be shared anyway.
 *
 * <p><b>GPUs, not memories.</b> The chunks go round the GPUs, as Eq. 1 sends the block groups to GPUs; a GPU with
 * several memories takes its chunks' pages into them in turn, in the order they are mapped. On a machine of one GPU every page is local already,
 * so CODA leaves every page FGP: a CGP page there would localise nothing and take its blocks off three of the four
 * stacks (Fig. 14). (Until the fourth session of 2026-11-27 the chunks went round the memories, so on one GPU with
 * four stacks the blocks in flight all read the one stack that held their chunk: 0.40-0.78x of FGP.)
 *
 * <p><b>Estimate</b> (§4.1). {@code auto}: the declared stride (the compiler's runtime-constant
 * stride), and where it is unknown the profiling fallback ({@link MemoryManager#profileCtaStride}:
 * the address streams of sampled consecutive block pairs, μ and CoV of their distance); {@code
 * declared}: declarations only (unknown objects stay FGP); {@code profile}: always the profile. A
 * profile counts as a stride when μ &gt; 0 and CoV &le; {@code max_cov}; more irregular objects stay
 * FGP (the paper: a low CoV means an accurate estimate, Fig. 12; it gives no threshold).
 */
final class CodaInterleave extends ChannelInterleave {
    enum Chunk { OWNER, ROUNDUP, LITERAL }

    enum Estimate { AUTO, DECLARED, PROFILE }

    private final MemoryManager memory;
    private final GpuGeometry.LazyBlocks blocksPerGpu;
    private final GpuGeometry.MemoryTurns turns;
    private final Chunk chunk;
    private final double minChunkPages;
    private final long page;
    private long cgpDecisions, fgpDecisions, profiled;
    private final Estimate estimate;
    private final double maxCov;
    /** The stride each allocation was given (by id), decided once: {@code Long.MIN_VALUE} = not yet. */
    private long[] strides = new long[0];

    CodaInterleave(long channelGranularity, int spread, MemoryManager memory, GpuGeometry.LazyBlocks blocksPerGpu, int[][] memoriesOfGpu,
                   Chunk chunk, double minChunkPages) {
        this(channelGranularity, spread, memory, blocksPerGpu, memoriesOfGpu, chunk, minChunkPages, Estimate.AUTO, 0.5);
    }

    CodaInterleave(long channelGranularity, int spread, MemoryManager memory, GpuGeometry.LazyBlocks blocksPerGpu, int[][] memoriesOfGpu,
                   Chunk chunk, double minChunkPages, Estimate estimate, double maxCov) {
        super(channelGranularity, spread);
        this.estimate = estimate;
        this.maxCov = maxCov;
        this.memory = memory;
        this.blocksPerGpu = blocksPerGpu;
        this.turns = new GpuGeometry.MemoryTurns(memoriesOfGpu);
        this.chunk = chunk;
        this.minChunkPages = minChunkPages;
        this.page = memory.pageBytes();
    }

    @Override
    public java.util.Map<String, Object> exportState() { return java.util.Map.of(GpuGeometry.MemoryTurns.STATE_KEY, turns.state()); }

    @Override
    public void importState(java.util.Map<String, Object> state) { turns.restore(state.get(GpuGeometry.MemoryTurns.STATE_KEY)); }

    @Override
    public int pageHome(long vpn, Allocation a, int gpu, int memories) {
        // a program of a multiprogrammed mix (§6.5) runs on one GPU: every block's data, shared or not, is that GPU's
        // (the paper's footnote 6: "CODA would perform as well as CGP-Only" there)
        int mine = ProgramGpu.memoryOf(memory, a, turns);
        if (mine >= 0) {
            cgpDecisions++;
            return mine;
        }
        int gpus = turns.gpus();
        long b = gpus > 1 ? stride(a) : 0; // one GPU: every page is local already, and FGP keeps its memories' parallelism
        if (b <= 0) {
            fgpDecisions++;
            return SPREAD;
        }
        long l = b * blocksPerGpu.get(() -> memory.firstKernelWarpsPerCta(a));
        if (l < minChunkPages * page) {
            fgpDecisions++;
            return SPREAD;
        }
        long offset = vpn * page - a.baseVa(); // allocations are page-aligned
        // Eq. 3 lays the chunks out over the GPUs, as Eq. 1 gives the block groups to GPUs
        int owner = switch (chunk) {
            case OWNER -> (int) (((offset + page / 2) / l) % gpus);
            case ROUNDUP -> (int) ((offset / ((l + page - 1) / page * page)) % gpus);
            case LITERAL -> (int) ((offset / ((Math.min(4096, l) + page - 1) / page * page)) % gpus);
        };
        int home = turns.next(owner);
        if (home < 0) {
            fgpDecisions++;
            return SPREAD;
        }
        cgpDecisions++;
        return home;
    }

    /** The per-block stride B of {@code a} under the estimate rule (> 0), or <= 0 for FGP; decided once per allocation. */
    long stride(Allocation a) {
        int id = a.id();
        if (id >= strides.length) {
            int old = strides.length;
            strides = java.util.Arrays.copyOf(strides, Math.max(id + 1, 2 * old));
            java.util.Arrays.fill(strides, old, strides.length, Long.MIN_VALUE);
        }
        if (strides[id] == Long.MIN_VALUE) {
            long declared = estimate == Estimate.PROFILE ? -1 : memory.ctaStrideBytes(a);
            if (declared < 0 && estimate != Estimate.DECLARED) declared = fromProfile(memory.profileCtaStride(a));
            strides[id] = declared;
        }
        return strides[id];
    }

    private long fromProfile(CtaStrideProfile p) {
        if (p == null || p.pairs() == 0) return -1;
        profiled++;
        if (!(p.meanBytes() > 0) || !(p.cov() <= maxCov)) return 0; // shared, or too irregular for a stride
        return Math.round(p.meanBytes());
    }

    long profiled() { return profiled; }

    long cgpDecisions() { return cgpDecisions; }

    long fgpDecisions() { return fgpDecisions; }
}
