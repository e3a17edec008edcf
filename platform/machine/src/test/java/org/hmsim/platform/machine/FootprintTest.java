package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A size in range but absurd ({@code gpu.l1.size: 16GiB}) ran a run out of memory with no field named (a bad-input
 * review): the machine is refused when it is read, naming the field and what the model would allocate.
 */
class FootprintTest {
    private static ConfigException error(Object... overrides) {
        return assertThrows(ConfigException.class, () -> Presets.machine("small", overrides));
    }

    @Test
    void aCacheTooBigToHoldIsRefusedAtItsSize() {
        ConfigException e = error("gpu.l1.size", "16GiB");
        assertEquals("gpu.l1.size", e.path());
        // 2^27 lines of 128 B in each of the 4 SMs' L1s, 25 B each
        assertEquals("gpu.l1.size: 16GiB in 128 B lines is 134217728 lines in each of the 4 SMs' L1s, 536870912 in all, about 12.5 GiB of memory; "
                + "one structure of the model may take at most 1 GiB (docs/machine-files.md, \"How big a machine can be\")", e.getMessage());
        e = error("gpu.l2.size", "16GiB");
        assertEquals("gpu.l2.size", e.path());
        assertTrue(e.getMessage().startsWith("gpu.l2.size: 16GiB in 128 B lines is 134217728 lines in each of the 4 L2 slices, 536870912 in all, about 16.5 GiB"), e.getMessage());
        assertEquals("cpu.llc.size", assertThrows(ConfigException.class, () -> MachineConfig.parse(withCpu("16GiB"))).path());
    }

    @Test
    void otherSizedStructuresAreBoundedTheSameWay() {
        ConfigException e = error("gpu.l1.mshrs", 65536, "gpu.l1.mshr_merge", 1024);
        assertEquals("gpu.l1.mshrs", e.path());
        assertTrue(e.getMessage().startsWith("gpu.l1.mshrs: mshrs 65536 x mshr_merge 1024 is 67108864 request slots in each of the 4 SMs' L1s"), e.getMessage());
        assertEquals("gpu.l2.mshr_merge", error("gpu.l2.mshrs", 1000, "gpu.l2.mshr_merge", 1024, "gpu.l2.line", 1024, "gpu.l1.line", 1024, "gpu.l2.slices", 16).path());
        e = error("pools.0.channels", 1024, "pools.0.queue", 65536);
        assertEquals("pools.0.queue", e.path());
        assertTrue(e.getMessage().startsWith("pools.0.queue: 65536 queue entries in each of the 1024 channels of pool 'gddr', 67108864 in all, about 3.6 GiB"), e.getMessage());
        // the L2 slices' MSHR targets overflowed an int (2^31 of them): refused, not a NegativeArraySizeException mid-run
        assertEquals("gpu.l2.mshrs", error("gpu.l2.mshrs", 65536, "gpu.l2.mshr_merge", 1024, "gpu.l2.line", 1024, "gpu.l1.line", 1024, "gpu.l2.size", "8MiB").path());
    }

    /** Several structures each under the bound, together over the machine's: refused at the largest. */
    @Test
    void theMachineAsAWholeIsBoundedToo() {
        ConfigException e = error("gpu.sms", 64, "gpu.l1.size", "512MiB", "gpu.l1.ways", 8, "gpu.l1.line", 1024, // 64 x 2^19 lines: 800 MiB
                "gpu.l2.size", "1GiB", "gpu.l2.line", 1024, "gpu.l2.ways", 8, "gpu.l2.slices", 16, // 16 x 2^20 lines: 528 MiB
                "pools.0.channels", 256, "pools.0.queue", 65536); // 928 MiB
        assertEquals("pools.0.queue", e.path());
        assertTrue(e.getMessage().startsWith("pools.0.queue: the machine's structures would take about 2.2 GiB of memory together, at most 2 GiB may be"), e.getMessage());
    }

    /** What hmsim ships and its tests use stays far below the bounds (the largest preset: a few tens of MiB). */
    @Test
    void everyPresetFits() throws Exception {
        try (Stream<Path> s = Files.list(Presets.examples().resolve("machines"))) {
            for (Path p : s.filter(f -> f.toString().endsWith(".yaml")).toList()) {
                MachineConfig m = assertDoesNotThrow(() -> MachineConfig.parse(Presets.tree(p)), p.toString());
                double total = Footprint.structures(m.gpus(), m.gpu(), m.pools(), m.cpu()).stream().mapToDouble(Footprint.Structure::bytes).sum();
                assertTrue(total < 256 << 20, p + ": " + Footprint.size(total));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static java.util.Map<String, Object> withCpu(String llc) {
        java.util.Map<String, Object> t = Presets.tree(Presets.examples().resolve("machines").resolve("sahc.yaml"));
        java.util.Map<String, Object> cpu = (java.util.Map<String, Object>) t.get("cpu");
        java.util.Map<String, Object> l = new java.util.LinkedHashMap<>(cpu.get("llc") instanceof java.util.Map<?, ?> m ? (java.util.Map<String, Object>) m : java.util.Map.of());
        l.put("size", llc);
        cpu.put("llc", l);
        return t;
    }
}
