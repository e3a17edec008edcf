package org.hmsim.platform.machine;

import java.util.LinkedHashMap;
import java.util.SortedMap;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.gpu.sm.Sm;
import org.hmsim.platform.memory.dram.DramPool;
import org.hmsim.platform.memory.link.Link;

/**
 * The headline metrics of a run — the columns of runs.csv — in a fixed order. Every one is derived
 * from component counters; docs/metrics.md documents each.
 */
final class Metrics {
    private Metrics() {}

    static long lineRequests(Machine m) {
        long n = 0;
        for (Gpu g : m.gpus) for (Sm sm : g.sms()) n += sm.lineRequests();
        return n;
    }

    /**
     * A multiprogrammed run's programs (seed 004 §6.5): each one's time to its end, {@code program<p>_time_ns}, and their
     * mean, {@code mean_program_time_ns} (the mean turnaround: every program starts at 0). {@code sim_time_ns} is the
     * last one's.
     */
    static void programs(LinkedHashMap<String, Double> out, long[] endsPs, int gpus) {
        double sum = 0, last = 0;
        for (int p = 0; p < endsPs.length; p++) {
            out.put("program" + p + "_time_ns", endsPs[p] / 1000.0);
            sum += endsPs[p] / 1000.0;
            last = Math.max(last, endsPs[p]);
        }
        out.put("mean_program_time_ns", sum / endsPs.length);
        // the grid launcher's balance does not apply (each program has its GPU); a GPU idles once its program has ended,
        // and for the whole run if it has none (a review found both columns reading 0 in every mix)
        out.remove("cta_imbalance");
        if (gpus == 1) return; // the column is for several GPUs
        double idle = gpus - endsPs.length;
        for (long e : endsPs) idle += last == 0 ? 0 : (last - e) / last;
        out.put("gpu_idle_tail_fraction", idle / gpus);
    }

