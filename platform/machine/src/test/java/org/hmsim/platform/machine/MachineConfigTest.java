package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Values a machine file may not hold, each refused with the path of its field. */
class MachineConfigTest {
    static ConfigException error(Object... overrides) {
        return assertThrows(ConfigException.class, () -> Presets.machine("small", overrides));
    }

    static ConfigException error(Map<String, Object> tree) {
        return assertThrows(ConfigException.class, () -> MachineConfig.parse(tree));
    }

    @Test
    void wholeNumbersBeyond64BitsAreOutOfRangeAsWritten() {
        // 2^64 + 4: its low 64 bits are 4, which used to pass as 4 SMs
        assertEquals("gpu.sms: value 18446744073709551620 is out of range [1, 64]",
                error("gpu.sms", new BigInteger("18446744073709551620")).getMessage());
        assertEquals("gpu.sms: value 99999999999999999999 is out of range [1, 64]",
                error("gpu.sms", new BigInteger("99999999999999999999")).getMessage());
        assertEquals("gpus: value 18446744073709551618 is out of range [1, 64]",
                error("gpus", new BigInteger("18446744073709551618")).getMessage());
        assertEquals("gpu.sms: value 4294967300 is out of range [1, 64]", error("gpu.sms", 4294967300L).getMessage());
        assertEquals("gpu.sms: value 99999999999999999999 is out of range [1, 64]", error("gpu.sms", "99999999999999999999").getMessage());
        assertEquals("pools.0.capacity: value 18446744073709551616 is out of range [65536, 1099511627776] bytes",
                error("pools.0.capacity", new BigInteger("18446744073709551616")).getMessage());
        assertEquals("pools.0.capacity: '1e30TB' is too large (at most 9223372036854775807 bytes)",
                error("pools.0.capacity", "1e30TB").getMessage());
        assertEquals("energy.l1_access_pj: 'NaN' is not a number", error("energy.l1_access_pj", Double.NaN).getMessage());
    }

    @Test
    void bandwidthsThatWouldOverflowTheClockAreRefused() {
        // 1e-30GB/s validated, then scheduled an event at -9223372036854579673 ps mid-run
        assertEquals("pools.0.bandwidth: bandwidth 1e-30GB/s is out of range [1MB/s, 1000000TB/s]",
                error("pools.0.bandwidth", "1e-30GB/s").getMessage());
        assertEquals("links.0.bandwidth: bandwidth 1e30TB/s is out of range [1MB/s, 1000000TB/s]",
                error("links.0.bandwidth", "1e30TB/s").getMessage());
        assertEquals("links.0.bandwidth: bandwidth 100 is out of range [1MB/s, 1000000TB/s] (a plain number is bytes per second: write it with a unit, e.g. 16GB/s)",
                error("links.0.bandwidth", 100).getMessage());
        assertEquals(1e6, Presets.machine("small", "pools.1.bandwidth", "1MB/s").pools().get(1).bytesPerSecond());
        assertEquals(16e9, Presets.machine("small", "links.0.bandwidth", 16e9).links().get(0).bytesPerSecondPerDirection());
    }

    /** Each GPU must reach every other GPU's memory over a link: the file is refused, not each run when it builds the machine. */
    @Test
    void aGpuWithoutALinkToAnotherGpusMemoryIsRefused() {
        Map<String, Object> tree = Presets.tree(Presets.examples().resolve("machines").resolve("coda.yaml"));
        tree.put("links", new java.util.ArrayList<>(((java.util.List<?>) tree.get("links")).subList(1, 6))); // no gpu0-gpu1 link
        assertEquals("links: no link from gpu1 to pool 'hbm0' on node gpu0", error(tree).getMessage());
        Map<String, Object> paged = Presets.tree(Presets.examples().resolve("machines").resolve("coda.yaml"));
        paged.put("uvm", new java.util.LinkedHashMap<>());
        assertEquals("uvm: demand paging is modelled for a machine of one GPU, and this one has 4", error(paged).getMessage());
    }

