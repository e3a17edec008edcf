package org.hmsim.platform.machine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.ResidencyPolicy;
import org.hmsim.api.policy.Slot;
import org.junit.jupiter.api.Test;

/**
 * A prefetcher's author can tell its pages from the tree prefetcher's ({@code uvm.prefetches_policy}) and see how many
 * were wasted ({@code uvm.prefetches_unused}: evicted before any walk asked for them). Found by a third-party plugin
 * author: {@code uvm.prefetches} summed both prefetchers, so a study of one's own prefetcher beside the machine's could
 * not say whose pages came, nor whether they were used.
 */
class PrefetchStatisticsTest {
    /** Prefetches {@code distance} pages past each fault: far enough, at half memory, that many are evicted unused. */
    static final class Ahead implements PolicyProvider {
        @Override public Slot slot() { return Slot.RESIDENCY; }
        @Override public String name() { return "ahead"; }
        @Override public String description() { return "test"; }
        @Override public List<ParamSpec> parameters() { return List.of(); }
        @Override public Policy create(PolicyContext c, Params p) {
            return new ResidencyPolicy() {
                @Override public int prefetch(long vpn, long[] out) {
                    for (int k = 0; k < 4; k++) out[k] = vpn + 8 + k;
                    return 4;
                }
            };
        }
    }

