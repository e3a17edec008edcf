package org.hmsim.api.os;

/**
 * What profiling found about the per-block stride of one allocation (seed 004 §4.1): either the
 * runtime-constant stride {@code index_K - index_(K-1)} of an access whose threads all move by that one
 * distance between consecutive blocks (the compiler pass's RCS; {@code cov} 0), or, where every kernel reaches it only through loaded
 * indices or ranges (graphs), the profiler's fallback: over sampled pairs of consecutive thread blocks
 * K-1, K of the first kernel that touches it, the distance between the lowest addresses each block
 * touches.
 *
 * @param meanBytes the stride, or the mean distance μ between consecutive blocks' data, bytes (0: they use the same data)
 * @param cov       coefficient of variation σ/μ of that distance (0 for a constant stride; infinite when μ = 0 and σ > 0)
 * @param pairs     sampled pairs that touched the allocation (0: no sampled block touched it)
 * @since api.os 1.3.0
 */
public record CtaStrideProfile(double meanBytes, double cov, int pairs) {}
