package org.hmsim.api.policy;

import java.util.List;
import org.hmsim.api.os.Allocation;

/**
 * DRAM accesses per virtual page counted in a profiling pass (seed 000 §2.3, §4.3: "pass 1 counts DRAM
 * accesses per 4KB page", i.e. the requests that missed the L1 and L2 and reached a memory pool, reads
 * and write-backs alike). The pass runs the same machine, workload, seed and policies before the
 * measured run; allocations get the same virtual addresses in both, so page numbers carry over.
 * Since api.policy 1.1.0.
 */
@org.osgi.annotation.versioning.ProviderType
public interface AccessProfile {

    /** The allocations of the profiled run, in allocation order (ids are their indices). */
    List<Allocation> allocations();

    /**
     * DRAM accesses to virtual page {@code vpn} in the profiling pass; 0 for a page never reached. An access is one request
     * the memory fabric accepted after the on-chip caches (seed 000 §2.3): each L2 miss's fetch (sector-sized where the L2
     * fetches only the missing sectors, so a line read once may count more than once), each write-back and each page
     * copy; not bytes. Compare allocations with one another, not against one access per line.
     */
    long accesses(long vpn);

    /** Accesses per page of one allocation (index = page within the allocation); a copy. */
    long[] pageAccesses(int allocationId);

    /** All DRAM accesses of the profiling pass that fell in an allocation. */
    long totalAccesses();
}
