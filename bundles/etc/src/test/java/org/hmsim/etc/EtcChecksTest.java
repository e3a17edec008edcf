package org.hmsim.etc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.hmsim.platform.machine.RunResult;
import org.junit.jupiter.api.Test;

/**
 * Seed 002's reproduction checks on the `etc` machine with 8 SMs and 4-8 MB footprints (the paper's are
 * 7-70 MB). PE's 2 MB threshold is scaled with the footprint to 512 KB (2 MB of the paper's 22.5 MB
 * average is ~9 %); everything else is at the paper's or our documented defaults. Checks that do not
 * reproduce are not asserted; the README's ETC section lists them with numbers.
 */
class EtcChecksTest {
    private static final String PE_THRESHOLD = "512KB";

    private static Sim etc() {
        return new Sim().with(new ProactiveEvictionProvider(), "threshold", PE_THRESHOLD)
                .with(new MemoryAwareThrottlingProvider()).with(new CapacityCompressionProvider());
    }

    /** ETC with classify: per_kernel on the three policies (each kernel sampled and decided again). */
    private static Sim etcPerKernel() {
        return new Sim().with(new ProactiveEvictionProvider(), "threshold", PE_THRESHOLD, "classify", "per_kernel")
                .with(new MemoryAwareThrottlingProvider(), "classify", "per_kernel").with(new CapacityCompressionProvider(), "classify", "per_kernel");
    }

    private static Sim pe() { return new Sim().with(new ProactiveEvictionProvider(), "mode", "on", "threshold", PE_THRESHOLD); }

    private static Sim cc() { return new Sim().with(new CapacityCompressionProvider(), "mode", "on"); }

    private static Sim mt() { return new Sim().with(new MemoryAwareThrottlingProvider(), "mode", "on"); }

    private static Sim nt() { return new Sim().with(new NaiveThrottlingProvider()); } // mode: on is its default

    private static double speedup(RunResult base, RunResult r) { return (double) base.simTimePs() / r.simTimePs(); }

    private static void print(String label, RunResult r) { System.out.println(Sim.line(label, r)); }

    /** The baseline, ETC sampled once and ETC sampled per kernel on one workload, run concurrently and printed. */
    private static RunResult[] blOncePerKernel(String workload, double memory) {
        RunResult[] r = org.hmsim.platform.machine.Simulation.concurrently(() -> new Sim().run(workload, memory), () -> etc().run(workload, memory),
                () -> etcPerKernel().run(workload, memory));
        String at = workload + " " + Math.round(memory * 100) + "% ";
        print(at + "BL", r[0]);
        print(at + "ETC once", r[1]);
        print(at + "ETC per kernel", r[2]);
        return r;
    }

    private static void classifiedAs(RunResult r, int cls, int pe, int mt, int cc) {
        for (String slot : new String[] {"residency", "throttling", "compression"})
            assertEquals(cls, Sim.stat(r, "policy." + slot + ".classifier.class"), slot + "'s classifier");
        assertEquals(pe, Sim.stat(r, "policy.residency.classifier.choice_pe"), "choice PE");
        assertEquals(mt, Sim.stat(r, "policy.throttling.classifier.choice_mt"), "choice MT");
        assertEquals(cc, Sim.stat(r, "policy.compression.classifier.choice_cc"), "choice CC");
    }

    /**
     * Irregular (GESUMMV, row-per-thread over two matrices) at 50 %: every SM's warps hold their own pages
     * for the whole kernel, so the pages in use at once exceed memory and the baseline thrashes. MT alone
     * shrinks that set by stopping SMs (R8) and the classifier's MT+CC gains several times (R13).
     */
    @Test
    void irregularThrashingCutByThrottling() {
        RunResult bl = new Sim().run("etc-gesummv", 0.5), mt = mt().run("etc-gesummv", 0.5), auto = etc().run("etc-gesummv", 0.5);
        print("gesummv 50% BL", bl);
        print("gesummv 50% MT alone", mt);
        print("gesummv 50% ETC", auto);
        classifiedAs(auto, 3, 0, 1, 1);
        assertTrue(speedup(bl, mt) > 2, "MT alone over BL: " + speedup(bl, mt));
        assertTrue(Sim.stat(mt, "uvm.faults") < 0.5 * Sim.stat(bl, "uvm.faults"), "MT cuts re-faults");
        assertTrue(speedup(bl, auto) > 3, "ETC (MT+CC) over BL: " + speedup(bl, auto));
        assertTrue(Sim.stat(auto, "uvm.evictions") < Sim.stat(bl, "uvm.evictions"), "ETC cuts evictions");
        // MT really stops SMs: half of 8 on activation, sampled per epoch by the platform
        assertTrue(Sim.stat(mt, "policy.throttling.throttles") >= 4, "initial half of 8 SMs");
        int col = mt.seriesNames().indexOf("uvm.throttled_sms");
        assertTrue(col >= 0, "throttled SMs over time are in the time series");
        double max = 0;
        for (double[] row : mt.seriesRows()) max = Math.max(max, row[col + 1]); // column 0 is the time
        assertTrue(max >= 4, "SMs with issue disabled, sampled per epoch: max " + max);
    }

