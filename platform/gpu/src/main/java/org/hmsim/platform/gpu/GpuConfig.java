package org.hmsim.platform.gpu;

/**
 * One GPU's specification: SM count and residency limits, issue width, caches, crossbar, TLBs.
 * Latencies are in GPU core cycles ({@code clockMHz}).
 *
 * @param issueWidth instructions (warp-instructions) an SM can issue per cycle
 * @param l2Slices number of L2 slices; {@code l2} describes one slice
 */
public record GpuConfig(double clockMHz, int sms, int maxCtasPerSm, int maxWarpsPerSm, long sharedBytesPerSm,
                        int issueWidth, CacheConfig l1, CacheConfig l2, int l2Slices, CrossbarConfig crossbar,
                        TlbConfig tlb) {}
