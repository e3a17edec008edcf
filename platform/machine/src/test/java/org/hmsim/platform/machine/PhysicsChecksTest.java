package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.hmsim.api.policy.Slot;
import org.hmsim.api.workload.Workload;
import org.hmsim.platform.gpu.Gpu;
import org.hmsim.platform.memory.dram.DramPool;
import org.junit.jupiter.api.Test;

/**
 * The Baseline-machine issue's physics checks: bandwidth, queues and MSHRs decide performance. Each runs
 * on a small configuration in seconds.
 */
class PhysicsChecksTest {

    /** Check 1: a streaming read with enough warps reaches at least 90 % of the pool's peak. */
    @Test
    void streamingReadReachesNinetyPercentOfPeak() {
        MachineConfig m = TestMachines.machine("agarwal-ch4");
        Workload w = TestMachines.workload("stream", 1, "elements", 2_000_000, "writes", false, "unroll", 4);
        RunResult r = TestMachines.run(m, w, new ClasspathPolicies());
        double peakGBps = 200;
        List<Double> epochs = epochBandwidth(r, "series.gddr.bytes");
        double steady = median(epochs.subList(1, epochs.size() - 1));
        System.out.printf("check 1: steady-state GDDR bandwidth %.1f GB/s of %.0f peak%n", steady, peakGBps);
        assertTrue(steady >= 0.9 * peakGBps, "steady-state GDDR bandwidth " + steady + " GB/s < 90 % of " + peakGBps + " (epochs " + epochs + ")");
        assertTrue(steady <= peakGBps * 1.001, "bandwidth above the configured peak: " + steady);
    }

    /** Check 2: one warp chasing dependent pointers sees the sum of the configured latencies on its path. */
    @Test
    void pointerChaseSeesTheUnloadedLatency() {
        // 2 MB pages keep the chase inside the TLB's reach; one node per line, far larger than the L2.
        MachineConfig m = TestMachines.machine("agarwal-ch4", "page_size", "2MB");
        int hops = 3000;
        Workload w = TestMachines.workload("pointer-chase", 1, "footprint", "64MB", "hops", hops, "warps", 1);
        Machine machine = new Machine(m, new ClasspathPolicies(), 1, "latency");
        RunResult r = Simulation.run(machine, new RunSpec("latency", m, w, null, 1, 1_000_000_000L, 0));
        Gpu gpu = machine.gpuList().get(0);
        DramPool gddr = machine.poolList().get(0);
        long expected = gpu.unloadedLoadLatencyPs(3, 1, 0, gddr.rowConflictReadLatencyPs(32));
        double measured = (double) r.simTimePs() / hops;
        System.out.printf("check 2: per-hop latency measured %.0f ps, configured path %d ps%n", measured, expected);
        assertEquals(expected, measured, expected * 0.01, "per-hop latency (expected " + expected + " ps from the configured latencies)");
    }

    /**
     * Check 3: Little's law at the DRAM, occupancy = throughput x latency, across a load sweep. The channel keeps both
     * statistics from one queue (the delay ends when the request leaves the queue), so the law holds by construction:
     * what this catches is a slip in that bookkeeping (a request counted but never queued, a delay recorded at the
     * wrong event). The physics is the sweep: more independent chains queue more, and each waits longer.
     */
    @Test
    void littlesLawHoldsAcrossALoadSweep() {
        MachineConfig m = TestMachines.machine("small");
        double lastOccupancy = -1, lastDelay = -1;
        for (int chains : new int[] {1, 8, 32}) {
            Workload w = TestMachines.workload("pointer-chase", 1, "footprint", "16MB", "hops", 200, "warps", 16, "chains", chains);
            RunResult r = TestMachines.run(m, w, new ClasspathPolicies());
            double seconds = r.simTimePs() * 1e-12;
            Map<String, Double> s = r.stats();
            double requests = s.get("pool.gddr.reads") + s.get("pool.gddr.writes");
            double throughput = requests / seconds;
            double latency = s.get("pool.gddr.queue_delay_ps.mean") * 1e-12;
            double occupancy = s.get("pool.gddr.avg_queue_occupancy");
            System.out.printf("check 3: chains=%d N=%.3f X*R=%.3f%n", chains, occupancy, throughput * latency);
            assertEquals(occupancy, throughput * latency, 0.1 * occupancy, "chains=" + chains + ": N=" + occupancy + " X=" + throughput + " R=" + latency);
            assertTrue(occupancy > lastOccupancy && latency > lastDelay, "chains=" + chains + ": N " + occupancy + " after " + lastOccupancy
                    + ", R " + latency + " after " + lastDelay);
            lastOccupancy = occupancy;
            lastDelay = latency;
        }
    }

