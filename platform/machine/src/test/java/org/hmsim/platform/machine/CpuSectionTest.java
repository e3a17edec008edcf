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
        e = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "cpu.gpu_fault_stall", "sm"));
        assertTrue(e.getMessage().contains("cpu.gpu_fault_stall") && e.getMessage().contains("walk or gpu"), e.getMessage());
    }

    @Test
    void gpuPermissionFaultsHoldTheirWalkUnlessTheWholeGpuIsAsked() {
        assertEquals(CpuConfig.GpuFaultStall.WALK, Presets.machine("sahc").cpu().gpuFaultStall());
        assertEquals(CpuConfig.GpuFaultStall.GPU, Presets.machine("sahc", "cpu.gpu_fault_stall", "gpu").cpu().gpuFaultStall());
    }
}
