package org.hmsim.api.machine;

import java.util.List;
import org.hmsim.api.engine.ClockDomain;
import org.hmsim.api.engine.Engine;

/**
 * The assembled machine as a policy sees it: read-mostly views of its components and the controls a
 * policy is allowed to use. A policy receives it through its {@link org.hmsim.api.policy.PolicyContext}.
 */
@org.osgi.annotation.versioning.ProviderType
public interface MachineView {
    Engine engine();

    ClockDomain gpuClock();

    int gpuCount();

    /** SMs of every GPU, GPU-major. */
    List<? extends CoreView> sms();

    List<PoolInfo> pools();

    List<? extends DramView> dram();

    List<? extends LinkView> links();

    /** The pool attached to a GPU's node (its local memory). */
    int localPool(int gpu);

    int lineBytes();

    long pageBytes();

    /**
     * Stalls every SM of a GPU for {@code ps} picoseconds (a GPU-wide TLB shootdown): instructions
     * stop issuing, requests in flight continue.
     */
    void stallGpu(int gpu, long ps);

    /** The unified-memory (demand paging) driver, or null if the machine does not demand-page. Since api.machine 1.1.0. */
    default UnifiedMemory unifiedMemory() { return null; }
}