    /**
     * {@code classify: per_kernel} (ours: seed 002 does not say whether the classifier samples again at each kernel).
     * ATAX's row pass is irregular (MT+CC); its column pass is coalesced and shares A (PE+CC). Sampled once, MT keeps
     * throttling the column pass, whose one streaming sweep over A then runs on fewer SMs and whose lagging CTAs re-fault
     * the rows the others have passed; sampled per kernel, MT stands down there and PE evicts ahead instead.
     */
    @Test
    void perKernelClassificationStandsMtDownForTheCoalescedPass() {
        RunResult[] r = blOncePerKernel("etc-atax", 0.5);
        RunResult bl = r[0], once = r[1], perKernel = r[2];
        assertEquals(1, Sim.stat(once, "policy.throttling.classifier.decisions"), "classify once");
        assertEquals(2, Sim.stat(perKernel, "policy.throttling.classifier.decisions"), "one decision per kernel");
        classifiedAs(once, 3, 0, 1, 1);
        classifiedAs(perKernel, 2, 1, 0, 1); // the column pass: regular, sharing A with the row pass
        assertEquals(0, Sim.stat(perKernel, "policy.throttling.throttled_sms"), "MT stood down: every SM issues");
        assertTrue(Sim.stat(perKernel, "policy.residency.pe_evictions") > 0, "PE evicted ahead in the column pass");
        assertTrue(speedup(once, perKernel) > 1.2, "per kernel over once: " + speedup(once, perKernel));
        assertTrue(speedup(bl, perKernel) > 2, "ETC per kernel over BL: " + speedup(bl, perKernel));
    }

    /**
     * BICG in PolyBench/GPU's order: {@code bicg_kernel1} is the coalesced column pass, {@code bicg_kernel2} the
     * row pass. A classifier that samples once (the first 50k cycles) therefore sees a regular application sharing
     * A and picks PE+CC; sampled per kernel, the row pass is classified irregular (MT+CC). Both beat the baseline
     * through CC: the other technique of each choice, alone, loses to the baseline (PE alone, R12; MT alone, the
     * README's "does not reproduce" on BICG). The test pins down which decision each sampling mode makes, the
     * paper's 100 % accuracy on BICG being reachable only per kernel.
     */
    @Test
    void bicgStartsWithItsCoalescedPassSoSamplingOnceCallsItRegular() {
        RunResult[] r = blOncePerKernel("etc-bicg", 0.5);
        RunResult bl = r[0], once = r[1], perKernel = r[2];
        classifiedAs(once, 2, 1, 0, 1);
        assertEquals(2, Sim.stat(perKernel, "policy.throttling.classifier.decisions"), "one decision per kernel");
        classifiedAs(perKernel, 3, 0, 1, 1); // the row pass, last: irregular
        assertEquals(0, Sim.stat(once, "policy.throttling.throttles"), "sampled once, MT never runs");
        assertTrue(Sim.stat(perKernel, "policy.throttling.throttles") > 0, "per kernel, MT throttled the row pass");
        // Until the L2 set-index fix (0fc27a2) this asserted > 1.8 (measured 2.55 / 2.43). That margin came from the
        // baseline, which the defect slowed: an L2 using a sixteenth of its sets lost lines the row pass's lanes use
        // 32 times (BL's L2 hit rate 45 %, 51 % with the fix) and the baseline re-faulted more (BL 4.34 ms, 382
        // faults; with the fixed L2 3.02 ms, 234 faults). The runs with CC hardly moved (CC alone 1.52 ms both
        // times; ETC 1.70 -> 1.93 ms once, 1.78 -> 1.91 ms per kernel), so ETC now gains 1.56x / 1.58x. What the
        // check means still holds and is asserted as such: both modes clearly beat the baseline, and through CC.
        // The compressed-capacity fix of 2026-11-30 (F frames hold floor(F x 1.5) pages, and a compressed page is 43,690 B,
        // not 43,712) took once from 1.41x to 1.22x (BL 4.00 ms, ETC 3.29 ms) and per kernel to 2.82x: BICG's thrashing
        // runs at 50 % move that much under any small change (etc-jitter: 1.11-2.13x over five seeds of 2 ns jitter), so
        // the bound is what the model's spread leaves a clear gain: over 1.15x.
        assertTrue(speedup(bl, once) > 1.15 && speedup(bl, perKernel) > 1.15,
                "ETC over BL, once " + speedup(bl, once) + ", per kernel " + speedup(bl, perKernel));
        RunResult[] alone = org.hmsim.platform.machine.Simulation.concurrently(() -> pe().run("etc-bicg", 0.5), () -> mt().run("etc-bicg", 0.5));
        print("etc-bicg 50% PE alone", alone[0]);
        print("etc-bicg 50% MT alone", alone[1]);
        assertTrue(alone[0].simTimePs() > bl.simTimePs() && alone[1].simTimePs() > bl.simTimePs(),
                "without CC, PE (once's other choice) and MT (per kernel's) lose to the baseline: " + speedup(bl, alone[0]) + ", " + speedup(bl, alone[1]));
    }

