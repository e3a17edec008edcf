package org.hmsim.platform.cpu;

/** What the CPU side asks of the GPUs (the machine implements it): fault stalls and TLB shootdowns. */
public interface GpuControl {
    /** Stops GPU {@code gpu} issuing for {@code ps} (it took a page-permission fault). */
    void stall(int gpu, long ps);

    /** Drops virtual page {@code vpn} from every GPU TLB (its coherence permission moved to the CPU). */
    void shootdown(long vpn);
}