    private static RunResult run(String residency, String prefetcher) {
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.prefetcher", prefetcher,
                "uvm.prefetch_evicts", true);
        return TestMachines.run(m, TestMachines.workload("etc-atax", 1), new ClasspathPolicies(new Ahead()).with(Slot.RESIDENCY, residency));
    }

    @Test
    void theSlotsPrefetchesAreCountedApartAndTheWastedOnesToo() {
        RunResult tree = run("fifo", "tree"), mine = run("ahead", "none"), both = run("ahead", "tree");
        for (RunResult r : List.of(tree, mine, both))
            System.out.printf("prefetches %.0f, by the policy %.0f, unused %.0f, faults %.0f%n", r.stats().get("uvm.prefetches"),
                    r.stats().get("uvm.prefetches_policy"), r.stats().get("uvm.prefetches_unused"), r.stats().get("uvm.faults"));
        assertEquals(0, tree.stats().get("uvm.prefetches_policy"), "fifo proposes nothing");
        assertTrue(mine.stats().get("uvm.prefetches") > 0);
        assertEquals(mine.stats().get("uvm.prefetches"), mine.stats().get("uvm.prefetches_policy"), "no tree: every prefetch is the policy's");
        assertTrue(both.stats().get("uvm.prefetches_policy") > 0 && both.stats().get("uvm.prefetches_policy") < both.stats().get("uvm.prefetches"));
        assertTrue(mine.stats().get("uvm.prefetches_unused") > 0, "pages prefetched 8 ahead at half memory are evicted before use");
        assertTrue(mine.stats().get("uvm.prefetches_unused") <= mine.stats().get("uvm.prefetches"));
        assertTrue(mine.stats().get("uvm.prefetches_unused") <= mine.stats().get("uvm.evictions"));
        // what the policy proposed, taken or not (a prefetcher that never got a page in had nothing to show: a UVM trial)
        assertTrue(mine.stats().get("uvm.prefetch_proposals_policy") >= mine.stats().get("uvm.prefetches_policy"));
        assertEquals(0, tree.stats().get("uvm.prefetch_proposals_policy"));
    }

    /**
     * The tree's region ends at the faulting page's allocation: one 64 KB array read beside a 10-page one the kernel never
     * touches faults once and brings that page alone (a trial: 7 of the neighbour's pages came with it, 512 KB copied).
     */
    @Test
    void theTreeDoesNotPrefetchAnotherAllocationsPages() {
        var file = org.hmsim.platform.workloads.file.WorkloadFile.parse("""
                name: untouched
                allocations:
                  - {name: a, size: 64KB, read_only: true}
                  - {name: b, size: 640KB}
                kernels:
                  - name: k
                    grid: 64
                    block: 256
                    steps:
                      - load: {alloc: a, index: "cta*256 + tid"}
                """, "untouched.yaml");
        RunResult r = TestMachines.run(TestMachines.machine("etc", "gpu.sms", 8), file.create(Params.validate(file.parameters(), java.util.Map.of()), 1),
                new ClasspathPolicies());
        assertEquals(11, r.stats().get("uvm.footprint_pages"), "the case: a's page and b's ten");
        assertEquals(1, r.stats().get("uvm.faults"));
        assertEquals(0, r.stats().get("uvm.prefetches"), "nothing of b");
        assertEquals(65536, r.stats().get("uvm.h2d.bytes"));
    }

    /**
     * A prefetcher sees each batch before it answers for its faults, may take prefetching over from the machine's tree,
     * and can read the copy engine's backlog (a UVM prefetching trial could do none of the three).
     */
    @Test
    void aPrefetcherSeesTheBatchAndMayReplaceTheTree() {
        List<String> calls = new java.util.ArrayList<>();
        long[] backlog = {-1};
        PolicyProvider own = new PolicyProvider() {
            @Override public Slot slot() { return Slot.RESIDENCY; }
            @Override public String name() { return "own"; }
            @Override public String description() { return "test"; }
            @Override public List<ParamSpec> parameters() { return List.of(); }
            @Override public Policy create(PolicyContext c, Params p) {
                return new ResidencyPolicy() {
                    @Override public void onFaultBatch(long[] vpns, int count) {
                        calls.add("batch " + count);
                        backlog[0] = Math.max(backlog[0], c.machine().unifiedMemory().copiesInFlight());
                    }
                    @Override public int prefetch(long vpn, long[] out) {
                        calls.add("prefetch");
                        return 0;
                    }
                    @Override public boolean replacesMachinePrefetcher() { return true; }
                };
            }
        };
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 1.0, "uvm.prefetcher", "tree");
        RunResult r = TestMachines.run(m, TestMachines.workload("etc-atax", 1), new ClasspathPolicies(own).with(Slot.RESIDENCY, "own"));
        assertEquals(0, r.stats().get("uvm.prefetches"), "the tree is off while the policy replaces it, and it proposes nothing");
        assertEquals(r.stats().get("uvm.fault_batches"), (double) calls.stream().filter(x -> x.startsWith("batch")).count());
        assertEquals("batch", calls.get(0).substring(0, 5), "the batch comes before its prefetch calls");
        int faults = calls.stream().filter(x -> x.startsWith("batch")).mapToInt(x -> Integer.parseInt(x.substring(6))).sum();
        assertEquals(r.stats().get("uvm.faults"), (double) faults, "each batch's faults, all of them");
        assertEquals(faults, calls.stream().filter("prefetch"::equals).count(), "then prefetch for each");
        assertTrue(backlog[0] >= 0, "the driver tells its copy backlog");
        RunResult tree = TestMachines.run(m, TestMachines.workload("etc-atax", 1), new ClasspathPolicies());
        assertTrue(tree.stats().get("uvm.prefetches") > 0, "the case: the tree prefetches here");
    }

    /** A residency policy whose prefetch answers {@code answer(vpn, out)}. */
    private static PolicyProvider prefetching(java.util.function.ToIntBiFunction<Long, long[]> answer) {
        return new PolicyProvider() {
            @Override public Slot slot() { return Slot.RESIDENCY; }
            @Override public String name() { return "bad"; }
            @Override public String description() { return "test"; }
            @Override public List<ParamSpec> parameters() { return List.of(); }
            @Override public Policy create(PolicyContext c, Params p) {
                return new ResidencyPolicy() {
                    @Override public int prefetch(long vpn, long[] out) { return answer.applyAsInt(vpn, out); }
                };
            }
        };
    }

    private static String failure(PolicyProvider p) {
        MachineConfig m = TestMachines.machine("etc", "gpu.sms", 8, "uvm.oversubscription", 0.5, "uvm.prefetch_evicts", true);
        Throwable t = org.junit.jupiter.api.Assertions.assertThrows(RuntimeException.class,
                () -> TestMachines.run(m, TestMachines.workload("etc-atax", 1), new ClasspathPolicies(p).with(Slot.RESIDENCY, "bad")));
        StringBuilder all = new StringBuilder();
        for (; t != null; t = t.getCause()) all.append(t.getMessage()).append(" | ");
        return all.toString();
    }

    /**
     * A prefetch count past what the policy wrote took the tree's pages left in {@code out} as the policy's (a trial's
     * count of out.length + 10 with nothing written: 491 "policy" prefetches); a count outside the buffer was clamped.
     * Both are the policy's bug and fail the run, naming it.
     */
    @Test
    void aPrefetchCountPastWhatThePolicyWroteFailsTheRun() {
        String over = failure(prefetching((vpn, out) -> out.length + 10));
        assertTrue(over.contains("prefetch(") && over.contains("returned 74, not a count of 0 to out.length (64)") && over.contains("PrefetchStatisticsTest"), over);
        String unwritten = failure(prefetching((vpn, out) -> 3));
        assertTrue(unwritten.contains("returned 3 pages but out[0] is -1, not a page number"), unwritten);
        assertTrue(failure(prefetching((vpn, out) -> -1)).contains("returned -1, not a count"));
    }
}