    /**
     * Work-conserving MT: the column pass of ATAX has fewer CTAs than SMs; without work conservation its CTAs
     * sit frozen on throttled SMs while the issuing SMs have nothing left, and are throttled again at their
     * first fault after a release. With it, a throttled SM holding the only work left is released at once.
     */
    @Test
    void throttlingNeverStopsTheOnlyWorkLeft() {
        RunResult paper = new Sim().with(new MemoryAwareThrottlingProvider(), "mode", "on", "work_conserving", false).run("etc-atax", 0.5);
        RunResult conserving = mt().run("etc-atax", 0.5);
        print("atax 50% MT, rules over all SMs", paper);
        print("atax 50% MT, work-conserving", conserving);
        assertTrue(Sim.stat(conserving, "policy.throttling.work_releases") > 0, "throttled SMs released because nothing else had work");
        assertTrue(speedup(paper, conserving) > 1.2, "work conservation: " + speedup(paper, conserving));
    }

    /**
     * Released together, not one at a time ({@code idle_release: all}): in ATAX's column pass every thread block streams
     * all of A; SMs released one at a time each re-streamed A alone behind the others' evictions (measured at 50 %: MT
     * 13.0 ms with {@code one}, 4.8 ms with {@code all}; BL 4.2 ms).
     */
    @Test
    void throttledSmsHoldingTheOnlyWorkAreReleasedTogether() {
        RunResult one = new Sim().with(new MemoryAwareThrottlingProvider(), "mode", "on", "idle_release", "one").run("etc-atax", 0.5);
        RunResult all = mt().run("etc-atax", 0.5);
        print("atax 50% MT, idle release one", one);
        print("atax 50% MT, idle release all", all);
        assertTrue(speedup(one, all) > 1.8, "releasing together: " + speedup(one, all));
        assertTrue(Sim.stat(all, "uvm.faults") < 0.6 * Sim.stat(one, "uvm.faults"), "fewer re-faults: " + Sim.stat(all, "uvm.faults") + " vs " + Sim.stat(one, "uvm.faults"));
    }

    /**
     * How often statistics are sampled must not change what MT does: its work-conservation check ran at every statistics
     * epoch until a review found ATAX's ETC run at 2.71 / 2.84 / 2.87 ms under a study's 5 / 20 / 100 us {@code epoch:}.
     * It now has its own timer ({@code work_check}), so the runs are the same to the picosecond.
     */
    @Test
    void throttlingDoesNotDependOnTheStatisticsEpoch() {
        RunResult at5 = mt().epoch(5_000_000).run("etc-atax", 0.5);
        RunResult at20 = mt().epoch(20_000_000).run("etc-atax", 0.5);
        RunResult at100 = mt().epoch(100_000_000).run("etc-atax", 0.5);
        print("atax 50% MT, 5 us statistics epoch", at5);
        print("atax 50% MT, 100 us statistics epoch", at100);
        assertTrue(Sim.stat(at5, "policy.throttling.work_releases") > 0, "work conservation acted");
        org.junit.jupiter.api.Assertions.assertEquals(at5.simTimePs(), at20.simTimePs(), "5 vs 20 us epochs");
        org.junit.jupiter.api.Assertions.assertEquals(at5.simTimePs(), at100.simTimePs(), "5 vs 100 us epochs");
        org.junit.jupiter.api.Assertions.assertEquals(Sim.stat(at5, "uvm.faults"), Sim.stat(at100, "uvm.faults"), "faults");
    }

