package org.hmsim.baseline.throttling;

import org.hmsim.api.machine.CoreView;
import org.hmsim.api.machine.MachineView;
import org.hmsim.api.policy.ThrottlingPolicy;

/**
 * Sets its caps when it takes effect ({@link #begin}) and leaves them. An SM beyond {@code smsPerGpu} gets a thread-block
 * cap of 0 rather than a closed issue gate: it finishes what it holds (a swap mid-kernel strands no block) and the
 * dispatcher sends the rest to the SMs left. A cap above an SM's hardware (the check refuses it where the machine is
 * known) is taken as the hardware's.
 */
final class StaticThrottling implements ThrottlingPolicy {
    private final MachineView machine;
    private final int smsPerGpu, ctasPerSm, warpsPerSm;

    StaticThrottling(MachineView machine, int smsPerGpu, int ctasPerSm, int warpsPerSm) {
        this.machine = machine;
        this.smsPerGpu = smsPerGpu;
        this.ctasPerSm = ctasPerSm;
        this.warpsPerSm = warpsPerSm;
    }

    @Override
    public void begin(long nowPs) {
        for (CoreView sm : machine.sms()) {
            boolean active = smsPerGpu == 0 || sm.index() < smsPerGpu;
            sm.setCtaLimit(active ? cap(ctasPerSm, sm.maxCtas()) : 0);
            sm.setWarpLimit(cap(warpsPerSm, sm.maxWarps()));
        }
    }

    private static int cap(int given, int hardware) { return given == 0 ? hardware : Math.min(given, hardware); }
}