    /**
     * The driver pages one GPU memory pool (its frames, capacity and compressed-frame map are one pool's): with several on
     * gpu0 the OS spread pages over them and every run failed at its first fault ("could not be mapped in GPU memory (pool 4)").
     */
    @Test
    void demandPagingOverSeveralGpuPoolsIsRefused() {
        Map<String, Object> big = Presets.tree(Presets.examples().resolve("machines").resolve("coda-big.yaml"));
        big.put("uvm", new java.util.LinkedHashMap<>(Map.of("oversubscription", 0.5, "h2d_bandwidth", "16GB/s", "d2h_bandwidth", "16GB/s",
                "dma_latency", "500ns")));
        assertEquals("uvm: demand paging is modelled for one GPU memory pool, and gpu0 has 4 (hbm0, hbm1, hbm2, hbm3)", error(big).getMessage());
        // two kinds of memory on the GPU, and host memory: refused as well
        ConfigException two = assertThrows(ConfigException.class, () -> Presets.machine("etc", "pools.1.node", "gpu0"));
        assertEquals("uvm: demand paging is modelled for one GPU memory pool, and gpu0 has 2 (gddr, host)", two.getMessage());
    }

    /** A pool's name is a path segment and part of file names: one that is not a plain word is refused. */
    /** The copies' bandwidths default to the GPU-CPU link's: without such a link they must be given (they were a silent 16 GB/s). */
    @SuppressWarnings("unchecked")
    @Test
    void demandPagingWithoutACpuLinkNeedsItsCopyBandwidths() {
        Map<String, Object> t = Presets.tree(Presets.examples().resolve("machines").resolve("etc.yaml"));
        t.remove("links");
        t.put("pools", new java.util.ArrayList<>(((java.util.List<Map<String, Object>>) t.get("pools")).stream().filter(p -> !"cpu".equals(p.get("node"))).toList()));
        Map<String, Object> given = (Map<String, Object>) t.get("uvm");
        for (String k : java.util.List.of("h2d_bandwidth", "d2h_bandwidth", "dma_latency")) given.remove(k); // the preset gives them
        assertEquals("uvm.h2d_bandwidth: is required: the machine has no link between gpu0 and the CPU to take it from", error(t).getMessage());
        Map<String, Object> u = (Map<String, Object>) t.get("uvm");
        u.put("h2d_bandwidth", "16GB/s");
        u.put("d2h_bandwidth", "20GB/s");
        u.put("dma_latency", "500ns");
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> MachineConfig.parse(t));
    }

    /**
     * Unified memory with a CPU side: the pages the CPU touches first live in host memory until the GPU faults them over,
     * so the CPU needs a pool of its own (they would take GPU frames outside the driver's).
     */
    @SuppressWarnings("unchecked")
    @Test
    void demandPagingWithACpuSideNeedsAHostPool() {
        Map<String, Object> t = Presets.tree(Presets.examples().resolve("machines").resolve("etc.yaml"));
        t.put("cpu", new java.util.LinkedHashMap<>(Map.of("cores", 2)));
        org.junit.jupiter.api.Assertions.assertDoesNotThrow(() -> MachineConfig.parse(t));
        t.remove("links");
        t.put("pools", new java.util.ArrayList<>(((java.util.List<Map<String, Object>>) t.get("pools")).stream().filter(p -> !"cpu".equals(p.get("node"))).toList()));
        assertEquals("cpu: with a uvm: section the CPU needs a pool on node cpu: the pages it touches first live in host memory "
                + "until the GPU faults them over (GPU memory is the unified-memory driver's)", error(t).getMessage());
    }

    @Test
    void aPoolNameIsAPlainWord() {
        for (String bad : new String[] {"../../escape", "ddr.1", "1", "a b"})
            assertEquals("pools.1.name: '" + bad + "' is not a pool name: a letter, then letters, digits, '_' or '-' (at most 64)",
                    error("pools.1.name", bad).getMessage(), bad);
    }

    /** {@code gpu.l2.evict_notice}: off by default and in the seed 003 presets (the thesis's fork acknowledges evictions at once). */
    @Test
    void l2EvictNoticeIsAMachineField() {
        for (String p : new String[] {"small", "frc-hd7770", "frc-rx540", "frc-rx570", "frc-vega64"})
            assertFalse(Presets.machine(p).gpu().l2().evictNotice(), p);
        assertTrue(Presets.machine("small", "gpu.l2.evict_notice", true).gpu().l2().evictNotice());
        assertEquals("gpu.l2.evict_notice: 'yes' is not true or false", error("gpu.l2.evict_notice", "yes").getMessage());
        ConfigException withCpu = assertThrows(ConfigException.class, () -> Presets.machine("sahc", "gpu.l2.evict_notice", true));
        assertTrue(withCpu.getMessage().startsWith("gpu.l2.evict_notice: not with a cpu: section"), withCpu.getMessage());
    }

    /** {@code gpu.l1.write_policy} and {@code gpu.l2.invalidation}: the seed 003 fork's NMOESI L1, off by default. */
    @Test
    void l1WritePolicyAndL2InvalidationAreMachineFields() {
        assertFalse(Presets.machine("small").gpu().l1().writeBack());
        assertFalse(Presets.machine("small").gpu().l2().invalidationMessages());
        MachineConfig m = Presets.machine("frc-rx540", "gpu.l1.write_policy", "write-back", "gpu.l2.invalidation", "crossbar");
        assertTrue(m.gpu().l1().writeBack());
        assertTrue(m.gpu().l2().invalidationMessages());
        assertTrue(error("gpu.l1.write_policy", "copy-back").getMessage().startsWith("gpu.l1.write_policy: unknown write_policy 'copy-back' (write-through:"),
                error("gpu.l1.write_policy", "copy-back").getMessage());
        assertTrue(error("gpu.l2.invalidation", "free").getMessage().startsWith("gpu.l2.invalidation: unknown invalidation 'free' (fixed:"),
                error("gpu.l2.invalidation", "free").getMessage());
        // dirty L1 data is not followed where frames leave a GPU
        for (String p : new String[] {"sahc", "etc", "coda"}) {
            ConfigException e = assertThrows(ConfigException.class, () -> Presets.machine(p, "gpu.l1.write_policy", "write-back"), p);
            assertTrue(e.getMessage().startsWith("gpu.l1.write_policy: write-back is not modelled with "), e.getMessage());
        }
        // an L1 line unlike the L2's is not modelled at all (it halved a saxpy's DRAM traffic: a bad-input trial)
        for (Object[] o : new Object[][] {{"gpu.l1.line", 128}, {"gpu.l1.line", 32}}) {
            ConfigException lines = assertThrows(ConfigException.class, () -> Presets.machine("frc-rx540", o));
            assertEquals("gpu.l1.line: an L1 line of " + o[1] + " B under an L2 line of 64 B is not modelled: give gpu.l1.line and gpu.l2.line the same size",
                    lines.getMessage());
        }
        ConfigException l2 = assertThrows(ConfigException.class, () -> Presets.machine("small", "gpu.l2.line", 256));
        assertTrue(l2.getMessage().startsWith("gpu.l2.line: an L1 line of 128 B under an L2 line of 256 B is not modelled"), l2.getMessage());
        assertEquals(256, Presets.machine("small", "gpu.l2.line", 256, "gpu.l1.line", 256).gpu().l1().lineBytes(), "the same size both");
        // a pool smaller than a page held nothing (a placement trial: every page spilled, validate said valid)
        assertEquals("pools.0.capacity: a capacity of 65536 B holds no page of 131072 B (page_size): give at least one page",
                assertThrows(ConfigException.class, () -> Presets.machine("small", "pools.0.capacity", "64KB", "page_size", "128KB")).getMessage());
    }

    /**
     * A pool's burst: a transfer holds the data bus for whole bursts (a DRAM trial found 32 B sectors taking half a DDR4
     * burst's bus time: random sector traffic got up to twice what a 64 B-burst channel delivers).
     */
    @Test
    void aPoolsBurstRoundsItsTransfersUpToWholeBursts() {
        MachineConfig plain = Presets.machine("small"), burst = Presets.machine("small", "pools.0.burst", "64B");
        assertEquals(0, plain.pools().get(0).burstBytes());
        assertEquals(64, burst.pools().get(0).burstBytes());
        org.hmsim.platform.memory.dram.DramPool none = pool(plain), bursts = pool(burst);
        assertEquals(none.transferPs(64), bursts.transferPs(32), "a 32 B sector holds the bus for a 64 B burst");
        assertEquals(none.transferPs(128), bursts.transferPs(96), "96 B: two bursts");
        assertEquals(none.transferPs(128), bursts.transferPs(128));
        assertEquals(none.transferPs(64), 2 * none.transferPs(32), 1, "without a burst, the bytes asked for");
        assertEquals("pools.0.burst: 48 B is no burst: 0 (none) or a power of two from 8 B (burst length x bus width: DDR4's BL8 x 64 bit = 64B)",
                error("pools.0.burst", "48B").getMessage());
    }

    private static org.hmsim.platform.memory.dram.DramPool pool(MachineConfig m) {
        return new org.hmsim.platform.memory.dram.DramPool(m.pools().get(0), 0, new org.hmsim.platform.engine.EventQueue(), null,
                new org.hmsim.api.mem.RequestPool(), null);
    }

    /** A kind without energy defaults took DDR4's without a word (a trial's HBM2e: 160 pJ/B against HBM2's 31). */
    @Test
    void aPoolKindWithoutEnergyDefaultsNeedsItsEnergies() {
        assertEquals("pools.0.kind: 'HBM2e' has no energy defaults (kinds with them: DDR3, DDR4, GDDR5, GDDR6, HBM, HBM2, NVM): write the nearest"
                + " of those, or give energy: {activate_pj, read_pj_per_byte, write_pj_per_byte}", error("pools.0.kind", "HBM2e").getMessage());
        assertEquals(31, Presets.machine("small", "pools.0.kind", "hbm2").pools().get(0).energy().readPjPerByte(), "known kinds in any case");
        assertEquals(20, Presets.machine("small", "pools.0.kind", "HBM3", "pools.0.energy.activate_pj", 700, "pools.0.energy.read_pj_per_byte", 20,
                "pools.0.energy.write_pj_per_byte", 22).pools().get(0).energy().readPjPerByte(), "any kind with its energies given");
    }

    @Test
    void aPoolsWriteAckIsWrittenOrQueued() {
        assertFalse(Presets.machine("small").pools().get(0).acksQueuedWrites());
        assertTrue(Presets.machine("small", "pools.0.write_ack", "queued").pools().get(0).acksQueuedWrites());
        assertEquals("pools.0.write_ack: unknown write_ack 'posted' (written: when the data is in DRAM; queued: when a channel takes the write)",
                error("pools.0.write_ack", "posted").getMessage());
    }

    /**
     * A channel issues one command per cycle of its clock, so a bandwidth above 128 B a cycle per channel is out of reach
     * of every request: noted (a trial swept a pool's clock believing only latency would change). Every preset stays below.
     */
    @Test
    void aPoolBandwidthNoRequestCanReachIsNoted() {
        MachineConfig m = Presets.machine("small", "pools.0.channels", 1, "pools.0.bandwidth", "256GB/s", "pools.0.clock", "1GHz");
        String name = m.pools().get(0).name();
        assertEquals(List.of("pools." + name + ".bandwidth: a channel issues one command per cycle of its 1000 MHz clock, and above 128 GB/s (of its 256)"
                + " a 128 B line crosses the bus in less than a cycle: column commands take every command slot and ACTs wait for a gap, so more bandwidth"
                + " can make runs slower (the clock is the command clock, not the data rate; more channels at the same total, or HBM's command_bus: split,"
                + " avoid it)"), m.notes());
        // split command buses: ACTs have slots of their own, and only the column commands' bound is left to say
        MachineConfig split = Presets.machine("small", "pools.0.channels", 1, "pools.0.bandwidth", "256GB/s", "pools.0.clock", "1GHz",
                "pools.0.command_bus", "Split");
        assertTrue(split.pools().get(0).splitCommandBus());
        assertEquals(List.of("pools." + name + ".bandwidth: a channel issues one column command per cycle of its 1000 MHz clock, so 128 B lines move"
                + " at most 128 GB/s of its 256 (the clock is the command clock, not the data rate)"), split.notes());
        assertFalse(m.pools().get(0).splitCommandBus(), "shared by default");
        assertEquals("pools.0.command_bus: unknown command_bus 'dual' (shared: one command per cycle, as DDR and GDDR; split: row and column commands"
                + " on buses of their own, as HBM)", error("pools.0.command_bus", "dual").getMessage());
        // under two cycles a line: ACTs and PREs between row hits cost bandwidth on a shared bus (a DRAM trial: 92 of 100 GB/s)
        assertEquals(List.of("pools." + name + ".bandwidth: a 128 B line crosses the bus in under two cycles of the 1000 MHz command clock (100 GB/s"
                + " a channel): an ACT or PRE issued between two row hits holds the next column command to the next cycle, so a stream reaches some"
                + " per cent less than the bandwidth (a trial: 92 of 100 GB/s at 1 GHz); HBM's command_bus: split, or more channels at the same total,"
                + " avoid it"), Presets.machine("small", "pools.0.channels", 1, "pools.0.bandwidth", "100GB/s", "pools.0.clock", "1GHz").notes());
        assertEquals(List.of(), Presets.machine("small", "pools.0.channels", 1, "pools.0.bandwidth", "100GB/s", "pools.0.clock", "1GHz",
                "pools.0.command_bus", "split").notes());
        assertEquals(List.of(), Presets.machine("small", "pools.0.channels", 1, "pools.0.bandwidth", "64GB/s", "pools.0.clock", "1GHz").notes());
        for (String preset : List.of("agarwal-ch4", "agarwal-ch6", "coda", "coda-big", "etc", "frc-hd7770", "frc-rx540", "frc-rx570", "frc-vega64"))
            assertEquals(List.of(), Presets.machine(preset).notes(), preset);
        // sahc's 700 GB/s over 16 channels at 667 MHz is past 64 B x 667 MHz x 16 = 683 GB/s (seed 001's peak on 16 DDR3 channels)
        assertEquals(1, Presets.machine("sahc").notes().size(), Presets.machine("sahc").notes().toString());
    }

    /**
     * DRAM inputs a trial's typos got through: a row under a line (one ACT for two rows), a row conflict longer than the
     * watchdog (every run failed, blamed on the scheduler), timings no part has (noted: the channel follows them).
     */
    @Test
    void dramTimingsAndRowsThatCannotWorkAreRefusedOrNoted() {
        assertEquals("pools.0.row: a row of 64 B is smaller than the L2 line (128 B): a request is served whole in the row of its first byte, so one"
                + " crossing rows would take one ACT for two; give at least 128B", error("pools.0.row", "64B").getMessage());
        assertEquals("pools.0.row: a row of 128 B is smaller than a burst (256 B): a request is served whole in the row of its first byte, so one"
                + " crossing rows would take one ACT for two; give at least 256B", error("pools.0.row", "128B", "pools.0.burst", "256B").getMessage());
        assertEquals("pools.0.timing: rp + rcd + cl at 1 MHz take 20 ms, not under the watchdog's 10 ms: every run would fail as stuck before its first"
                + " access is served; raise the machine's watchdog (0 = off) or shorten the timing",
                error("pools.0.clock", "1MHz", "pools.0.timing.rcd", 10000, "pools.0.timing.cl", 10000, "pools.0.timing.rp", 0).getMessage());
        assertEquals(10000, Presets.machine("small", "pools.0.clock", "1MHz", "pools.0.timing.rcd", 10000, "pools.0.timing.cl", 10000,
                "pools.0.timing.rp", 0, "watchdog", 0).pools().get(0).timing().tCL(), "watchdog 0: off, accepted");
        MachineConfig odd = Presets.machine("small", "pools.0.timing.rcd", 30, "pools.0.timing.ras", 20, "pools.0.timing.rc", 25, "pools.0.timing.cl", 0);
        String at = "pools." + odd.pools().get(0).name() + ".timing: ";
        assertTrue(odd.notes().contains(at + "ras 20 is under rcd 30: a row may be precharged before a column command could use it (tRAS >= tRCD in every DRAM part)"), odd.notes().toString());
        assertTrue(odd.notes().stream().anyMatch(n -> n.startsWith(at + "rc 25 is under ras + rp = 32")), odd.notes().toString());
        assertTrue(odd.notes().contains(at + "cl 0: a read's data leaves with its command (every DRAM part has a CAS latency)"), odd.notes().toString());
    }

    /** A pool's scheduler is the dram-scheduler slot's unless its machine file fixes one. */
    @Test
    void aPoolsSchedulerIsTheSlotsUnlessTheMachineFileFixesOne() {
        assertEquals(null, Presets.machine("small").pools().get(0).scheduler());
        assertEquals(null, Presets.machine("small", "pools.0.scheduler", "").pools().get(0).scheduler(), "empty is absent, as for any field");
        MachineConfig fixed = Presets.machine("small", "pools.0.scheduler", "FCFS");
        assertEquals("fcfs", fixed.pools().get(0).scheduler());
        assertEquals(List.of("pools." + fixed.pools().get(0).name() + ".scheduler: fixes this pool's controller to fcfs, which the study's dram-scheduler slot"
                + " (runs.csv's slot.dram-scheduler) does not reach"), fixed.notes(), "a label the pool does not run is said (a trial)");
        assertEquals("pools.0.scheduler: unknown scheduler 'frfcfs2' (fr-fcfs or fcfs)", error("pools.0.scheduler", "frfcfs2").getMessage());
    }

    /** The channel-wide DRAM constraints are off unless given; refresh needs both of its fields. */
    @Test
    void aPoolsChannelWideTimingIsOptionalAndRefreshNeedsBothFields() {
        org.hmsim.platform.memory.DramTiming t = Presets.machine("small").pools().get(0).timing();
        assertEquals(0, t.tRRD() + t.tFAW() + t.tWTR() + t.tRTRS() + t.tRFC() + t.tREFI());
        t = Presets.machine("small", "pools.0.timing.faw", 35, "pools.0.timing.rfc", 278, "pools.0.timing.refi", 11700).pools().get(0).timing();
        assertEquals(35, t.tFAW());
        assertEquals(11700, t.tREFI());
        // the error names the field that was given (it has a line in the file)
        assertEquals("pools.0.timing.rfc: refresh needs both rfc and refi above 0 (0 is off), or neither", error("pools.0.timing.rfc", 278).getMessage());
        assertEquals("pools.0.timing.refi: refresh needs both rfc and refi above 0 (0 is off), or neither", error("pools.0.timing.refi", 11700).getMessage());
        assertEquals("pools.0.timing.refi: refresh needs both rfc and refi above 0 (0 is off), or neither",
                error("pools.0.timing.rfc", 0, "pools.0.timing.refi", 100).getMessage());
        // small's timing: ras 28 + rp 12 + rcd 12 + cl 12 + wr 12 + rfc 278 = 354 cycles
        assertEquals("pools.0.timing.refi: must exceed rfc + ras + rp + rcd + cl + wr, each of the last five at least 1 (354 cycles): a refresh period"
                + " must leave time to open a row and use it", error("pools.0.timing.rfc", 278, "pools.0.timing.refi", 354).getMessage());
        // each step at least a cycle: with every bank timing 0, rfc 500 and refi 501 passed and deadlocked (a trial)
        assertTrue(error("pools.0.timing.rcd", 0, "pools.0.timing.rp", 0, "pools.0.timing.cl", 0, "pools.0.timing.ras", 0, "pools.0.timing.rc", 0,
                "pools.0.timing.wr", 0, "pools.0.timing.rfc", 500, "pools.0.timing.refi", 505).getMessage().contains("(505 cycles)"));
        assertEquals(355, Presets.machine("small", "pools.0.timing.rfc", 278, "pools.0.timing.refi", 355).pools().get(0).timing().tREFI());
        // a misspelt field is named, not taken for a missing partner
        assertTrue(error("pools.0.timing.rfc", 278, "pools.0.timing.refresh", 11700).getMessage().startsWith("pools.0.timing.refresh: unknown field"),
                error("pools.0.timing.rfc", 278, "pools.0.timing.refresh", 11700).getMessage());
        assertTrue(error("pools.0.timing.tfaw", 35).getMessage().startsWith("pools.0.timing.tfaw: unknown field"),
                error("pools.0.timing.tfaw", 35).getMessage());
    }

    @Test
    void aSliceInterleaveSmallerThanTheL2LineIsRefused() {
        assertEquals("gpu.crossbar.slice_interleave: slice_interleave 64 B is smaller than the L2 line (128 B): each line lives in one slice, "
                + "so the chunk must hold at least a line", error("gpu.crossbar.slice_interleave", "64B").getMessage());
        assertEquals(256, Presets.machine("small", "gpu.crossbar.slice_interleave", "256B").gpu().crossbar().sliceInterleaveBytes());
    }

    @Test
    void clocksAndTimesAreBounded() {
        assertEquals("gpu.clock: frequency 1kHz is out of range [1MHz, 100GHz]", error("gpu.clock", "1kHz").getMessage());
        assertEquals("pools.0.clock: frequency 0.5 is out of range [1MHz, 100GHz]", error("pools.0.clock", 0.5).getMessage());
        assertEquals("gpu.l2.latency: '120ns' is not a whole number: this field is a count without a unit (a latency here is in cycles of its part's clock; "
                + "docs/machine-files.md gives each field's unit)", error("gpu.l2.latency", "120ns").getMessage());
        assertEquals("gpu.sms: 'many' is not a whole number", error("gpu.sms", "many").getMessage());
        assertEquals("gpu.clock: frequency 1.4 is 1.4 MHz (a number without a unit is MHz), no real clock: give the unit, e.g. 1.4GHz or 1.4MHz",
                error("gpu.clock", 1.4).getMessage());
        assertEquals(1.4, Presets.machine("small", "gpu.clock", "1.4MHz").gpu().clockMHz(), 1e-9, "with its unit it is meant");
        assertEquals(1400, Presets.machine("small", "gpu.clock", 1400).gpu().clockMHz(), 1e-9);
        assertEquals("gpu.clock: frequency 200GHz is out of range [1MHz, 100GHz]", error("gpu.clock", "200GHz").getMessage());
        assertEquals("links.0.latency: time 2s is out of range [0, 1s]",
                assertThrows(ConfigException.class, () -> Presets.machine("coda", "links.0.latency", "2s")).getMessage());
        assertEquals("watchdog: time 1e6s is out of range [0, 1s]", error("watchdog", "1e6s").getMessage());
        assertEquals("watchdog: '1e9s' is too large (at most 9223372036854775807 ps)", error("watchdog", "1e9s").getMessage());
        assertEquals(1_000_000_000_000L, Presets.machine("small", "watchdog", "1s").watchdogPs());
    }

    @Test
    void aTimeNeedsAUnitUnlessItIsZero() {
        // watchdog: 5 meant 5 ps: every run failed as deadlocked at once
        assertEquals("watchdog: '5' has no unit: write the time with one (100ns, 20us, 10ms); only 0 may be written bare",
                error("watchdog", 5).getMessage());
        assertEquals("pools.0.controller_latency: '100' has no unit: write the time with one (100ns, 20us, 10ms); only 0 may be written bare",
                error("pools.0.controller_latency", 100).getMessage());
        assertEquals("pools.0.controller_latency: unknown time unit '' in '100' (use ps, ns, us, ms, s)",
                error("pools.0.controller_latency", "100").getMessage());
        assertEquals(0, Presets.machine("small", "watchdog", 0).watchdogPs());
        assertEquals(0, Presets.machine("coda", "links.0.latency", 0).links().get(0).latencyPs());
        assertEquals("links.0.latency: '100' has no unit: write the time with one (100ns, 20us, 10ms); only 0 may be written bare",
                assertThrows(ConfigException.class, () -> Presets.machine("coda", "links.0.latency", 100)).getMessage());
    }

    @Test
    void aMisspeltRequiredFieldIsReportedAsTheUnknownFieldItIs() {
        Map<String, Object> tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        tree.put("poolz", tree.remove("pools"));
        assertEquals("poolz: unknown field (known here: cpu, description, energy, gpu, gpus, jitter, links, name, page_size, pools, uvm, watchdog)",
                error(tree).getMessage());

        tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> pool = ((List<Map<String, Object>>) tree.get("pools")).get(0);
        pool.put("nme", pool.remove("name"));
        assertEquals("pools.0.nme", error(tree).path());

        tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> link = ((List<Map<String, Object>>) tree.get("links")).get(0);
        link.put("betwen", link.remove("between"));
        assertEquals("links.0.betwen", error(tree).path());

        // a machine with no pools at all still says what it needs
        tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        tree.remove("pools");
        tree.remove("links");
        assertEquals("pools: a machine needs at least one memory pool", error(tree).getMessage());
    }

    /**
     * Every bad field of a section is reported in one round: until 2026-11-29 a section stopped at its first bad field,
     * so a user met the GPU's errors one at a time. A check across fields is left for the next round when a field it
     * reads was bad (it would have checked that field's default).
     */
    @Test
    void everyBadFieldOfASectionIsReportedAtOnce() {
        Map<String, Object> tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> gpu = (Map<String, Object>) tree.get("gpu");
        gpu.put("sms", -4);
        @SuppressWarnings("unchecked")
        Map<String, Object> l1 = (Map<String, Object>) gpu.get("l1");
        l1.put("latency", "x3");
        l1.put("latncy", 3);
        @SuppressWarnings("unchecked")
        Map<String, Object> tlb = new java.util.LinkedHashMap<>(Map.of("l1_entries", "many", "l1_ways", 7)); // 64 % 7: a cross-field check
        gpu.put("tlb", tlb);
        List<String> said = error(tree).all().stream().map(Throwable::getMessage).toList();
        assertEquals(List.of("gpu.sms: value -4 is out of range [1, 64]", "gpu.l1.latency: 'x3' is not a whole number",
                "gpu.l1.latncy: unknown field (known here: latency, line, mshr_merge, mshrs, ports, replacement, size, ways, write_policy)",
                "gpu.tlb.l1_entries: 'many' is not a whole number"), said);

        tlb.put("l1_entries", 64); // the fields now read: the check across them speaks
        gpu.put("sms", 4);
        l1.remove("latncy");
        l1.put("latency", 3);
        assertEquals("gpu.tlb.l1_ways: l1_entries must be a multiple of l1_ways", error(tree).getMessage());
    }

    /** Fields that were read and never used (a sweep of them changed nothing; review of silent inputs) are refused, saying what does the job. */
    @Test
    void cacheFieldsThatAreNotModelledAreRefused() {
        Map<String, Object> tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> gpu = (Map<String, Object>) tree.get("gpu");
        @SuppressWarnings("unchecked")
        Map<String, Object> l1 = (Map<String, Object>) gpu.get("l1");
        @SuppressWarnings("unchecked")
        Map<String, Object> l2 = (Map<String, Object>) gpu.get("l2");
        l1.put("bytes_per_cycle", 128);
        l1.put("queue", 4);
        l2.put("bytes_per_cycle", 128);
        List<String> said = error(tree).all().stream().map(Throwable::getMessage).toList();
        assertEquals(3, said.size(), said.toString());
        assertTrue(said.get(0).startsWith("gpu.l1.bytes_per_cycle: is not modelled (the crossbar's bytes_per_cycle sets the data width"), said.toString());
        assertTrue(said.get(1).startsWith("gpu.l1.queue: is not modelled"), said.toString());
        assertTrue(said.get(2).startsWith("gpu.l2.bytes_per_cycle: is not modelled"), said.toString());
        l1.remove("bytes_per_cycle");
        l1.remove("queue");
        l2.remove("bytes_per_cycle");
        l2.put("queue", 4); // the L2's input queue is modelled
        MachineConfig.parse(tree);
    }

    /**
     * Checks that reject a single field's value (a word it does not take, a size that is no power of two, a node it does
     * not know) are reported with the section's other bad fields, in the order the fields stand in the file (a review
     * found each of them hiding the rest of its section; and unknown fields came last).
     */
    @Test
    void singleFieldChecksAreReportedWithTheRestInFileOrder() {
        Map<String, Object> tree = Presets.tree(Presets.examples().resolve("machines/small.yaml"));
        @SuppressWarnings("unchecked")
        Map<String, Object> gpu = (Map<String, Object>) tree.get("gpu");
        gpu.put("sms", 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> l1 = (Map<String, Object>) gpu.get("l1");
        l1.put("line", 100);
        l1.put("write_policy", "bogus");
        gpu.put("tlb", new java.util.LinkedHashMap<>(Map.of("l1_entries", 0)));
        @SuppressWarnings("unchecked")
        Map<String, Object> link = ((List<Map<String, Object>>) tree.get("links")).get(0);
        link.put("between", List.of("gpu0", "gpu7"));
        link.put("latency", "100ns"); // beside latency_cycles
        List<String> said = error(tree).all().stream().map(Throwable::getMessage).toList();
        assertEquals(List.of("gpu.sms: value 0 is out of range [1, 64]", "gpu.l1.line: line size must be a power of two",
                "gpu.l1.write_policy: unknown write_policy 'bogus' (write-through: stores go on to the L2, not allocated; write-back: stores"
                        + " allocate, fetching the line, and stay dirty until it leaves)",
                "gpu.tlb.l1_entries: value 0 is out of range [1, 65536]",
                "links.0.between.1: unknown node 'gpu7' (cpu, or gpu0..gpu0)", "links.0.latency: give either latency or latency_cycles"), said);
    }
}
