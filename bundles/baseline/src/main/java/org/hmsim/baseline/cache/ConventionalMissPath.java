package org.hmsim.baseline.cache;

import org.hmsim.api.policy.L2MissPathPolicy;

/**
 * The conventional L2 miss path (seed 003 §2): the victim is locked when the miss is detected and the
 * fill goes into its way; no fetch buffers. All methods keep the interface's defaults (0 buffers).
 */
public final class ConventionalMissPath implements L2MissPathPolicy {}
