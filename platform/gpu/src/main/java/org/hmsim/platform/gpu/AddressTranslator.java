package org.hmsim.platform.gpu;

/**
 * The GPU's view of the OS page tables: what a page-table walk finds. The lead wires it to the OS memory
 * manager, which maps a page on its first touch (seed 000 §2.5: first touch = the first time the GPU
 * translates the page).
 */
public interface AddressTranslator {

    /** The physical address of {@code vaddr} as seen by {@code gpu} (maps the page if untouched). */
    long translate(int gpu, long vaddr);

    /** Page size in bytes (a power of two). */
    long pageBytes();

    /**
     * A GPU missed in its last-level TLB on {@code vpn}: the thesis's TLB-miss ring buffer input that
     * drives threshold migration (seed 000 §2.5). Called when the walk starts.
     */
    default void onTlbMiss(int gpu, long vpn) {}

    /**
     * Demand paging (seed 002 §2.1): whether {@code vpn} may be translated now. If not, the translator has
     * raised a far fault on behalf of SM {@code sm} (index within the GPU) and calls
     * {@code waiter.onPageResident(vpn)} once the page is in GPU memory; the walk stays parked until then
     * (later misses on the page merge into it). The default: every page is always resident.
     */
    default boolean resident(int gpu, int sm, long vpn, org.hmsim.platform.gpu.tlb.FaultWaiter waiter) { return true; }

    /**
     * The OS's permission check at the end of a walk of {@code vaddr} (seed 001: the coherence permission in
     * the PTE): how long the walk must wait for the fault handler before its translation is used, in ps; 0 when
     * the access is allowed (or the fault stalls the whole GPU instead, which the translator then arranges).
     * Called once per walk, after {@link #resident} and before {@link #translate}.
     */
    default long walkFaultPs(int gpu, long vaddr) { return 0; }
}
