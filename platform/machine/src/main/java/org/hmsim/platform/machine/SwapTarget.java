package org.hmsim.platform.machine;

import java.util.function.Function;
import org.hmsim.api.policy.Policy;
import org.hmsim.api.policy.PolicyContext;

/**
 * A resolved swap target: {@code name@version}, the providing bundle, the parameters as text and the
 * factory that creates the instance. Held only while the swap is carried out (a factory reaches its
 * provider, so keeping it would keep the provider's bundle alive).
 */
public record SwapTarget(String id, String bundle, String params, Function<PolicyContext, Policy> factory) {}
