package org.hmsim.platform.machine;

import java.util.List;
import org.hmsim.api.os.Allocation;
import org.hmsim.api.os.CtaStrideProfile;
import org.hmsim.api.os.MemoryManager;

/**
 * The memory manager as one policy sees it ({@code PolicyContext.memory()}): the run's, until the policy is swapped
 * out. From then on ({@link #retire}) it starts no page copy and maps no page, and the copies it started that are
 * still in flight complete (the pages move, the page table and TLBs are updated) without calling back into it.
 *
 * <p>This is what lets a migration-slot swap take place at once: a copy in flight holds no decision the new policy
 * needs, only a completion callback into the old one, which a closed policy must not get (its bundle may be leaving).
 * Until 2026-11-29 the swap waited, with the GPUs held, until every copy had finished, and the old policy went on
 * starting copies from its queue meanwhile (bandwidth balancing: a 14.5 µs drain).
 */
final class PolicyMemory implements MemoryManager {
    private final MemoryManager os;
    private boolean retired;
    /** The workload has ended: no copy starts, no page is mapped, but the copies in flight still call back. */
    private boolean workloadEnded;
    /** Copies this policy started that have not completed. */
    private int inFlight;

    PolicyMemory(MemoryManager os) { this.os = os; }

    /** The policy left its slot (swapped out, or its swap refused before it was installed). */
    void retire() { retired = true; }

    /**
     * The workload has ended: the policy starts no copy and maps no page from now on, but stays in its slot and is told
     * of its copies' completions (a policy waiting for them, as bw-aware's balancing timer does, would otherwise never
     * fall quiet).
     */
    void endWorkload() { workloadEnded = true; }

    /** Copies the policy started that are still moving. */
    int copiesInFlight() { return inFlight; }

    @Override
    public boolean migrate(long vpn, int toPool, Runnable done) {
        if (retired || workloadEnded) return false;
        if (!os.migrate(vpn, toPool, new Completion(done))) return false;
        inFlight++;
        return true;
    }

    /** One copy's completion: told to the policy only while it holds its slot (one small object per page copied). */
    private final class Completion implements Runnable {
        private final Runnable done;

        Completion(Runnable done) { this.done = done; }

        @Override
        public void run() {
            inFlight--;
            if (!retired && done != null) done.run();
        }
    }

    @Override
    public int map(long vpn, int pool) { return retired || workloadEnded ? -1 : os.map(vpn, pool); }

    // ---- reads: the run's memory manager as it is

    @Override public long pageBytes() { return os.pageBytes(); }

    @Override public List<Allocation> allocations() { return os.allocations(); }

    @Override public Allocation allocationOf(long va) { return os.allocationOf(va); }

    @Override public int poolOf(long vpn) { return os.poolOf(vpn); }

    @Override public long freeFrames(int pool) { return os.freeFrames(pool); }

    @Override public long totalFrames(int pool) { return os.totalFrames(pool); }

    @Override public long mappedPages(int pool) { return os.mappedPages(pool); }

    @Override public boolean translatedByGpu(long vpn) { return os.translatedByGpu(vpn); }

    @Override public long ctaStrideBytes(Allocation allocation) { return os.ctaStrideBytes(allocation); }

    @Override public CtaStrideProfile profileCtaStride(Allocation allocation) { return os.profileCtaStride(allocation); }

    @Override public int firstKernelWarpsPerCta(Allocation allocation) { return os.firstKernelWarpsPerCta(allocation); }

    @Override public int programGpu(Allocation allocation) { return os.programGpu(allocation); }

    @Override public double compressionRatio(Allocation allocation) { return os.compressionRatio(allocation); }
}
