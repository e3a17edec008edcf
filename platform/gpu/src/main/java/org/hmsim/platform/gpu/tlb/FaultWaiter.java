package org.hmsim.platform.gpu.tlb;

/**
 * A page-table walker whose walk found a non-resident page (a far fault, seed 002 §2.1): the demand-paging
 * driver calls it back when the page has arrived in GPU memory, and the walk completes then.
 */
public interface FaultWaiter {
    /** {@code vpn} is resident now: finish the walk parked on it. */
    void onPageResident(long vpn);
}
