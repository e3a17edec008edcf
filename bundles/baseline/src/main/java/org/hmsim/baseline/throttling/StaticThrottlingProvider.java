package org.hmsim.baseline.throttling;

import java.util.List;
import org.hmsim.api.policy.ParamSpec;
import org.hmsim.api.policy.Params;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;
import org.hmsim.api.policy.PolicyProvider;
import org.hmsim.api.policy.RunFacts;
import org.hmsim.api.policy.Slot;
import org.osgi.service.component.annotations.Component;

/**
 * Throttling {@code static}: fixed caps on the SMs of each GPU, the thread blocks of each SM and the warps of each SM
 * that issue, set once and never adjusted. The comparison point of the dynamic throttling papers: a static warp limit
 * is CCWS's SWL (Rogers et al., MICRO 2012: the best static limit per application, against which CCWS adapts), a
 * static thread-block limit is what DYNCTA (Kayiran et al., PACT 2013) tunes at run time. 0 leaves a cap at the
 * hardware's.
 */
@Component(service = PolicyProvider.class, property = {
        PolicyProvider.SLOT + "=throttling", PolicyProvider.NAME + "=static", PolicyProvider.VERSION + "=1.0.0"})
public final class StaticThrottlingProvider implements PolicyProvider {
    static final String SMS = "sms_per_gpu", CTAS = "ctas_per_sm", WARPS = "warps_per_sm";

    @Override public Slot slot() { return Slot.THROTTLING; }

    @Override public String name() { return "static"; }

    @Override public String description() {
        return "Static caps, set once: SMs per GPU that take thread blocks, thread blocks per SM, warps per SM that issue "
                + "(the oldest; CCWS's static warp limiting). 0 leaves a cap at the hardware's.";
    }

    @Override public List<ParamSpec> parameters() {
        return List.of(
                ParamSpec.integer(SMS, 0, 0, 64, "SMs of each GPU that take thread blocks, the first by index (0: all); the others "
                        + "finish the blocks they hold"),
                ParamSpec.integer(CTAS, 0, 0, 64, "thread blocks an SM may hold (0: the hardware's gpu.max_ctas_per_sm)"),
                ParamSpec.integer(WARPS, 0, 0, 64, "warps of an SM that may issue, the oldest not waiting at a barrier "
                        + "(0: all; the others stay resident and wait)"));
    }

    /** A cap given at or above the machine's SMs or slots caps nothing there (validation refuses it if it caps nothing anywhere). */
    @Override public String note(Params params, RunFacts run) {
        java.util.List<String> n = new java.util.ArrayList<>();
        if (params.given(SMS)) n.add(RunFacts.capsNothing(SMS, params.getInt(SMS), run.smsPerGpu(), "SMs per GPU"));
        if (params.given(CTAS)) n.add(RunFacts.capsNothing(CTAS, params.getInt(CTAS), run.ctasPerSm(), "thread blocks per SM"));
        if (params.given(WARPS)) n.add(RunFacts.capsNothing(WARPS, params.getInt(WARPS), run.warpsPerSm(), "warps per SM"));
        n.removeIf(java.util.Objects::isNull);
        return n.isEmpty() ? null : String.join("; ", n);
    }

    @Override public Policy create(PolicyContext ctx, Params params) {
        return new StaticThrottling(ctx.machine(), params.getInt(SMS), params.getInt(CTAS), params.getInt(WARPS));
    }
}