    static LinkedHashMap<String, Double> headline(Machine m, SortedMap<String, Double> stats, long endPs, int kernels) {
        LinkedHashMap<String, Double> out = new LinkedHashMap<>();
        double ns = endPs / 1000.0;
        double cycles = endPs / (double) m.gpuClock().periodPs();
        long instr = 0, memInstr = 0, lines = 0, pages = 0, l1h = 0, l1m = 0, l1a = 0, l2h = 0, l2m = 0, l2a = 0, l2Lookups = 0, frcLookups = 0, frcSwaps = 0, xbarBytes = 0;
        long evictPs = 0, fetchPs = 0, fetches = 0, frcMisses = 0, vcHits = 0, mlpIntegral = 0, mlpBusy = 0; // seed 003's miss-path statistics
        double xbarResp = 0; // the busiest GPU's response ports
        for (Gpu g : m.gpus) {
            xbarBytes += g.crossbar().bytesCarried();
            xbarResp = Math.max(xbarResp, g.crossbar().responsePortShare(endPs));
            for (Sm sm : g.sms()) {
                instr += sm.issued();
                memInstr += sm.memInstructions();
                lines += sm.lineRequests();
                pages += sm.pageAccesses();
                l1h += sm.l1().hits();
                l1m += sm.l1().misses();
                l1a += sm.l1().accesses();
            }
            for (var s : g.l2Slices()) {
                l2h += s.hits();
                l2m += s.misses();
                l2a += s.accesses();
                l2Lookups += s.lookupMisses();
                frcLookups += s.frcLookups();
                frcSwaps += s.frcSwaps();
                evictPs += s.evictLatencyPs();
                fetchPs += s.fetchLatencyPs();
                fetches += s.fetchesTimed();
                frcMisses += s.frcMisses();
                vcHits += s.vcHits();
                mlpIntegral += s.mlpIntegralPs();
                mlpBusy += s.mlpBusyPs();
            }
        }
        out.put("sim_time_ns", ns);
        out.put("kernels", (double) kernels);
        out.put("warp_instructions", (double) instr);
        out.put("ipc", cycles > 0 ? instr / cycles : 0);
        out.put("line_requests", (double) lines);
        out.put("lines_per_mem_instruction", ratio(lines, memInstr));
        out.put("pages_per_mem_instruction", ratio(pages, memInstr));
        // absent (an empty cell) where no load reached the cache: a store-only run read 0, a hit rate it never had (a trial)
        if (l1h + l1m > 0) out.put("l1_hit_rate", ratio(l1h, l1h + l1m));
        if (l2h + l2m > 0) out.put("l2_hit_rate", ratio(l2h, l2h + l2m));
        out.put("xbar_resp_utilisation", xbarResp);
        double dramPj = 0, linkPj = 0;
        for (DramPool p : m.pools) {
            String n = "pool." + p.config().name();
            double bytes = p.bytesServed();
            // over the run and any copies or write-backs still moving after its last kernel, whose bytes count too
            // (over the run alone a pool that migrated pages to the end showed more than its peak)
            double window = Math.max(endPs, p.lastDataEndPs()) / 1000.0;
            out.put(n + ".bytes", bytes);
            out.put(n + ".bandwidth_gbps", window > 0 ? bytes / window : 0);
            out.put(n + ".utilisation", window > 0 ? bytes / window / (p.config().bytesPerSecond() / 1e9) : 0);
            // absent where the pool served no column command: 0 read as a real rate (a trial's unused DDR under local placement)
            long columns = p.rowHits() + p.rowMisses() + p.rowConflicts();
            if (columns > 0) out.put(n + ".row_hit_rate", ratio(p.rowHits(), columns));
            out.put(n + ".pages", (double) m.os.mappedPages(p.index()));
            dramPj += p.energyPj();
        }
        for (Link l : m.links) {
            String n = "link." + l.config().name();
            out.put(n + ".wire_bytes", (double) (l.wireBytes(0) + l.wireBytes(1)));
            linkPj += l.energyPj();
        }
        MachineConfig.GpuEnergy e = m.cfg.gpuEnergy();
        // every access: loads, stores, atomics, merges; at the L2 every look-up attempt (only loads were charged until 2026-11-27)
        double gpuPj = instr * e.instructionPj() + l1a * e.l1AccessPj() + l2a * e.l2AccessPj()
                + xbarBytes * e.xbarPjPerByte() // the SM-L2 crossbar, both ways (it was parsed but left out until 2026-11-26)
                + frcLookups * e.frcLookupPj() + frcSwaps * e.frcSwapPj(); // seed 003 §6.6.4: FRC tag look-ups and swaps
        out.put("energy_uj", (gpuPj + dramPj + linkPj) / 1e6);
        out.put("energy_dram_uj", dramPj / 1e6);
        out.put("page_faults", (double) m.os.firstTouchFaults());
        out.put("migrations", (double) m.os.migrations());
        // seed 003 (FRC) headline metrics: operations (work-item instructions, a warp instruction = warp-width
        // operations, as the thesis counts a 64-wide SIMD instruction as 64) per GPU cycle, and L2 read misses
        // per kilo-operation
        double ops = (double) instr * org.hmsim.api.workload.WarpInstruction.THREADS;
        out.put("opc", cycles > 0 ? ops / cycles : 0);
        out.put("l2_mpko", ops > 0 ? l2m / (ops / 1000) : 0);
        // the same, counting every look-up attempt that did not hit, as Multi2Sim's memory report counts "Misses"
        // (re-sent NACKed requests and re-run waiting ones again): which of the two seed 003's MPKO is is not stated
        out.put("l2_mpko_lookups", ops > 0 ? l2Lookups / (ops / 1000) : 0);
        // the L2 miss latency split the thesis reports (Figs 6.8/6.12), the share of misses FRC entries take (Fig 5.7)
        // and the fetches in flight per slice (its MLP argument)
        out.put("l2_evict_ns_per_miss", l2m + vcHits > 0 ? evictPs / 1000.0 / (l2m + vcHits) : 0); // a victim-cache hit takes a victim way too
        out.put("l2_fetch_ns", fetches > 0 ? fetchPs / 1000.0 / fetches : 0);
        out.put("frc_share", l2m > 0 ? (double) frcMisses / l2m : 0);
        out.put("l2_mlp", mlpBusy > 0 ? (double) mlpIntegral / mlpBusy : 0);
        if (m.uvm != null) org.hmsim.platform.machine.uvm.UvmMetrics.put(stats, out); // demand paging (seed 002)
        if (m.multiGpu != null) m.multiGpu.addMetrics(out, endPs, m.links, m.os); // seed 004: local/remote traffic, link use, GPU balance
        if (m.cpu != null) CpuMetrics.put(stats, out); // seed 001: directory lookups, queueing, probes, faults, toggles
        return out;
    }

    private static double ratio(long a, long b) { return b == 0 ? 0 : (double) a / b; }
}
