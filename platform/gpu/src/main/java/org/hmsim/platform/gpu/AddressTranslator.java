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
     * Whether a page may be moved (and so shot down from the TLBs) soon: a migration is under way. While
     * this is false the SMs may perform L1-hit requests of the next few cycles ahead (see
     * {@code Sm#runAhead}): a shootdown cannot land inside that window. The default is the safe answer;
     * an OS that knows its migrations (OsMemoryManager.migrationsInFlight() &gt; 0) should override it.
     */
    default boolean pageMovesInFlight() { return true; }
}
