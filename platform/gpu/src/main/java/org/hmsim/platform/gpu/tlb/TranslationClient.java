package org.hmsim.platform.gpu.tlb;

/** An SM waiting for translations from the shared L2 TLB and the page-table walkers. */
public interface TranslationClient {
    /** {@code vpn} now maps to the page whose first byte is at physical {@code pageBase}. */
    void onTranslation(long vpn, long pageBase);
}
