package org.hmsim.platform.machine;

import org.hmsim.api.policy.MigrationPolicy;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.platform.gpu.AddressTranslator;
import org.hmsim.platform.memory.os.OsMemoryManager;

/**
 * What a GPU page-table walk finds: the OS's translation (mapping the page through the placement slot
 * on first touch). Last-level TLB misses feed the migration and residency slots, as the thesis's
 * TLB-miss ring buffer does (seed 000 §2.5).
 */
final class Translator implements AddressTranslator {
    private final OsMemoryManager os;
    private MigrationPolicy migration;
    private ResidencyPolicy residency;

    Translator(OsMemoryManager os, MigrationPolicy migration, ResidencyPolicy residency) {
        this.os = os;
        this.migration = migration;
        this.residency = residency;
    }

    /** Live swap of the migration slot (at a safe point, on the simulation thread). */
    void setMigration(MigrationPolicy p) { this.migration = p; }

    /** Live swap of the residency slot. */
    void setResidency(ResidencyPolicy p) { this.residency = p; }

    /** Demand paging (seed 002): the unified-memory driver, or null when pages map on first touch. */
    private org.hmsim.platform.machine.uvm.UvmDriver uvm;

    void setUvm(org.hmsim.platform.machine.uvm.UvmDriver d) { this.uvm = d; }

    @Override
    public boolean resident(int gpu, int sm, long vpn, org.hmsim.platform.gpu.tlb.FaultWaiter waiter) {
        return uvm == null || uvm.resident(gpu, sm, vpn, waiter);
    }

    /** The CPU side, whose coherence-permission check runs at every GPU page walk; null without one. */
    private org.hmsim.platform.cpu.CpuSide cpu;

    void setCpu(org.hmsim.platform.cpu.CpuSide c) { this.cpu = c; }

    @Override
    public long translate(int gpu, long vaddr) {
        return os.translate(vaddr, gpu);
    }

    @Override
    public long walkFaultPs(int gpu, long vaddr) {
        return cpu == null ? 0 : cpu.onGpuWalk(gpu, vaddr, os.translate(vaddr, gpu));
    }

    @Override
    public long pageBytes() { return os.pageBytes(); }

    @Override
    public void onTlbMiss(int gpu, long vpn) {
        migration.onTlbMiss(gpu, vpn);
        residency.onPageAccessed(vpn);
    }
}