    /**
     * How many faults are in service at once is not in the paper. With 32 fault handlers (near "every fault takes
     * its 20 us on its own") the baseline fetches many pages at once and thrashes far harder than with one handler
     * serving batch after batch, and throttling wins on ATAX too (Figs 13-14: MT +436 % at 50 %). The baseline's
     * thrashing is chaotic in when copies land: since the copy engine writes pages through GPU memory (2026-11-29) it
     * takes 11.8 ms (2,485 faults) where it took 48.3 ms (11,411 faults), MT 5.1 ms and MT+CC 2.7 ms as before, so
     * MT+CC gains 4.4x where it gained 17.8x; the bound is several times, the irregular apps' 2.7x of Fig 13.
     */
    @Test
    void withConcurrentFaultServiceThrottlingWinsOnIrregularApps() {
        RunResult bl = new Sim().machine("uvm.fault_handlers", 32).run("etc-atax", 0.5);
        RunResult mt = mt().machine("uvm.fault_handlers", 32).run("etc-atax", 0.5);
        RunResult mtcc = mt().with(new CapacityCompressionProvider(), "mode", "on").machine("uvm.fault_handlers", 32).run("etc-atax", 0.5);
        print("atax 50% BL, 32 fault handlers", bl);
        print("atax 50% MT, 32 fault handlers", mt);
        print("atax 50% MT+CC, 32 fault handlers", mtcc);
        assertTrue(Sim.stat(bl, "uvm.faults") > 10 * Sim.stat(mt, "uvm.faults"), "the baseline thrashes, MT keeps the working set in memory");
        assertTrue(speedup(bl, mt) > 2, "MT alone over BL: " + speedup(bl, mt));
        assertTrue(speedup(bl, mtcc) > 3, "MT+CC over BL: " + speedup(bl, mtcc));
    }

    /** Irregular at 75 %: ETC still gains (GESUMMV, ATAX); PE alone hurts irregular apps (R12). */
    @Test
    void irregularAt75GainsAndPeHurts() {
        RunResult bl = new Sim().run("etc-gesummv", 0.75), auto = etc().run("etc-gesummv", 0.75), pe = pe().run("etc-gesummv", 0.75);
        RunResult ablA = new Sim().run("etc-atax", 0.75), autoA = etc().run("etc-atax", 0.75);
        print("gesummv 75% BL", bl);
        print("gesummv 75% ETC", auto);
        print("gesummv 75% PE alone", pe);
        print("atax 75% BL", ablA);
        print("atax 75% ETC", autoA);
        classifiedAs(autoA, 3, 0, 1, 1);
        assertTrue(speedup(bl, auto) > 1.3, "GESUMMV ETC over BL: " + speedup(bl, auto));
        assertTrue(speedup(ablA, autoA) > 1.5, "ATAX ETC over BL: " + speedup(ablA, autoA));
        // R12: the paper has PE -29.7 % against BL on irregular apps; 1.49x BL's time here (1.72x before the eviction-frame
        // fix of 2026-11-27, when a page mapped into a frame still being copied out lost its lines at the copy's end)
        assertTrue(pe.simTimePs() > 1.3 * bl.simTimePs(), "PE alone must hurt irregular apps: " + pe.simTimePs() + " vs " + bl.simTimePs());
    }

    /**
     * Naive throttling (NT, §6.2): half the SMs throttled statically, never adjusted (no detection epoch), throttled again at
     * each kernel launch after work conservation released them. At 75 % it beats BL on GESUMMV (R7, paper +57.7 % on
     * average; measured 1.47x) and MT there (R9: MT loses to NT on GESUMMV through its adjustment latency; 1.23x).
     */
    @Test
    void naiveThrottlingHoldsHalfTheSmsAndBeatsMtOnGesummvAt75() {
        RunResult[] r = org.hmsim.platform.machine.Simulation.concurrently(() -> new Sim().run("etc-gesummv", 0.75),
                () -> nt().run("etc-gesummv", 0.75), () -> mt().run("etc-gesummv", 0.75), () -> nt().run("etc-atax", 0.75));
        RunResult bl = r[0], nt = r[1], mt = r[2], ntAtax = r[3];
        print("gesummv 75% BL", bl);
        print("gesummv 75% NT", nt);
        print("gesummv 75% MT", mt);
        assertEquals(0, Sim.stat(nt, "policy.throttling.detect_epochs"), "NT runs no epochs");
        assertEquals(4, Sim.stat(nt, "policy.throttling.throttles"), "half of 8 SMs, once: GESUMMV is one kernel");
        assertEquals(Sim.stat(nt, "policy.throttling.work_releases"), Sim.stat(nt, "policy.throttling.releases"), "NT releases only for work conservation");
        assertEquals(8, Sim.stat(ntAtax, "policy.throttling.throttles"), "ATAX's two kernels: half of 8 SMs at each launch");
        assertTrue(speedup(bl, nt) > 1.25, "NT over BL on GESUMMV at 75 %: " + speedup(bl, nt));
        assertTrue(speedup(mt, nt) > 1.1, "NT over MT on GESUMMV at 75 % (R9): " + speedup(mt, nt));
    }

