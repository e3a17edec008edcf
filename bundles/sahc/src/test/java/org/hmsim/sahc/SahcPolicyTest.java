package org.hmsim.sahc;

import static org.hmsim.api.policy.CoherencePolicy.AGENT_CPU;
import static org.hmsim.api.policy.CoherencePolicy.PATH_DIRECTORY;
import static org.hmsim.api.policy.CoherencePolicy.PATH_MEMORY;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.hmsim.api.policy.CoherencePolicy;
import org.hmsim.api.stats.Histogram;
import org.hmsim.api.stats.Stats;
import org.junit.jupiter.api.Test;

/** The page-permission state machines of Fig. 5a/5b and SAHC-A's gpuWorkFinish. */
class SahcPolicyTest {
    private static final Stats NO_STATS = new Stats() {
        @Override public void counter(String n, String d, java.util.function.LongSupplier r) {}
        @Override public void gauge(String n, String d, java.util.function.DoubleSupplier r) {}
        @Override public Histogram histogram(String n, String d, long max) { return null; }
        @Override public Stats scope(String p) { return this; }
        @Override public void sampleEachEpoch(String n) {}
    };

    private static SahcPolicy policy(SahcPolicy.Variant v) { return new SahcPolicy(v, 5000, 3, NO_STATS); }

    @Test
    void ownerFlipsOnFaultsAndThePageIsSharedAfterTheThird() {
        SahcPolicy p = policy(SahcPolicy.Variant.BASIC);
        assertEquals(0, p.checkAccess(AGENT_CPU, 7, true), "first touch is not a coherence fault");
        assertEquals(PageStates.CPU_ONLY, p.state(7));
        assertEquals(PATH_MEMORY, p.missPath(AGENT_CPU, 7), "non-shared pages skip the directory");
        assertEquals(5000, p.checkAccess(0, 7, false));
        assertEquals(PageStates.GPU_ONLY, p.state(7));
        assertEquals(0, p.checkAccess(0, 7, false));
        assertEquals(5000, p.checkAccess(AGENT_CPU, 7, false));
        assertEquals(PageStates.CPU_ONLY, p.state(7));
        assertEquals(5000, p.checkAccess(0, 7, false));
        assertEquals(PageStates.CPU_GPU, p.state(7), "third fault: actively shared");
        assertEquals(PATH_DIRECTORY, p.missPath(0, 7));
        assertEquals(0, p.checkAccess(AGENT_CPU, 7, true), "CPU_GPU is sticky and never faults");
    }

    @Test
    void sahcTHandsCpuInitPagesToTheirFirstAccessorAfterLaunch() {
        SahcPolicy p = policy(SahcPolicy.Variant.TRANSPARENT);
        p.checkAccess(AGENT_CPU, 1, true);
        assertEquals(PageStates.CPU_INIT, p.state(1));
        assertEquals(CoherencePolicy.FLUSH_CPU_CACHES, p.onRuntimeEvent(CoherencePolicy.EVENT_KERNEL_LAUNCH, 0));
        assertEquals(0, p.onRuntimeEvent(CoherencePolicy.EVENT_KERNEL_LAUNCH, 1), "only the first launch flushes");
        assertEquals(0, p.checkAccess(0, 1, false), "no fault: the walker converts CPU_INIT");
        assertEquals(PageStates.GPU_ONLY, p.state(1));
        assertEquals(0, p.onRuntimeEvent(CoherencePolicy.EVENT_GPU_WORK_FINISH, 2), "SAHC-T ignores gpuWorkFinish");
        assertEquals(5000, p.checkAccess(AGENT_CPU, 1, false), "post-processing faults under SAHC-T");
    }

    @Test
    void sahcALetsTheCpuReadGpuPagesAfterGpuWorkFinish() {
        SahcPolicy p = policy(SahcPolicy.Variant.APPARENT);
        p.onRuntimeEvent(CoherencePolicy.EVENT_KERNEL_LAUNCH, 0);
        p.checkAccess(0, 9, true);
        assertEquals(CoherencePolicy.FLUSH_GPU_CACHES, p.onRuntimeEvent(CoherencePolicy.EVENT_GPU_WORK_FINISH, 1));
        assertEquals(0, p.checkAccess(AGENT_CPU, 9, false));
        assertEquals(PageStates.GPU_ONLY, p.state(9));
        assertEquals(PATH_MEMORY, p.missPath(AGENT_CPU, 9));
    }
}
