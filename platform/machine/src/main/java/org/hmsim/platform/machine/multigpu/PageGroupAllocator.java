package org.hmsim.platform.machine.multigpu;

import java.util.Arrays;
import java.util.function.Supplier;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.policy.InterleavePolicy;
import org.hmsim.api.stats.Stats;
import org.hmsim.platform.engine.PhysicalAddress;
import org.hmsim.platform.memory.os.FrameMapper;

/**
 * The OS's physical allocator of a multi-GPU machine (seed 004 §4.2, Fig. 8). Local frame {@code k} of
 * every GPU memory together form page group {@code k}. A group is free, or fine-grained (FGP: its N
 * pages are spread over the N memories at the interleave grain), or coarse-grained (CGP: page j of the
 * group lies whole in memory j). A group takes a mode when its first page is handed out and, since
 * pages are never unmapped while a run lasts, keeps it; a group could change mode only once all N of its
 * pages are free again, because an FGP's blocks sit in the same frame of every memory.
 *
 * <p>For each page the interleave slot decides ({@link InterleavePolicy#pageHome}): spread, or whole in
 * memory h. A CGP for memory h takes the oldest CGP group whose slot h is still free, else opens a new
 * group; slots of CGP groups that no page ever wants stay empty (counted as {@code cgp_slots_idle}, the
 * fragmentation the page-group rule costs). Groups are numbered from the top of the memories down
 * (local frame {@code frames - 1 - k} for the k-th group used).
 *
 * <p><b>Full.</b> With no group left to open, a page goes whole to the GPU memory with the most free slots of open
 * groups ({@code cgp_spills}); with none left either, the GPU memories are full and {@link #map} answers
 * {@link #GPU_MEMORIES_FULL}: the OS then finds every GPU pool full ({@link #framesAvailableBelow} is 0) and spills the
 * page to another pool (the CPU's) as it does a full pool's on a one-GPU machine.
 */
public final class PageGroupAllocator implements FrameMapper {
    private static final byte FREE = 0, FGP = 1, CGP = 2;
    /** No GPU frame left for the page: the OS takes a frame the ordinary way, which spills it to a pool not a GPU memory. */
    static final long GPU_MEMORIES_FULL = -1;

    private final GpuMemories mem;
    private final Supplier<InterleavePolicy> interleave;
    private final int n;
    private final long page;
    private final long maxGroups;
    private byte[] mode = new byte[64];
    private long nextGroup;
    /** The FGP group being filled and how many of its pages are used. */
    private long fgpGroup = -1;
    private int fgpUsed;
    /** Per memory: CGP groups whose slot for that memory is free, as a FIFO. */
    private final long[][] open;
    private final int[] openHead, openTail;
    private long fgpPages, fgpGroups, cgpGroups, cgpSpills;
    private final long[] cgpPages;

    public PageGroupAllocator(GpuMemories mem, long[] capacityBytes, Supplier<InterleavePolicy> interleave) {
        this.mem = mem;
        this.interleave = interleave;
        this.n = mem.count();
        this.page = mem.pageBytes();
        long min = Long.MAX_VALUE;
        for (int m = 0; m < n; m++) min = Math.min(min, capacityBytes[mem.pool(m)] / page);
        this.maxGroups = min;
        this.open = new long[n][16];
        this.openHead = new int[n];
        this.openTail = new int[n];
        this.cgpPages = new long[n];
    }

    @Override
    public long map(long vpn, Allocation allocation, int pool, int gpu) {
        if (mem.memoryOf(pool) < 0) return -1; // not GPU memory (a CPU pool): the ordinary way
        int home = interleave.get().pageHome(vpn, allocation, gpu, n);
        if (home == InterleavePolicy.SPREAD) return spreadPage(vpn);
        if (home < 0 || home >= n)
            throw new IllegalStateException("interleave policy put page 0x" + Long.toHexString(vpn) + " in GPU memory " + home + "; memories are 0.." + (n - 1));
        return wholePage(home, vpn);
    }

    private long spreadPage(long vpn) {
        if (fgpGroup < 0 || fgpUsed == n) {
            if (nextGroup >= maxGroups) return spreadWhenNoGroupLeft(vpn);
            fgpGroup = newGroup(FGP, vpn);
            fgpUsed = 0;
            fgpGroups++;
        }
        fgpPages++;
        return PhysicalAddress.make(mem.spreadPool(), (frameOf(fgpGroup) * n + fgpUsed++) * page);
    }