    /**
     * Fig 18 (R17): MT throttling one SM per thrashing decision beats throttling four, with the release degree at 1
     * (etc-degree: geomean over ATAX, BICG, GESUMMV 1.00 / 0.93 / 0.81 at throttle degree 1 / 2 / 4; MT+CC at 50 %).
     * On its own GESUMMV prefers 4 (2.02 against 1.76 ms) and BICG is level; ATAX carries the average (4.6 against
     * 10.1 ms). The release degree going the other way here is in the README.
     */
    @Test
    void throttlingOneSmAtATimeBeatsFour() {
        String[] w = {"etc-atax", "etc-bicg", "etc-gesummv"};
        java.util.List<java.util.function.Supplier<RunResult>> runs = new java.util.ArrayList<>();
        for (String x : w)
            for (int degree : new int[] {1, 4})
                runs.add(() -> new Sim().with(new MemoryAwareThrottlingProvider(), "mode", "on", "throttle_degree", degree)
                        .with(new CapacityCompressionProvider(), "mode", "on").run(x, 0.5));
        @SuppressWarnings("unchecked")
        RunResult[] r = org.hmsim.platform.machine.Simulation.concurrently(runs.toArray(new java.util.function.Supplier[0]));
        double logSum = 0;
        for (int i = 0; i < w.length; i++) {
            print(w[i] + " 50% MT+CC throttle 1", r[2 * i]);
            print(w[i] + " 50% MT+CC throttle 4", r[2 * i + 1]);
            logSum += Math.log((double) r[2 * i + 1].simTimePs() / r[2 * i].simTimePs());
        }
        double geo = Math.exp(logSum / w.length);
        assertTrue(geo > 1.1, "throttle degree 1 over 4, geomean of the time ratio: " + geo);
    }

    /**
     * Fig 20 (R19): at 50 % of the footprint a compression ratio of 2 fits every page, a big step over 1.5, and a higher
     * ratio adds nothing (etc-ratio: LUD 1.82x / 10.4x / 10.4x over ratio 1.0 at 1.5 / 2.0 / 2.5).
     */
    @Test
    void compressionRatioTwoFitsHalfMemory() {
        RunResult[] r = org.hmsim.platform.machine.Simulation.concurrently(
                () -> new Sim().with(new CapacityCompressionProvider(), "mode", "on", "ratio", 1.5).run("etc-lud", 0.5),
                () -> new Sim().with(new CapacityCompressionProvider(), "mode", "on", "ratio", 2.0).run("etc-lud", 0.5),
                () -> new Sim().with(new CapacityCompressionProvider(), "mode", "on", "ratio", 2.5).run("etc-lud", 0.5));
        print("lud 50% CC 1.5", r[0]);
        print("lud 50% CC 2.0", r[1]);
        print("lud 50% CC 2.5", r[2]);
        assertTrue(Sim.stat(r[0], "uvm.evictions") > 0 && Sim.stat(r[1], "uvm.evictions") == 0, "ratio 2 fits the footprint, 1.5 does not");
        assertTrue(speedup(r[0], r[1]) > 2, "the step from 1.5 to 2: " + speedup(r[0], r[1]));
        assertTrue(Math.abs(speedup(r[1], r[2]) - 1) < 0.03, "nothing more past 2: " + speedup(r[1], r[2]));
    }

