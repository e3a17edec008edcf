package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.platform.cpu.CpuConfig;
import org.junit.jupiter.api.Test;

/** The machine file's cpu: section and a run with a CPU side under the default (none) coherence. */
class CpuSectionTest {
    @Test
    void sahcPresetHasTheSeedsCpuAndDirectory() {
        CpuConfig c = Presets.machine("sahc").cpu();
        assertEquals(2, c.cores());
        assertEquals(2000, c.clockMHz(), 1e-9);
        assertEquals(262_144, c.directory().entries());
        assertEquals(8, c.directory().banks());
        assertEquals(2 << 20, c.llc().sizeBytes());
        assertNull(Presets.machine("small").cpu(), "GPU-only presets have no CPU side");
    }

    @Test
    void badFieldsNameTheirPath() {
        ConfigException e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.directory.bankz", 4));
        assertTrue(e.getMessage().contains("cpu.directory.bankz"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.directory.ways", 3));
        assertTrue(e.getMessage().contains("cpu.directory"), e.getMessage());
        e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.llc.size", "3MB"));
        assertTrue(e.getMessage().contains("cpu.llc.size"), e.getMessage());
        // an inclusive LLC smaller than the private caches it covers quietly shrank them (a CPU-side trial)
        e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.llc.size", "256KB"));
        assertEquals("cpu.llc.size: an inclusive LLC of 262144 B is smaller than the 2 cores' private L2s it covers (2 x 262144 B): give it at"
                + " least their size", e.getMessage());
        e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.l2.size", "32KB"));
        assertTrue(e.getMessage().startsWith("cpu.l2.size: a core's L2 of 32768 B is smaller than its L1"), e.getMessage());
        // a group that is not a map hid the section's other errors (a CPU-side trial's l1: 32KB hid gpu_fault_stall: sm)
        ConfigException both = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.l1", "32KB", "cpu.gpu_fault_stall", "sm"));
        assertEquals(java.util.List.of("cpu.l1", "cpu.gpu_fault_stall"), both.all().stream().map(ConfigException::path).toList(), both.getMessage());
        e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.gpu_fault_stall", "sm"));
        assertTrue(e.getMessage().contains("cpu.gpu_fault_stall") && e.getMessage().contains("walk or gpu"), e.getMessage());
    }

    @Test
    void gpuPermissionFaultsHoldTheirWalkUnlessTheWholeGpuIsAsked() {
        assertEquals(CpuConfig.GpuFaultStall.WALK, Presets.machine("sahc").cpu().gpuFaultStall());
        assertEquals(CpuConfig.GpuFaultStall.GPU, Presets.machine("sahc", "cpu.gpu_fault_stall", "gpu").cpu().gpuFaultStall());
        // and as it says: a GPU's first walk of each page faults; walk holds that walk, gpu stalls the GPU's SMs instead
        RunResult walk = faultingRun(Presets.machine("sahc")), gpu = faultingRun(Presets.machine("sahc", "cpu.gpu_fault_stall", "gpu"));
        double faults = walk.stats().get("coherence.gpu_faults");
        assertTrue(faults > 0, "the case: GPU walks fault");
        assertEquals(faults, gpu.stats().get("coherence.gpu_faults"), "the same faults either way");
        assertEquals(faults, walk.stats().get("gpu0.tlb.permission_faults"), "walk: each fault holds its walk");
        assertEquals(0.0, gpu.stats().get("gpu0.tlb.permission_faults"), "gpu: no walk is held, the SMs stall");
        // the one OS handler serves the faults in turn, 2,000 cycles of the 2 GHz CPU (1 us) each, and the SMs wait for it
        // (measured 32.3 us for 48 faults; 0.5 us if the SMs were not stalled)
        assertTrue(gpu.simTimePs() > 10 * 1_000_000L, "gpu: the SMs stall for the handler: " + gpu.simTimePs() + " ps for " + faults + " faults");
    }

    /** A stream on {@code m} whose coherence policy faults on a GPU's first access to each page (2,000 cycles). */
    private static RunResult faultingRun(MachineConfig m) {
        java.util.Set<Long> seen = new java.util.HashSet<>();
        org.hmsim.api.policy.CoherencePolicy firstTouchFaults = new org.hmsim.api.policy.CoherencePolicy() {
            @Override
            public long checkAccess(int agent, long page, boolean write) { return agent >= 0 && seen.add(page) ? 2000 : 0; }
        };
        ClasspathPolicies defaults = new ClasspathPolicies();
        PolicySource source = new PolicySource() {
            @Override
            public org.hmsim.api.policy.Policy create(org.hmsim.api.policy.Slot s, org.hmsim.api.policy.PolicyContext c) {
                return s == org.hmsim.api.policy.Slot.COHERENCE ? firstTouchFaults : defaults.create(s, c);
            }

            @Override
            public String describe(org.hmsim.api.policy.Slot s) { return s == org.hmsim.api.policy.Slot.COHERENCE ? "first-touch-faults" : defaults.describe(s); }
        };
        return TestMachines.run(m, TestMachines.workload("stream", 1, "elements", 16384), source);
    }
}