    /**
     * A spread page needs a whole group, and none is left: it goes whole to the GPU memory with the most free slots (GPU
     * memory before the CPU's, as the OS's spill order by bandwidth has it), else the GPU memories are full.
     */
    private long spreadWhenNoGroupLeft(long vpn) {
        int home = spillTarget();
        return home < 0 ? GPU_MEMORIES_FULL : wholePage(home, vpn);
    }

    private long wholePage(int home, long vpn) {
        if (openHead[home] == openTail[home] && nextGroup >= maxGroups) {
            home = spillTarget();
            if (home < 0) return GPU_MEMORIES_FULL;
        }
        long g;
        if (openHead[home] < openTail[home]) {
            g = open[home][openHead[home]++];
        } else {
            g = newGroup(CGP, vpn);
            cgpGroups++;
            for (int m = 0; m < n; m++) if (m != home) push(m, g);
        }
        cgpPages[home]++;
        return PhysicalAddress.make(mem.pool(home), frameOf(g) * page);
    }

    /**
     * The memory a page goes whole to when the one it wants is full (every group's slot for it taken, no group left to
     * open): the one with the most free slots of open groups, as the OS spills a full pool's page to another (a review
     * found a mix's big program failing "out of memory" with three memories nearly empty), counted in cgp_spills; -1 when
     * none has a free slot.
     */
    private int spillTarget() {
        int best = -1;
        for (int m = 0; m < n; m++)
            if (openTail[m] - openHead[m] > (best < 0 ? 0 : openTail[best] - openHead[best])) best = m;
        if (best >= 0) cgpSpills++;
        return best;
    }

    /**
     * The local frame of page group {@code g}: groups are taken from the top of the memories down, and the OS hands
     * out frames from the bottom up for page migrations into a GPU memory (migrate-on-first-touch) only below the
     * groups ({@link #framesAvailableBelow}); it refuses a group that would reach its frames.
     */
    private long frameOf(long g) { return maxGroups - 1 - g; }

    /** Page groups hold each GPU memory's frames from {@code maxGroups - groups used} up; migrations take those below. */
    @Override
    public long framesAvailableBelow(int pool) { return mem.memoryOf(pool) < 0 ? Long.MAX_VALUE : maxGroups - nextGroup; }

    private void push(int m, long g) {
        if (openTail[m] == open[m].length) {
            int live = openTail[m] - openHead[m];
            long[] a = open[m].length > 2 * live ? open[m] : new long[open[m].length * 2];
            System.arraycopy(open[m], openHead[m], a, 0, live);
            open[m] = a;
            openHead[m] = 0;
            openTail[m] = live;
        }
        open[m][openTail[m]++] = g;
    }

    private long newGroup(byte kind, long vpn) {
        if (nextGroup >= maxGroups)
            throw new IllegalStateException("out of memory: every page group of the GPU memories is in use when mapping page 0x" + Long.toHexString(vpn));
        long g = nextGroup++;
        if (g >= mode.length) mode = Arrays.copyOf(mode, (int) Math.min(Integer.MAX_VALUE - 8, Math.max(g + 1, 2L * mode.length)));
        mode[(int) g] = kind;
        return g;
    }

    public long fgpPages() { return fgpPages; }

    public long cgpPages(int memory) { return cgpPages[memory]; }

    /** Registers {@code os.groups.*}. */
    public void registerStats(Stats root) {
        Stats s = root.scope("os").scope("groups");
        s.counter("fgp_pages", "pages spread over every GPU memory (fine-grained, seed 004 FGP)", () -> fgpPages);
        s.counter("fgp_groups", "page groups in fine-grained mode", () -> fgpGroups);
        s.counter("cgp_groups", "page groups in coarse-grained mode", () -> cgpGroups);
        s.counter("cgp_spills", "pages wanted whole in a full GPU memory, or spread when no page group was left, held whole in the GPU memory with the most free slots instead", () -> cgpSpills);
        s.counter("cgp_slots_idle", "slots of coarse-grained groups no page has taken (fragmentation of the page-group rule)", () -> {
            long idle = 0;
            for (int m = 0; m < n; m++) idle += openTail[m] - openHead[m];
            return idle;
        });
        for (int m = 0; m < n; m++) {
            int mm = m;
            s.counter("cgp_pages_mem" + m, "pages held whole in GPU memory " + m + " (pool " + mem.pool(m) + ")", () -> cgpPages[mm]);
        }
    }
}