    /**
     * LCP's cost under unlimited memory (Fig 8, R5): compressed pages' metadata-cache misses are 64 B reads
     * from GPU memory, issued before the data access. GESUMMV's row-per-thread accesses touch many 4 KB metadata
     * blocks at once, so the 512-entry cache misses often; the reads are real DRAM requests and lengthen the L2's
     * misses to compressed pages.
     * <p>
     * The run time's share of that cost is small in our model and is only bounded here. Until the L2 set-index
     * fix (0fc27a2) this asserted a cost of 3-30 % (measured +8.6 %, the paper's average is 13 %); that size came
     * from the defect: an L2 using a sixteenth of its sets lost the lanes' lines between their 32 uses, so CC's
     * L2 misses (each paying the metadata lookup and the codec latency) were 446k instead of the 262k sectors of
     * the footprint. With the fixed L2 every sector misses about once, half of the unlimited run is the cold
     * migration of 8 MB over 16 GB/s PCIe, and CC's time stays within the spread of the timing (measured -4.3 %; CC with
     * a metadata cache holding everything and no codec latency is 2.8 % faster than BL). Demand-paged, R5's size does
     * not reproduce; with the data resident it does (the two tests below; README, ETC).
     */
    @Test
    void compressionCostsMetadataReadsWithUnlimitedMemory() {
        RunResult bl = new Sim().run("etc-gesummv", 1.0), cc = cc().run("etc-gesummv", 1.0);
        print("gesummv 100% BL", bl);
        print("gesummv 100% CC", cc);
        assertEquals(0, Sim.stat(cc, "uvm.evictions"));
        double metadata = Sim.stat(cc, "uvm.metadata_reads");
        assertTrue(metadata > 0.1 * Sim.stat(cc, "uvm.compressed_accesses"), "metadata misses read GPU memory");
        double extraReads = Sim.stat(cc, "pool.gddr.reads") - Sim.stat(bl, "pool.gddr.reads");
        assertTrue(extraReads > 0.9 * metadata, "the metadata reads are DRAM reads: " + extraReads + " more reads, " + metadata + " metadata reads");
        // and nothing else reaches the DRAM: its bytes are the L2's fetches and write-backs, 64 B per metadata read and the
        // copy engine's writes of the pages it brought in (at their compressed size)
        double l2Bytes = 0;
        for (var e : cc.stats().entrySet())
            if (e.getKey().startsWith("gpu0.l2.slice") && (e.getKey().endsWith(".fetch_bytes") || e.getKey().endsWith(".writeback_bytes")))
                l2Bytes += e.getValue();
        double copied = Sim.stat(cc, "uvm.h2d.memory_bytes");
        assertTrue(copied > 0 && copied < Sim.stat(cc, "uvm.h2d.bytes"), "compressed pages are written at their compressed size: " + copied);
        assertEquals(l2Bytes + 64 * metadata + copied, Sim.stat(cc, "pool.gddr.bytes"), 0.5, "DRAM bytes = L2 fetches + write-backs + metadata + page copies in");
        double latency = l2FetchLatencyPs(cc) / l2FetchLatencyPs(bl);
        // measured x2.20: 77 % of the misses read their metadata first (not in parallel, README), each a DRAM round trip
        assertTrue(latency > 1.5, "an L2 miss to a compressed page waits for its metadata: L2 fetch latency x" + latency);
        double cost = (double) cc.simTimePs() / bl.simTimePs() - 1;
        System.out.printf("gesummv 100%% CC: %.0f metadata reads, %.0f extra DRAM reads, L2 fetch latency x%.2f, time %+.1f %%%n", metadata, extraReads, latency, 100 * cost);
        assertTrue(cost < 0.3, "CC's cost with unlimited memory: " + cost);
        // and CC buys nothing here: no faster than BL beyond the timing's spread. Measured: CC -0.7 ... -4.3 % over a
        // one-cycle sweep of the L2 latency (118-122) where BL itself moves 1.8 %, and CC with a perfect metadata cache and
        // no codec latency -2.8 %: the cold metadata reads and the stage's per-slice queues shift the order of the row
        // pass's camped requests, to which this kernel is sensitive (ATAX's baseline moves 25 % with the controllers'
        // arbitration, docs/mechanisms/etc.md, R5).
        assertTrue(cost > -0.06, "CC with unlimited memory should not be faster than BL beyond the timing's spread: " + cost);
    }

    /**
     * R5 under the other reading of "unlimited memory": nothing demand-paged, every page resident when the kernels start
     * ({@code uvm.preload}), as LCP's cost would be measured on a GPU whose data are already in its memory. Then the run
     * is the kernels alone, on the preset's 30 SMs, and the metadata reads are a bandwidth and latency cost the cold
     * migration no longer hides: GESUMMV, whose row-per-thread lanes each touch another 4 KB block, misses the 512-entry
     * metadata cache on almost every compressed access (DRAM bytes x3; measured +67 %), while a streaming warp reuses each
     * entry 32 times and 2DCONV pays nothing measurable (+0.5 %). The paper's 13 % is an average over fifteen apps
     * (Fig 8); ours over the ten models is +15 % (mean; geomean +13.7 %) here and +1.1 % with cold faults (docs/mechanisms/etc.md, R5).
     */
    @Test
    void compressionCostsBandwidthWhenNothingIsDemandPaged() {
        Object[] resident = {"gpu.sms", 30, "uvm.preload", true};
        RunResult bl = new Sim().machine(resident).run("etc-gesummv", 1.0), cc = cc().machine(resident).run("etc-gesummv", 1.0);
        assertEquals(0, Sim.stat(cc, "uvm.faults"));
        double cost = (double) cc.simTimePs() / bl.simTimePs() - 1;
        double dramBytes = Sim.stat(cc, "pool.gddr.bytes") / Sim.stat(bl, "pool.gddr.bytes");
        System.out.printf("gesummv resident, 30 SMs: CC %+.1f %%, DRAM bytes x%.2f%n", 100 * cost, dramBytes);
        assertTrue(dramBytes > 2, "metadata reads add DRAM traffic: x" + dramBytes);
        assertTrue(cost > 0.2 && cost < 1.5, "CC's cost on GESUMMV with its data resident: " + cost);
        RunResult sbl = new Sim().machine(resident).run("etc-2dconv", 1.0), scc = cc().machine(resident).run("etc-2dconv", 1.0);
        double streaming = (double) scc.simTimePs() / sbl.simTimePs() - 1;
        System.out.printf("2dconv resident, 30 SMs: CC %+.1f %%%n", 100 * streaming);
        assertTrue(Math.abs(streaming) < 0.05, "a streaming model reuses each metadata entry: " + streaming);
    }