    /**
     * Check 4: the ratio placement swept over the seed-000 machine with a bandwidth-bound workload peaks
     * at 60-80 % of pages in GDDR, and all-GDDR (LOCAL) is clearly slower than the peak.
     */
    @Test
    void ratioSweepPeaksWhereBandwidthsBalance() {
        MachineConfig m = TestMachines.machine("agarwal-ch4");
        double best = 0;
        int bestPercent = -1;
        double local = 0;
        for (int pct = 0; pct <= 100; pct += 10) {
            Workload w = TestMachines.workload("stream", 1, "elements", 1_000_000, "unroll", 2);
            RunResult r = TestMachines.run(m, w, new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", pct)));
            double throughput = 1e12 / r.simTimePs();
            if (throughput > best) {
                best = throughput;
                bestPercent = pct;
            }
            if (pct == 100) local = throughput;
            System.out.printf("check 4: %d%% GDDR -> %.1f us%n", pct, r.simTimePs() / 1e6);
        }
        assertTrue(bestPercent >= 60 && bestPercent <= 80, "throughput peaks at " + bestPercent + " % GDDR");
        assertTrue(local < best / 1.10, "all-GDDR (" + local + ") should be >10 % slower than the peak (" + best + ")");
    }

    /** Check 5a: fewer L1 MSHRs reduce a bandwidth-bound workload's throughput. */
    @Test
    void fewerMshrsReduceThroughput() {
        Workload w1 = TestMachines.workload("stream", 1, "elements", 500_000, "writes", false, "unroll", 4);
        Workload w2 = TestMachines.workload("stream", 1, "elements", 500_000, "writes", false, "unroll", 4);
        RunResult many = TestMachines.run(TestMachines.machine("agarwal-ch4"), w1, new ClasspathPolicies());
        RunResult few = TestMachines.run(TestMachines.machine("agarwal-ch4", "gpu.l1.mshrs", 4), w2, new ClasspathPolicies());
        System.out.printf("check 5a: 64 MSHRs %.1f us, 4 MSHRs %.1f us%n", many.simTimePs() / 1e6, few.simTimePs() / 1e6);
        assertTrue(few.simTimePs() > 1.3 * many.simTimePs(), "4 MSHRs " + few.simTimePs() + " ps vs 64 MSHRs " + many.simTimePs() + " ps");
    }

    /** Check 5b: sgemm (high reuse) barely moves when DDR bandwidth halves; stream does. */
    @Test
    void sgemmIsInsensitiveToDdrBandwidthButStreamIsNot() {
        ClasspathPolicies ratio = new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 70));
        double sgemmFull = TestMachines.run(TestMachines.machine("agarwal-ch4"), TestMachines.workload("sgemm", 1, "n", 128), ratio).simTimePs();
        double sgemmHalf = TestMachines.run(TestMachines.machine("agarwal-ch4", "pools.1.bandwidth", "40GB/s"), TestMachines.workload("sgemm", 1, "n", 128),
                new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 70))).simTimePs();
        assertTrue(sgemmHalf < 1.05 * sgemmFull, "sgemm slowed by " + (sgemmHalf / sgemmFull) + "x when DDR bandwidth halved");
        double streamFull = TestMachines.run(TestMachines.machine("agarwal-ch4"), TestMachines.workload("stream", 1, "elements", 500_000),
                new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 70))).simTimePs();
        double streamHalf = TestMachines.run(TestMachines.machine("agarwal-ch4", "pools.1.bandwidth", "40GB/s"), TestMachines.workload("stream", 1, "elements", 500_000),
                new ClasspathPolicies().with(Slot.PLACEMENT, "ratio", Map.of("fast_percent", 70))).simTimePs();
        System.out.printf("check 5b: sgemm %.1f -> %.1f us, stream %.1f -> %.1f us when DDR halves%n", sgemmFull / 1e6, sgemmHalf / 1e6, streamFull / 1e6, streamHalf / 1e6);
        assertTrue(streamHalf > 1.2 * streamFull, "stream slowed only " + (streamHalf / streamFull) + "x when DDR bandwidth halved");
    }

    /** GB/s of each epoch, from a cumulative bytes series. */
    static List<Double> epochBandwidth(RunResult r, String series) {
        int col = r.seriesNames().indexOf(series) + 1;
        assertTrue(col > 0, "no series " + series + " in " + r.seriesNames());
        List<Double> out = new ArrayList<>();
        double prevT = 0, prevB = 0;
        for (double[] row : r.seriesRows()) {
            double dt = row[0] - prevT;
            if (dt > 0) out.add((row[col] - prevB) / dt);
            prevT = row[0];
            prevB = row[col];
        }
        return out;
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        return s.get(s.size() / 2);
    }
}