    /**
     * R5's size: over the ten models with their data resident on the preset's 30 SMs, CC costs about the paper's 13 %
     * on average (Fig 8; measured +15.0 %, geomean +13.7 %), and never speeds a model up beyond the timing's spread.
     */
    @Test
    void compressionCostsAboutThePapersThirteenPercentOnAverageWithTheDataResident() {
        Object[] resident = {"gpu.sms", 30, "uvm.preload", true};
        double sum = 0;
        StringBuilder seen = new StringBuilder();
        String[] models = {"etc-2dconv", "etc-3dconv", "etc-lud", "etc-srad", "etc-cons", "etc-scan", "etc-atax", "etc-bicg", "etc-gesummv", "etc-mvt"};
        for (String w : models) {
            double cost = (double) cc().machine(resident).run(w, 1.0).simTimePs() / new Sim().machine(resident).run(w, 1.0).simTimePs() - 1;
            seen.append(String.format(" %s %+.1f %%", w, 100 * cost));
            assertTrue(cost > -0.03, "CC should cost, not gain, with the data resident: " + w + " " + cost);
            sum += cost;
        }
        double mean = sum / models.length;
        System.out.printf("CC resident, 30 SMs: mean %+.1f %% over%s%n", 100 * mean, seen);
        assertTrue(mean > 0.05 && mean < 0.3, "CC's mean cost with the data resident (paper 13 %): " + mean + seen);
    }

    /**
     * A page evicted and fetched again reads its metadata again: its entries leave the metadata cache with it. With a
     * cache holding every block of the footprint, misses beyond one per block of the footprint are re-fetched pages'
     * (they hit their stale entries before the fix).
     */
    @Test
    void anEvictedPagesMetadataLeavesTheMetadataCache() {
        RunResult cc = new Sim().with(new CapacityCompressionProvider(), "mode", "on", "metadata_entries", 65536).run("etc-gesummv", 0.5);
        double blocks = Sim.stat(cc, "uvm.footprint_pages") * (65536 / 4096);
        double misses = Sim.stat(cc, "policy.compression.metadata_misses");
        System.out.printf("gesummv 50%% CC, all-holding metadata cache: %.0f misses, %.0f blocks, %.0f evictions%n", misses, blocks, Sim.stat(cc, "uvm.evictions"));
        assertTrue(Sim.stat(cc, "uvm.evictions") > Sim.stat(cc, "uvm.footprint_pages"), "the run re-fetches pages");
        assertTrue(misses > 1.2 * blocks, "re-fetched pages miss their metadata again: " + misses + " misses, " + blocks + " blocks");
    }

    /**
     * Batches waiting for frames are priced at the compression ratio their pages will be stored at: the classifier
     * switching CC on while they waited left them priced at the old ratio, and with prefetches that evict and several
     * fault handlers the run deadlocked (found by a review).
     */
    @Test
    void compressionSwitchedOnWhileBatchesWaitDoesNotStrandFrames() {
        RunResult r = new Sim().with(new CapacityCompressionProvider(), "mode", "auto", "classify", "per_kernel", "ratio", 2.0)
                .machine("uvm.fault_handlers", 4, "uvm.prefetch_evicts", true).run("etc-gesummv", 0.2);
        assertTrue(Sim.stat(r, "policy.compression.classifier.choice_cc") > 0, "the classifier switched CC on");
        assertTrue(Sim.stat(r, "uvm.evictions") > 0);
    }

    /** Mean latency of the L2's fetches from memory (every slice's fetch latency over its fetches). */
    private static double l2FetchLatencyPs(RunResult r) {
        double ps = 0, n = 0;
        for (var e : r.stats().entrySet()) {
            if (!e.getKey().startsWith("gpu0.l2.slice")) continue;
            if (e.getKey().endsWith(".fetch_latency_ps")) ps += e.getValue();
            else if (e.getKey().endsWith(".fetches")) n += e.getValue();
        }
        return ps / n;
    }

    /** Regular with sharing (LUD): the baseline loses heavily; PE+CC recovers far more than PE alone (R6). */
    @Test
    void regularSharingRecoversWithPeCc() {
        RunResult unl = new Sim().run("etc-lud", 1.0), bl = new Sim().run("etc-lud", 0.75);
        RunResult pe = pe().run("etc-lud", 0.75), cc = cc().run("etc-lud", 0.75);
        RunResult both = pe().with(new CapacityCompressionProvider(), "mode", "on").run("etc-lud", 0.75);
        RunResult auto = etc().run("etc-lud", 0.75);
        print("lud unlimited", unl);
        print("lud 75% BL", bl);
        print("lud 75% PE", pe);
        print("lud 75% PE+CC", both);
        print("lud 75% ETC", auto);
        classifiedAs(auto, 2, 1, 0, 1);
        assertTrue(bl.simTimePs() > 1.5 * unl.simTimePs(), "baseline loses heavily against unlimited memory");
        assertTrue(speedup(bl, both) > 2, "PE+CC over BL: " + speedup(bl, both));
        assertTrue(speedup(bl, both) > 1.5 * speedup(bl, pe), "PE+CC far ahead of PE alone");
        // ratio 1.5 x 75 % holds the whole footprint: PE's condition 1 (allocation > available memory, §4.2)
        // is false with compressed capacity, so PE stands down and PE+CC is CC
        assertTrue(Sim.stat(both, "policy.residency.pe_skipped_fits") > 0 && Sim.stat(both, "uvm.evictions_proactive") == 0, "PE stands down when the compressed footprint fits");
        assertTrue(both.simTimePs() <= cc.simTimePs() * 1.02, "PE+CC not behind CC alone: " + both.simTimePs() + " vs " + cc.simTimePs());
        assertTrue(speedup(bl, auto) > 2, "ETC (classifier) over BL: " + speedup(bl, auto));
        // every step re-streams the trailing part, so the baseline evicts pages a later step faults back in
        // (the L2 lines an eviction drops are checked in platform/machine UvmEvictionCachesTest)
        assertTrue(Sim.stat(bl, "uvm.faults") > 2 * Sim.stat(unl, "uvm.faults"), "the baseline re-faults evicted pages");
    }

    /**
     * LUD (16 trailing-matrix steps, the default) at 50 %: compression alone still leaves the early steps larger
     * than memory; PE+CC beats both PE and CC alone, in the paper's order BL < PE < CC < PE+CC (R6).
     */
    @Test
    void regularSharingPeCcAheadOfEachAlone() {
        Object[] lud = {"iterations", 16};
        RunResult bl = new Sim().run("etc-lud", 0.5, lud), pe = pe().run("etc-lud", 0.5, lud), cc = cc().run("etc-lud", 0.5, lud);
        RunResult both = pe().with(new CapacityCompressionProvider(), "mode", "on").run("etc-lud", 0.5, lud);
        print("lud16 50% BL", bl);
        print("lud16 50% PE", pe);
        print("lud16 50% CC", cc);
        print("lud16 50% PE+CC", both);
        assertTrue(both.simTimePs() < pe.simTimePs() && both.simTimePs() < cc.simTimePs(), "PE+CC ahead of PE and of CC alone");
        assertTrue(cc.simTimePs() < pe.simTimePs() && pe.simTimePs() < bl.simTimePs(), "CC ahead of PE, PE ahead of BL");
        assertTrue(speedup(bl, both) > 1.6, "PE+CC over BL: " + speedup(bl, both));
    }

    /**
     * Regular without sharing (2DCONV): ETC (PE) gets near unlimited memory; the baseline is clearly below
     * (R2); compression alone, which the classifier does not choose here, is behind PE at 50 %. Evicted
     * pages' L2 lines are dropped (dirty ones too: 2DCONV writes B).
     */
    @Test
    void regularNoSharingNearUnlimitedWithPe() {
        RunResult unl = etc().run("etc-2dconv", 1.0), bl = new Sim().run("etc-2dconv", 0.75), auto = etc().run("etc-2dconv", 0.75);
        RunResult auto50 = etc().run("etc-2dconv", 0.5), cc50 = cc().run("etc-2dconv", 0.5);
        print("2dconv unlimited (ETC loaded)", unl);
        print("2dconv 75% BL", bl);
        print("2dconv 75% ETC", auto);
        print("2dconv 50% ETC", auto50);
        print("2dconv 50% CC alone", cc50);
        assertEquals(0, Sim.stat(unl, "policy.residency.classifier.class"), "ETC stays off when the footprint fits");
        classifiedAs(auto, 1, 1, 0, 0);
        assertTrue(bl.simTimePs() > 1.2 * unl.simTimePs());
        assertTrue(auto.simTimePs() < 1.1 * unl.simTimePs(), "ETC within 10% of unlimited: " + auto.simTimePs() + " vs " + unl.simTimePs());
        // at 50 % PE re-faults a few pages the stencil's row above still needs (41 faults vs 29; measured +10 %;
        // the paper's R3 sees such re-faults on one small streaming app)
        assertTrue(auto50.simTimePs() < 1.15 * unl.simTimePs(), "ETC at 50% within 15% of unlimited: " + auto50.simTimePs() + " vs " + unl.simTimePs());
        assertTrue(cc50.simTimePs() > 1.2 * auto50.simTimePs(), "CC alone behind PE on a streaming app");
        assertTrue(Sim.stat(auto, "uvm.evictions_proactive") > 0);
    }

    /** Fault latency 20 -> 50 us slows the baseline markedly (R18, paper -31 %). */
    @Test
    void longerFaultLatencySlowsBaseline() {
        RunResult f20 = new Sim().run("etc-2dconv", 0.75, "20us"), f50 = new Sim().run("etc-2dconv", 0.75, "50us");
        print("2dconv 75% BL 20us", f20);
        print("2dconv 75% BL 50us", f50);
        double perf = (double) f20.simTimePs() / f50.simTimePs();
        assertTrue(perf < 0.8, "performance at 50 us relative to 20 us: " + perf);
    }
}
